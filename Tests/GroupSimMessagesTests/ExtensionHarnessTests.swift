import Foundation
import GroupSim
import GroupSimMessages
import GroupSimTesting
import Testing

/// A poll that remembers in the install's storage how many votes this device sent.
final class TallyController: MSMessagesAppViewController, ComposeRequestHandling {
    let storage: LocalStorage

    init(storage: LocalStorage) {
        self.storage = storage
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    func handle(_ request: ComposeRequest) {
        guard let conversation = activeConversation else { return }
        var state = StateMap(url: conversation.selectedMessage?.url?.absoluteString)
        state.apply(request.data)
        let message = MSMessage(session: conversation.selectedMessage?.session ?? MSSession())
        message.url = URL(string: state.url())
        conversation.insert(message)
    }

    override func didStartSending(_ message: MSMessage, conversation: MSConversation) {
        storage.set(String((Int(storage.string(forKey: "sent") ?? "0") ?? 0) + 1), forKey: "sent")
    }
}

@Suite struct ExtensionHarnessTests {
    static func apps(_ recorder: Recorder = Recorder()) -> AppRegistry {
        var apps = AppRegistry()
        apps.register("tally", environment: { TallyController(storage: $0.storage) })
        apps.register("cloud-test", environment: { environment in
            CloudController(cloud: environment.cloud, recorder: recorder, device: environment.device)
        })
        return apps
    }

    /// Open, send, receive, reply, reinstall: every callback, sent URL, draft and the
    /// storage, asserted step by step (M16, M17, M20-M23, M2).
    @Test func drivesOneControllerStepByStep() async throws {
        let harness = try ExtensionHarness(apps: Self.apps(), app: "tally")
        await harness.open(.compact)
        try await harness.expect(callbacks: [.willBecomeActive, .didBecomeActive], sent: [], staged: .some(nil), storage: [:])
        await harness.insert("poll", data: ["q": "lunch"])
        try await harness.expect(callbacks: [.userDidCompose], sent: [], staged: "?q=lunch")
        await harness.pressSend()
        try await harness.expect(callbacks: [.didStartSending], sent: ["?q=lunch"], staged: .some(nil), storage: ["sent": "1"])
        await harness.receive(from: "bob", session: "poll", url: "?bob=pizza&q=lunch")
        try await harness.expect(callbacks: [.didReceive], sent: [])
        await harness.reply("poll", data: ["me": "sushi"])
        try await harness.expect(callbacks: [.willTransition, .willSelect, .didSelect, .didTransition, .userDidCompose,
                                             .willTransition, .didTransition, .didStartSending],
                                 sent: ["?bob=pizza&me=sushi&q=lunch"], storage: ["sent": "2"])
        await harness.reinstall()
        await harness.open()
        try await harness.expect(callbacks: [.willBecomeActive, .didBecomeActive], storage: [:])
    }

    /// A mismatch names each differing field with what was expected and received.
    @Test func mismatchSaysWhatDiffered() async throws {
        let harness = try ExtensionHarness(apps: Self.apps(), app: "tally")
        await harness.open(.expanded)
        await harness.pressSend()
        let error = await #expect(throws: HarnessMismatch.self) {
            try await harness.expect(callbacks: [.willBecomeActive], failures: [])
        }
        #expect(error?.description == """
            me-phone did not do what the test expected:
              callbacks:
                expected: willBecomeActive
                received: willBecomeActive, didBecomeActive, willTransition, didTransition
              failures:
                expected: \("")
                received: noDraft (1001)
            """)
    }

    /// Cloud requests wait until the test lets the store answer, a round trip later (M13).
    @Test func cloudAnswersComeWhenTheTestSays() async throws {
        let recorder = Recorder()
        let harness = try ExtensionHarness(apps: Self.apps(recorder), app: "cloud-test", state: .cloudMerge)
        await harness.insert("poll", data: ["op": "cas", "version": "0", "value": "a"])
        #expect(recorder.lines.isEmpty)
        await harness.answerCloud()
        #expect(recorder.lines == ["me-phone saved v1 {value: a}"])
        await harness.insert("poll", data: ["op": "cas", "version": "0", "value": "b"])
        await harness.answerCloud()
        #expect(recorder.lines.last == "me-phone conflict, server has v1 {value: a}")
    }

    /// The harness's conversation is checked as a scenario is: an app name nobody
    /// registered is refused with the scenario's message.
    @Test func unknownAppIsAClearError() throws {
        let error = try #require(throws: HarnessMismatch.self) { try ExtensionHarness(apps: Self.apps(), app: "nope") }
        #expect(error.description == #"the harness cannot make that conversation: <swift>:app.name: error: unknown app "nope"; "#
            + "registered apps: tally, cloud-test")
    }
}
