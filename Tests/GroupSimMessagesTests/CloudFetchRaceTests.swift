import Foundation
import GroupSim
import GroupSimMessages
import GroupSimTesting
@testable import GroupSimChecking
import Testing

/// A sundae poll in the shape of Apple's IceCreamBuilder, as a new user writes it with its
/// state on the app's server (M13): a pick fetches the record, adds the pick and saves over
/// the version it read; when someone saved first it merges into the server's record and
/// saves again; then it sends a bubble. Every bubble that arrives makes it fetch the record
/// again in `didReceive`, to show the latest sundae.
final class SundaeCloudController: MSMessagesAppViewController, ComposeRequestHandling {
    let cloud: SimulatedCloud
    /// The record as last read from the server.
    private(set) var shown: SimulatedCloud.Record?

    init(cloud: SimulatedCloud) {
        self.cloud = cloud
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    func handle(_ request: ComposeRequest) {
        var pick: [String: String] = [:]
        for entry in request.data { pick[entry.key] = entry.value }
        cloud.fetch(recordNamed: "sundae") { record in self.save(pick, over: record, attempts: 4) }
    }

    private func save(_ pick: [String: String], over record: SimulatedCloud.Record, attempts: Int) {
        guard attempts > 0 else { return }
        let fields = record.fields.merging(pick) { _, new in new }
        cloud.save(fields, recordNamed: "sundae", ifVersion: record.version) { result in
            switch result {
            case .success(let saved):
                self.shown = saved
                self.sendBubble(saved)
            case .failure(let conflict):
                self.save(pick, over: conflict.serverRecord, attempts: attempts - 1)
            }
        }
    }

    private func sendBubble(_ record: SimulatedCloud.Record) {
        guard let conversation = activeConversation else { return }
        let message = MSMessage(session: conversation.selectedMessage?.session ?? MSSession())
        var components = URLComponents()
        components.queryItems = record.fields.keys.sorted().map { URLQueryItem(name: $0, value: record.fields[$0]) }
        message.url = components.url
        conversation.insert(message)
    }

    override func didReceive(_ message: MSMessage, conversation: MSConversation) {
        cloud.fetch(recordNamed: "sundae") { record in self.shown = record }
    }
}

/// Exhaustive exploration of a registered controller that talks to the cloud as it
/// receives: reads of the store that no write separates commute, and the optimal search
/// simulates each distinct order once.
@Suite struct CloudFetchRaceTests {
    static func apps() -> AppRegistry {
        var apps = AppRegistry()
        apps.register("sundae-cloud", environment: { SundaeCloudController(cloud: $0.cloud) })
        return apps
    }

    /// Alice starts a sundae; `racers` others pick a part within 2 seconds of each other
    /// (with `aliceRaces`, Alice and the first `racers - 1` of them, and the last watches).
    static func scenario(racers: Int, jitter: Int = 700, within: Int = 2000, aliceRaces: Bool = false) throws -> Scenario {
        let names = ["bob", "carol", "dan", "erin"].prefix(racers)
        let people = (["alice"] + names).map { "\($0): [\($0)-phone]" }.joined(separator: ", ")
        let picks = ((aliceRaces ? ["alice"] : []) + names.prefix(aliceRaces ? racers - 1 : racers)).map { "            - { device: \($0)-phone, reply: { session: sundae, data: { \($0): fudge } } }" }
        return try ScenarioParser.parse(text: """
            name: sundae-cloud-race
            seed: 8
            people: { \(people) }
            app: { name: sundae-cloud, cloud-latency: 250ms }
            network: { latency: 300ms, jitter: \(jitter)ms }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: sundae, data: { base: vanilla } } }
              - at: 3s
                race:
                  within: \(within)ms
                  steps:
            \(picks.joined(separator: "\n"))
            expect:
              - converged: sundae
            """, file: "sundae-cloud-race.yaml", registeredApps: apps().names)
    }

    /// The race of two phones the tests below explore. With the full samples
    /// (`TestSampling`) Bob and Carol race (588 or 606 orders; the reference takes about
    /// 5,600 schedules); by default Alice races Bob and Carol watches (136 or 144 orders,
    /// about 800), the same controller, race and window on the same three phones.
    static func race(jitter: Int = 700, within: Int = 2000) throws -> Scenario {
        try scenario(racers: 2, jitter: jitter, within: within, aliceRaces: !TestSampling.full)
    }

    /// Two phones racing (588 distinct orders): the race search finds every order and
    /// outcome that branching at every alternative finds, simulating one schedule per
    /// order where the reference simulates about ten, and its estimate is the count.
    @Test func eachDistinctOrderIsSimulatedOnce() async throws {
        try await Self.compareWithReference(try Self.race(jitter: 0, within: 10), atLeast: 100)
    }

    /// Two phones racing over the whole window (jitter 700 ms, picks within 2 s: 606
    /// orders), where a pick's step may run before, between or after the copies and
    /// fetches in flight: steps and events of different devices commute, so the search
    /// still simulates one schedule per order (it took 3,213 when a step never swapped
    /// with an event, 629 with sleep sets and no wakeup trees), and the default limit
    /// does not refuse it.
    @Test func theWideWindowIsSimulatedOncePerOrder() async throws {
        try await Self.compareWithReference(try Self.race(), atLeast: TestSampling.count(default: 140, full: 600))
    }

    /// The first run's bound (100,800 for these 606 orders) decides nothing for a search
    /// by races: without factoring, it is refused once it has found more orders than the
    /// limit (by default 144 orders, bound 600). (Factored, the limit bounds the dependent
    /// orders: `aDeviceThatOnlyWatchesIsCountedApart`.)
    @Test func theSearchIsRefusedByTheOrdersItFinds() async throws {
        let orders = TestSampling.count(default: 144, full: 606)
        let explorer = Explorer(scenario: try Self.race(), apps: Self.apps())
        await #expect(throws: ExplorationError.tooManyOrders(scenario: "sundae-cloud-race", estimate: 101, limit: 100)) {
            try await explorer.exhaustive(limit: 100, factor: false)
        }
        guard case .exhaustive(_, let estimate, _) = try await explorer.exhaustive(limit: orders, factor: false).mode else {
            Issue.record("not an exhaustive report")
            return
        }
        #expect(estimate == orders)
    }

    /// The memory budget bounds the race search too: past what it may hold (the points of
    /// the run it extends with their wakeup trees, the keys of the orders counted), it
    /// stops with the orders found so far, as `--max-memory` says.
    @Test func theMemoryBudgetStopsTheSearch() async throws {
        let orders = TestSampling.count(default: 144, full: 606)
        let budget = 32 << 10
        let report = try await Explorer(scenario: try Self.race(), apps: Self.apps()).exhaustive(limit: 100_000, factor: false, memory: budget)
        #expect(report.interrupted && report.memoryStop?.budget == budget && (report.memoryStop?.held ?? 0) > budget)
        #expect(report.runs > 0 && report.runs.clampedInt < orders, "\(report.runs) of \(orders) orders")
    }

    /// The race search (without factoring, which would count a device that only watches
    /// apart: `aDeviceThatOnlyWatchesIsCountedApart`) against branching at every
    /// alternative: the same orders, classes and failures, one schedule per order, an
    /// estimate within 2x of the count.
    static func compareWithReference(_ scenario: Scenario, atLeast least: Int) async throws {
        let explorer = Explorer(scenario: scenario, apps: Self.apps())
        let report = try await explorer.exhaustive(factor: false)
        let reference = try await explorer.enumerated(limit: 1_000_000, everyAlternative: true)
        #expect(report.runs == reference.runs)
        #expect(report.classes == reference.classes)
        #expect(report.checks.map(\.failedRuns) == reference.checks.map(\.failedRuns))
        guard case .exhaustive(_, let estimate, let simulated) = report.mode,
              case .exhaustive(_, _, let referenceSimulated) = reference.mode else {
            Issue.record("not an exhaustive report")
            return
        }
        let orders = report.runs.clampedInt
        #expect(orders >= least)
        #expect(simulated == orders, "\(simulated) schedules for \(orders) orders")
        #expect(report.search == .optimal && reference.search == .everyAlternative)
        #expect(referenceSimulated > 5 * orders)
        #expect(estimate <= 2 * orders && orders <= 2 * estimate, "estimate \(estimate) for \(orders) orders")
    }

    /// Alice races Bob and Carol watches: Carol's app never runs, so the order in which
    /// the two picks reach her changes what she shows and nothing else, and her arrivals
    /// are counted apart; Alice's and Bob's controllers fetch on every arrival, and the
    /// report says which fetch kept them enumerated. The counts are plain enumeration's.
    @Test func aDeviceThatOnlyWatchesIsCountedApart() async throws {
        let explorer = Explorer(scenario: try Self.scenario(racers: 2, aliceRaces: true), apps: Self.apps())
        let factored = try await explorer.exhaustive()
        let plain = try await explorer.exhaustive(factor: false)
        #expect(FactoringOracle.differences(factored, plain).isEmpty, "\(FactoringOracle.differences(factored, plain))")
        #expect(factored.runs == 144)
        let factoring = try #require(factored.factoring)
        #expect(factoring.devices == ["carol-phone"] && factoring.largestFactor == 2 && factoring.fallback == nil)
        #expect(factoring.dependentOrders == 72)
        #expect(factoring.unfactored.first?.hasPrefix("alice-phone's app fetched from the cloud store on an arrival (m") == true,
                "\(factoring.unfactored)")
        #expect(factoring.summary.contains("\nnot factored: alice-phone's app fetched from the cloud store"), "\(factoring.summary)")
    }
}
