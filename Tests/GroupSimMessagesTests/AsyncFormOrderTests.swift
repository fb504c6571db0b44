import Foundation
import GroupSim
import GroupSimMessages
import Testing

/// A controller that sends twice with the async form: the second send is the code after
/// the first `await`, so when it reaches the system shows where that code runs.
final class ChainedSendController: MSMessagesAppViewController, ComposeRequestHandling {
    let recorder: Recorder
    let device: String

    init(recorder: Recorder, device: String) {
        self.recorder = recorder
        self.device = device
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    func handle(_ request: ComposeRequest) {
        guard let conversation = activeConversation else { return }
        let first = MSMessage(session: MSSession())
        first.url = URL(string: "?step=1")
        recorder.add("\(device) compose")
        Task {
            recorder.add("\(device) task start")
            do {
                try await conversation.send(first)
                recorder.add("\(device) first sent")
                let second = MSMessage(session: first.session ?? MSSession())
                second.url = URL(string: "?step=2")
                try await conversation.send(second)
                recorder.add("\(device) second sent")
            } catch {
                recorder.add("\(device) failed \((error as NSError).code)")
            }
        }
    }

    override func didReceive(_ message: MSMessage, conversation: MSConversation) {
        recorder.add("\(device) didReceive \(message.url?.absoluteString ?? "nil")")
    }
}

@Suite struct AsyncFormOrderTests {
    static func apps(_ recorder: Recorder) -> AppRegistry {
        var apps = AppRegistry()
        apps.register("chained", environment: { environment in
            ChainedSendController(recorder: recorder, device: environment.device)
        })
        return apps
    }

    static let scenario = """
        name: chained
        people: { alice: [alice-phone], bob: [bob-phone, bob-ipad], carol: [carol-phone] }
        app: { name: chained }
        network: { latency: 20ms, jitter: 60ms }
        steps:
          - { at: 0ms, device: bob-phone, open: compact }
          - { at: 0ms, device: carol-phone, open: compact }
          - { at: 10ms, device: alice-phone, send: { session: poll, data: { q: lunch }, direct: true } }
          - { at: 12ms, device: carol-phone, send: { session: poll, data: { q: tea }, direct: true } }
        """

    /// The code after `try await conversation.send(first)` runs inside the call that
    /// carries the answer: its second send reaches the system there (and fails, M18: a
    /// direct send needs a recent interaction). Eight runs of one seed at once, on a
    /// 2-core machine more than the shared thread pool has, give one trace and one
    /// order of the controller's lines.
    @Test func codeAfterAnAwaitRunsAtTheTimeTheSeedDecides() async throws {
        let scenario = try ScenarioParser.parse(text: Self.scenario, file: "chained.yaml", registeredApps: ["chained"])
        for seed in UInt64(1)...UInt64(12) {
            let runs = await withTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let recorder = Recorder()
                        let report = try? await scenario.run(seed: seed, apps: Self.apps(recorder))
                        return (report?.digest ?? "failed") + " " + recorder.lines.joined(separator: "|")
                    }
                }
                var all: [String] = []
                for await run in group { all.append(run) }
                return all
            }
            #expect(Set(runs).count == 1, "seed \(seed): \(Set(runs).sorted().joined(separator: "\n"))")
            #expect(runs.first?.contains("first sent|alice-phone failed 9") == true, "seed \(seed): \(runs.first ?? "")")
        }
    }
}
