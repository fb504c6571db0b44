// docs/extensions.md's examples (registration, the adapter, LocalStorage, SimulatedCloud,
// replay), compiled as an app's test target compiles them: `import GroupSim` and
// `import GroupSimMessages`, without `@testable`. The controllers are small stand-ins for
// Examples/LunchPoll's. `ExtensionHarness` and the command line (`GroupSimProcess`) are
// not part of this target.
import Foundation
import GroupSim
import GroupSimMessages
import Testing

/// The poll as query items of the message URL, sorted by key.
func pollURL(_ entries: [String: String]) -> URL? {
    var components = URLComponents()
    components.queryItems = entries.keys.sorted().map { URLQueryItem(name: $0, value: entries[$0]) }
    return components.url
}

func pollEntries(_ url: URL?) -> [String: String] {
    guard let url, let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return [:] }
    return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
}

/// Keeps the poll in the message URL, as the README's step 1 does.
final class PollViewController: MSMessagesAppViewController {
    private(set) var entries: [String: String] = [:]

    override func willBecomeActive(with conversation: MSConversation) {
        entries = pollEntries(conversation.selectedMessage?.url)
    }

    func ask(_ question: String) {
        entries = ["q": question]
        insertPoll()
    }

    func vote(_ choice: String, as voter: String) {
        entries[voter] = choice
        insertPoll()
    }

    private func insertPoll() {
        guard let conversation = activeConversation else { return }
        let message = MSMessage(session: conversation.selectedMessage?.session ?? MSSession())
        message.url = pollURL(entries)
        conversation.insert(message) { error in
            if let error { print("poll: insert failed: \(error)") }
        }
    }
}

/// The app's own storage protocol, declared with `UserDefaults`'s signatures.
protocol PollDefaults: AnyObject {
    func string(forKey key: String) -> String?
    func set(_ value: Any?, forKey key: String)
}

extension LocalStorage: PollDefaults {}

/// Keeps the poll in a cloud record named in the URL; writes unconditionally.
final class CloudPollViewController: MSMessagesAppViewController {
    var cloud: SimulatedCloud?
    var defaults: PollDefaults?
    var makeRecordName: () -> String = { UUID().uuidString }
    private(set) var saved: [String: String] = [:]

    func ask(_ question: String) {
        let name = makeRecordName()
        defaults?.set(name, forKey: "lastPoll")
        cloud?.save(["q": question], recordNamed: name) { [weak self] record in self?.saved = record.fields }
        guard let conversation = activeConversation else { return }
        let message = MSMessage(session: MSSession())
        message.url = pollURL(["session": name])
        conversation.insert(message) { _ in }
    }

    func vote(_ choice: String, as voter: String) {}
}

extension PollViewController: ComposeRequestHandling {
    public func handle(_ request: ComposeRequest) {
        for entry in request.data {
            if entry.key == "q" { ask(entry.value) } else { vote(entry.value, as: entry.key) }
        }
    }
}

extension CloudPollViewController: ComposeRequestHandling {
    public func handle(_ request: ComposeRequest) {
        for entry in request.data where entry.key == "q" { ask(entry.value) }
    }
}

func lunchApps() -> AppRegistry {
    var apps = AppRegistry()
    apps.register("lunch") { PollViewController() }          // a fresh controller per activation
    apps.register("lunch-cloud", environment: { environment in
        let controller = CloudPollViewController()
        controller.cloud = environment.cloud
        controller.defaults = environment.storage
        controller.makeRecordName = environment.makeToken
        return controller
    })
    return apps
}

func lunchRace(app: String, state: String) throws -> Scenario {
    try ScenarioParser.parse(text: """
        name: lunch-race-\(app)
        people: { alice: [alice-phone], bob: [bob-phone], carol: [carol-phone] }
        network: { latency: 50ms, jitter: 30ms }
        app: { name: \(app), state: \(state) }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: lunch, data: { q: lunch } } }
          - at: 1s
            race:
              within: 20ms
              steps:
                - { device: bob-phone, reply: { session: lunch, data: { bob: pizza } } }
                - { device: carol-phone, reply: { session: lunch, data: { carol: sushi } } }
        expect:
          - converged: lunch
        """, file: "lunch-race-\(app).yaml", registeredApps: lunchApps().names)
}

@Suite struct ExtensionsGuideTests {
    /// The controller runs on every device: the adapter carries each step's data to its
    /// action methods, and every device receives the question.
    @Test func registeredControllerRunsOnEveryDevice() async throws {
        let report = try await lunchRace(app: "lunch", state: "message").run(seed: 1, apps: lunchApps())
        for device in report.outcome.devices {
            #expect(device.callbacks.first == .willBecomeActive, "\(device.name): \(device.callbacks)")
            let lines = device.transcripts.flatMap(\.entries)
            #expect(lines.contains { $0.url?.contains("q=lunch") == true }, "\(device.name): \(lines)")
        }
        #expect(try await lunchRace(app: "lunch", state: "message").run(seed: 1, apps: lunchApps()).digest == report.digest)
    }

    /// The `environment:` factory hands the controller the storage, the cloud and seeded
    /// tokens: the token lands in local storage and names the cloud record, and a rerun
    /// with the same seed mints the same one.
    @Test func environmentGivesStorageCloudAndSeededTokens() async throws {
        let scenario = try lunchRace(app: "lunch-cloud", state: "cloud-overwrite")
        let report = try await scenario.run(seed: 5, apps: lunchApps())
        let alice = try #require(report.outcome.device("alice-phone"))
        let token = try #require(alice.localStorage["lastPoll"])
        #expect(token.count == 16 && token.allSatisfy(\.isHexDigit))
        #expect(report.outcome.cloud.map(\.key) == [token])
        #expect(report.outcome.cloud.first?.state.url() == "?q=lunch")
        let again = try await scenario.run(seed: 5, apps: lunchApps())
        #expect(again.outcome.device("alice-phone")?.localStorage["lastPoll"] == token)
    }

    /// Replay: a failing run of an exploration runs again in-process with the trace on,
    /// renders as Mermaid and HTML, and is written as a scenario file naming the app.
    @Test func explorationFailureReplays() async throws {
        let apps = lunchApps()
        let scenario = try lunchRace(app: "lunch", state: "message")
        let explorer = Explorer(scenario: scenario, apps: apps)
        let report = try await explorer.explore(runs: 50, seed: 1)
        let failure = try #require(report.firstFailure, "no run of \(report.runs) failed")
        #expect(report.failedRuns > 0)
        let replay = try await explorer.replay(failure, of: report)   // the seed, or the order
        #expect(!replay.passed)
        #expect(replay.digest == (try await scenario.run(seed: failure.reference.seed, apps: apps)).digest)
        #expect(MermaidReport.render(replay).hasPrefix("sequenceDiagram"))
        #expect(HTMLReport.render(replay).contains("<html"))
        let file = try #require(explorer.scenarioFile(replaying: failure, of: report))
        #expect(file.contains("name: lunch"))
        #expect(TextReport.render(replay).contains("converged lunch"))
    }
}
