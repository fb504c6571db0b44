import Foundation
import GroupSim
import GroupSimMessages
import GroupSimTesting
@testable import GroupSimChecking
import Testing

/// A poll controller that stages the tapped bubble's fields with the step's, and on each
/// copy that reaches a second device (`-ipad`) while it runs does one of four things:
/// nothing, fetch the poll's record, write the record, or send a bubble back. On phones
/// (which take the steps) it does nothing on arrival, so that the orders stay few enough
/// to enumerate: the devices that act and the devices counted apart then meet in one
/// scenario.
final class ReactingArrivalController: MSMessagesAppViewController, ComposeRequestHandling {
    typealias Reaction = ArrivalReaction

    let reaction: Reaction
    let cloud: SimulatedCloud
    /// Whether it acts on arrivals: on a second device.
    let reacts: Bool
    /// The record as last read from the store.
    private(set) var shown: SimulatedCloud.Record?

    init(reaction: Reaction, environment: ExtensionEnvironment) {
        self.reaction = reaction
        cloud = environment.cloud
        reacts = environment.device.hasSuffix("ipad")
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    func handle(_ request: ComposeRequest) {
        guard let conversation = activeConversation else { return }
        var fields = Self.fields(of: conversation.selectedMessage?.url)
        for entry in request.data { fields[entry.key] = entry.value }
        conversation.insert(Self.message(fields, session: conversation.selectedMessage?.session))
    }

    override func didReceive(_ message: MSMessage, conversation: MSConversation) {
        guard reacts else { return }
        switch reaction {
        case .nothing:
            break
        case .fetch:
            cloud.fetch(recordNamed: "poll") { record in self.shown = record }
        case .write:
            cloud.save(Self.fields(of: message.url), recordNamed: "poll") { record in self.shown = record }
        case .reply:
            var fields = Self.fields(of: message.url)
            fields["echo"] = "yes"
            conversation.send(Self.message(fields, session: message.session))
        }
    }

    static func fields(of url: URL?) -> [String: String] {
        var fields: [String: String] = [:]
        for item in url.flatMap({ URLComponents(url: $0, resolvingAgainstBaseURL: false) })?.queryItems ?? [] {
            fields[item.name] = item.value ?? ""
        }
        return fields
    }

    static func message(_ fields: [String: String], session: MSSession?) -> MSMessage {
        let message = MSMessage(session: session ?? MSSession())
        var components = URLComponents()
        components.queryItems = fields.keys.sorted().map { URLQueryItem(name: $0, value: fields[$0]) }
        message.url = components.url
        return message
    }
}

/// What `ReactingArrivalController` does on each copy that reaches it while it runs.
enum ArrivalReaction: String, CaseIterable, Sendable {
    case nothing, fetch, write, reply
}

/// Factoring for registered controllers against plain enumeration: on generated races
/// (`FactoringOracle.generate`: 3 to 8 devices, races and windows, jitter, offline
/// devices, every `app.state` mode, reinstalls) run by a controller that does nothing,
/// fetches, writes or sends on each arrival, the factored search and `--no-factor` give
/// the same count for every check, pitfall, outcome class, device row and failed step.
/// A device whose controller acted on an arrival in its tail is enumerated instead, and
/// the report says so. Each failure prints the generating seed.
@Suite struct ControllerFactoringOracleTests {
    /// How many generated scenarios the property compares: 4 by default, 150 with the
    /// full samples (`TestSampling`).
    static let scenarios = TestSampling.count(default: 4, full: 150)
    /// Generated scenarios whose plain enumeration finds more orders, or takes more
    /// schedules, are replaced by the next seed.
    static let orderLimit = 3_000
    static let scheduleLimit = TestSampling.count(default: 60, full: 2_000)

    /// One app per reaction, named after it (`arrival-fetch`).
    static func apps() -> AppRegistry {
        var apps = AppRegistry()
        for reaction in ArrivalReaction.allCases {
            apps.register("arrival-\(reaction.rawValue)", environment: { ReactingArrivalController(reaction: reaction, environment: $0) })
        }
        return apps
    }

    @Test func factoredCountsEqualEnumerationForControllers() async throws {
        var compared = 0
        var factoredSome = 0
        var actedSome = 0
        var seed: UInt64 = 0
        while compared < Self.scenarios, seed < 5_000 {
            seed += 1
            guard let (factored, differences) = try await Self.compare(seed: seed) else { continue }
            compared += 1
            if factored.factoring?.fallback == nil, !(factored.factoring?.devices.isEmpty ?? true) { factoredSome += 1 }
            if !(factored.factoring?.unfactored.isEmpty ?? true) || factored.factoring?.fallback?.contains("on an arrival") == true {
                actedSome += 1
            }
            #expect(differences.isEmpty, "seed \(seed): \(differences.joined(separator: "; "))\n\(Self.text(seed: seed))")
            if !differences.isEmpty { return }
        }
        #expect(compared == Self.scenarios, "only \(compared) generated scenarios were small enough")
        // Both ways must be taken: devices counted apart, and devices enumerated for what
        // their controller did on an arrival.
        #expect(factoredSome * 3 > compared, "only \(factoredSome) of \(compared) scenarios were factored")
        #expect(actedSome > 0, "no controller acted on an arrival in a factored device's tail")
        print("controller factoring oracle: \(compared) scenarios, \(factoredSome) factored, \(actedSome) with a device enumerated for acting")
    }

    /// Seed 68 of the full sample: two replies race within 30 ms over 24 ms links, so a
    /// reply's copy can reach the other replier before or after its step. Searching the
    /// dependent part by races lost 2 of its 6 orders (the copies deferred to the tail
    /// race with it): it branches at every alternative.
    @Test func aCopyThatCrossesAStepIsCountedAsEnumerationCountsIt() async throws {
        let (factored, differences) = try #require(try await Self.compare(seed: 68))
        #expect(differences.isEmpty, "\(differences)")
        #expect(factored.runs == 6)
    }

    /// The generated scenario of `seed`, run by the controller its seed picks.
    static func text(seed: UInt64) -> String {
        FactoringOracle.generate(seed: seed, app: "arrival-\(ArrivalReaction.allCases[Int(seed % 4)].rawValue)")
    }

    /// The factored report of seed's scenario and how it differs from plain enumeration;
    /// nil when plain enumeration is over the limits.
    static func compare(seed: UInt64) async throws -> (ExplorationReport, [String])? {
        let apps = Self.apps()
        let scenario = try ScenarioParser.parse(text: text(seed: seed), file: "oracle-\(seed).yaml", registeredApps: apps.names)
        let explorer = Explorer(scenario: scenario, apps: apps)
        guard let plain = try? await explorer.enumerated(limit: Self.orderLimit, schedules: Self.scheduleLimit) else { return nil }
        do {
            let factored = try await explorer.exhaustive(limit: Self.orderLimit, factor: true)
            return (factored, FactoringOracle.differences(factored, plain))
        } catch {
            return (plain, ["the factored search failed where enumeration did not: \(error)"])
        }
    }
}
