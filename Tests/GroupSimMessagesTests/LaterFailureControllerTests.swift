import Foundation
import GroupSim
import GroupSimMessages
import Testing

/// A controller that saves the user's choice to the simulated cloud and sends the message
/// directly once the save has come back, as an app that waits for its server would.
final class SaveThenSendController: MSMessagesAppViewController, ComposeRequestHandling {
    let cloud: SimulatedCloud
    let recorder: Recorder

    init(cloud: SimulatedCloud, recorder: Recorder) {
        self.cloud = cloud
        self.recorder = recorder
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    func handle(_ request: ComposeRequest) {
        let recorder = recorder
        cloud.save(["choice": request.data.first?.value ?? ""], recordNamed: "poll") { record in
            let message = MSMessage(session: MSSession())
            message.url = URL(string: "?saved=\(record.version)")
            self.activeConversation?.send(message) { error in
                recorder.add("send completion \((error as NSError?).map { String($0.code) } ?? "nil")")
            }
        }
    }
}

/// The same rule for a registered controller as for the built-in app: a direct send it
/// makes when its cloud call comes back, too late for the user's interaction (M18),
/// is the failure of the step that set the call off, and `error:` expects it.
@Suite struct LaterFailureControllerTests {
    static func scenario(expecting: Bool) -> String {
        """
        name: save-then-send
        app: { name: save-then-send, cloud-latency: 45s }
        people: { alice: [alice-phone], bob: [bob-phone] }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { alice: yes }, direct: true } }

        """ + (expecting ? "expect:\n  - error: { step: 1, code: sendWithoutRecentInteraction }\n" : "")
    }

    static func run(expecting: Bool, recorder: Recorder) async throws -> RunReport {
        var apps = AppRegistry()
        apps.register("save-then-send", environment: { environment in
            SaveThenSendController(cloud: environment.cloud, recorder: recorder)
        })
        let scenario = try ScenarioParser.parse(text: scenario(expecting: expecting), file: "save.yaml", registeredApps: apps.names)
        return try await scenario.run(apps: apps)
    }

    @Test func theErrorCheckExpectsTheSendAfterTheSave() async throws {
        let recorder = Recorder()
        let report = try await Self.run(expecting: true, recorder: recorder)
        #expect(report.passed, "\(report.checks.map(\.detail))")
        #expect(recorder.lines == ["send completion 9"], "the completion handler got sendWithoutRecentInteraction")
        let failure = try #require(report.outcome.failures.first)
        #expect(failure.step == nil && failure.attributedStep == 1)
        #expect(failure.origin?.via == [.cloudStore])
        #expect(failure.stepText == "step 1 (via cloud store, 90s later)")
    }

    @Test func withoutTheCheckItIsAnUnexpectedStepFailure() async throws {
        let report = try await Self.run(expecting: false, recorder: Recorder())
        #expect(!report.passed)
        #expect(report.unexpectedFailures.map(\.text) == ["step 1 on alice-phone failed unexpectedly: sendWithoutRecentInteraction"])
    }
}
