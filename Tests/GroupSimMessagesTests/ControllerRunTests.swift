import Foundation
import GroupSim
import GroupSimMessages
import Testing

/// A controller that records every callback and what it sees, and acts on scenario intents.
final class RecordingController: MSMessagesAppViewController, ComposeRequestHandling {
    let recorder: Recorder
    let device: String
    let storage: LocalStorage

    init(recorder: Recorder, device: String, storage: LocalStorage) {
        self.recorder = recorder
        self.device = device
        self.storage = storage
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    private func note(_ text: String) { recorder.add("\(device) \(text)") }

    override func willBecomeActive(with conversation: MSConversation) {
        let count = Int(storage.string(forKey: "activations") ?? "0") ?? 0
        storage.set(String(count + 1), forKey: "activations")
        note("willBecomeActive activations=\(count + 1) style=\(presentationStyle) selected=\(conversation.selectedMessage != nil)")
    }
    override func didBecomeActive(with conversation: MSConversation) { note("didBecomeActive") }
    override func willResignActive(with conversation: MSConversation) { note("willResignActive") }
    override func didResignActive(with conversation: MSConversation) { note("didResignActive") }
    override func willSelect(_ message: MSMessage, conversation: MSConversation) { note("willSelect") }
    override func didSelect(_ message: MSMessage, conversation: MSConversation) {
        note("didSelect pending=\(message.isPending) sameObject=\(message === conversation.selectedMessage)")
    }
    override func didReceive(_ message: MSMessage, conversation: MSConversation) {
        let remote = conversation.remoteParticipantIdentifiers.contains(message.senderParticipantIdentifier)
        note("didReceive \(message.url?.absoluteString ?? "nil") senderIsRemote=\(remote)")
    }
    override func didStartSending(_ message: MSMessage, conversation: MSConversation) {
        if let lastInserted { note("own message pending=\(lastInserted.isPending)") }
        note("didStartSending pending=\(message.isPending) sender="
            + (message.senderParticipantIdentifier == conversation.localParticipantIdentifier ? "local" : "other"))
    }
    override func didCancelSending(_ message: MSMessage, conversation: MSConversation) { note("didCancelSending") }
    override func willTransition(to presentationStyle: MSMessagesAppPresentationStyle) { note("willTransition \(presentationStyle)") }
    override func didTransition(to presentationStyle: MSMessagesAppPresentationStyle) { note("didTransition \(presentationStyle)") }

    func handle(_ request: ComposeRequest) {
        guard let conversation = activeConversation else { return }
        let message = MSMessage(session: conversation.selectedMessage?.session ?? MSSession())
        var url = "?"
        for entry in request.data { url += "\(entry.key)=\(entry.value)&" }
        if let long = request.data.first(where: { $0.key == "long" }) { url += String(repeating: "x", count: Int(long.value) ?? 0) }
        message.url = URL(string: String(url.dropLast()))
        let layout = MSMessageTemplateLayout()
        layout.caption = request.caption
        message.layout = layout
        let recorder = recorder, device = device
        let handler: @Sendable ((any Error)?) -> Void = { error in
            let error = error as NSError?
            recorder.add("\(device) completion "
                + (error.map { "\($0.domain == MSMessagesErrorDomain ? "MSMessagesErrorDomain" : $0.domain) \($0.code)" } ?? "nil"))
        }
        if request.direct {
            conversation.send(message, completionHandler: handler)
        } else {
            conversation.insert(message, completionHandler: handler)
        }
        note("inserted pendingNow=\(message.isPending)")
        lastInserted = message
    }

    /// The app's own object for its last inserted message.
    var lastInserted: MSMessage?
}

func recordingApps(_ recorder: Recorder) -> AppRegistry {
    var apps = AppRegistry()
    apps.register("recording", environment: { environment in
        RecordingController(recorder: recorder, device: environment.device, storage: environment.storage)
    })
    return apps
}

@Suite struct ControllerRunTests {
    static func scenario(_ steps: String) throws -> Scenario {
        try ScenarioParser.parse(text: """
            name: controller
            people: { alice: [alice-phone], bob: [bob-phone] }
            app: { name: recording }
            steps:
            \(steps)
            """, file: "controller.yaml", registeredApps: ["recording"])
    }

    /// A send opens the controller, the intent reaches `handle`, the insert's completion
    /// comes back before the user's tap on Send, and the receiver's controller gets the
    /// message with the sender as one of its remote identifiers (M3, M16, M17, M20, M23).
    @Test func sendAndReceiveRunTheControllerInOrder() async throws {
        let recorder = Recorder()
        let scenario = try Self.scenario("""
              - { at: 0ms, device: bob-phone, open: compact }
              - { at: 10ms, device: alice-phone, send: { session: poll, data: { q: lunch } } }
            """)
        let report = try await scenario.run(apps: recordingApps(recorder))
        #expect(recorder.lines == [
            "bob-phone willBecomeActive activations=1 style=compact selected=false",
            "bob-phone didBecomeActive",
            "alice-phone willBecomeActive activations=1 style=compact selected=false",
            "alice-phone didBecomeActive",
            "alice-phone inserted pendingNow=true",
            "alice-phone completion nil",
            "alice-phone own message pending=false",
            "alice-phone didStartSending pending=false sender=local",
            "bob-phone didReceive ?q=lunch senderIsRemote=true",
        ])
        let alice = try #require(report.outcome.devices.first { $0.name == "alice-phone" })
        #expect(alice.callbacks == [.willBecomeActive, .didBecomeActive, .userDidCompose, .didStartSending])
        #expect(alice.sessions.first?.session == "poll")
    }

    /// A URL over 5,000 characters: the insert's handler gets `urlExceedsMaxSize` (8) in
    /// `MSMessagesErrorDomain`, and the step fails with that code (M8).
    @Test func insertCompletionCarriesTheSystemsErrorCode() async throws {
        let recorder = Recorder()
        let scenario = try Self.scenario("""
              - { at: 0ms, device: alice-phone, insert: { session: poll, data: { long: "5000" } } }
            """)
        let report = try await scenario.run(apps: recordingApps(recorder))
        #expect(recorder.lines.contains("alice-phone completion MSMessagesErrorDomain 8"))
        #expect(report.outcome.failures.map(\.code) == [.urlExceedsMaxSize])
        #expect(MSMessageErrorCode.urlExceedsMaxSize.rawValue == 8)
        #expect(MSMessageErrorCode.unknown.rawValue == -1)
        #expect(MSMessageErrorCode.apiUnavailableInPresentationContext.rawValue == 11)
    }

    /// A direct send (M18) starts at once: `didStartSending`, then the handler with nil.
    @Test func directSendCompletionReportsSuccess() async throws {
        let recorder = Recorder()
        let scenario = try Self.scenario("""
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: lunch }, direct: true } }
            """)
        let report = try await scenario.run(apps: recordingApps(recorder))
        #expect(recorder.lines.suffix(4) == [
            "alice-phone inserted pendingNow=true",
            "alice-phone own message pending=false",
            "alice-phone didStartSending pending=false sender=local",
            "alice-phone completion nil",
        ])
        #expect(report.outcome.failures.isEmpty)
        #expect(report.outcome.devices[1].sessions.first?.session == "poll")
    }

    /// The draft is pending; a tap selects the bubble: `selectedMessage` is the object the
    /// app gets in `didSelect`, and not pending (M15, M17, M21). A fresh controller on
    /// each activation, storage survives activations and a reinstall wipes it (M2, M22).
    @Test func storageSurvivesActivationsAndReinstallWipesIt() async throws {
        let recorder = Recorder()
        let scenario = try Self.scenario("""
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: lunch } } }
              - { at: 100ms, device: bob-phone, open: compact }
              - { at: 200ms, device: bob-phone, tap: poll }
              - { at: 300ms, device: bob-phone, close: true }
              - { at: 400ms, device: bob-phone, open: expanded }
              - { at: 500ms, device: bob-phone, reinstall: true }
              - { at: 600ms, device: bob-phone, open: compact }
            """)
        let report = try await scenario.run(apps: recordingApps(recorder))
        let bob = recorder.lines.filter { $0.hasPrefix("bob-phone") }
        #expect(bob == [
            "bob-phone willBecomeActive activations=1 style=compact selected=false",
            "bob-phone didBecomeActive",
            "bob-phone willTransition expanded",
            "bob-phone willSelect",
            "bob-phone didSelect pending=false sameObject=true",
            "bob-phone didTransition expanded",
            "bob-phone willResignActive",
            "bob-phone didResignActive",
            // The drawer opens compact, then transitions to expanded (M20).
            "bob-phone willBecomeActive activations=2 style=compact selected=false",
            "bob-phone didBecomeActive",
            "bob-phone willTransition expanded",
            "bob-phone didTransition expanded",
            "bob-phone willBecomeActive activations=1 style=compact selected=false",
            "bob-phone didBecomeActive",
        ])
        // The controller's storage is the device's one LocalStorage, which the snapshot
        // shows: one activation since the reinstall on bob's phone, one on alice's.
        let devices = report.outcome.devices
        #expect(devices.first { $0.name == "bob-phone" }?.localStorage == ["activations": "1"])
        #expect(devices.first { $0.name == "alice-phone" }?.localStorage == ["activations": "1"])
    }
}

/// A controller that signs its bubble with `$` and its own local identifier, as
/// Foundation prints it (upper case).
final class SigningController: MSMessagesAppViewController, ComposeRequestHandling {
    func handle(_ request: ComposeRequest) {
        guard let conversation = activeConversation else { return }
        let message = MSMessage(session: MSSession())
        let layout = MSMessageTemplateLayout()
        layout.caption = "$\(conversation.localParticipantIdentifier.uuidString) asked"
        message.layout = layout
        conversation.insert(message)
    }
}

@Suite struct TokenDrawingTests {
    /// A `$UUID` token minted from the sender's own identifier is drawn as the sender's
    /// contact name on every receiving device, each through its own identifiers (M1, M5);
    /// the UUID on the receiver is that device's own identifier for Alice (M3).
    @Test func signedCaptionDrawsAsTheSendersNameEverywhere() async throws {
        var apps = AppRegistry()
        apps.register("signing") { SigningController() }
        let scenario = try ScenarioParser.parse(text: """
            name: tokens
            people: { alice: [alice-phone], bob: [bob-phone, bob-ipad] }
            app: { name: signing }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll } }
            """, file: "tokens.yaml", registeredApps: apps.names)
        let report = try await scenario.run(apps: apps)
        for device in report.outcome.devices {
            let bubble = try #require(device.transcripts.first?.entries.first { $0.kind == .bubble })
            #expect(bubble.text == "Alice asked", "\(device.name)")
            let alice = device.identifiers.first { $0.person == "alice" }?.id
            #expect(bubble.senderIdentifier == alice, "\(device.name)")
        }
    }
}
