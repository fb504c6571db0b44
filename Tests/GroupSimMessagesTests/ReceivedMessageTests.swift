import Foundation
import GroupSim
import GroupSimMessages
import Testing

/// Notes what a received message holds: its layout, made when first read and the same
/// object when read again, and its sender as this device identifies them (M3, M9).
final class LayoutReadingController: MSMessagesAppViewController, ComposeRequestHandling {
    let recorder: Recorder
    let device: String

    init(recorder: Recorder, device: String) {
        self.recorder = recorder
        self.device = device
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func didReceive(_ message: MSMessage, conversation: MSConversation) {
        let layout = message.layout as? MSMessageTemplateLayout
        let sender = conversation.remoteParticipantIdentifiers.firstIndex(of: message.senderParticipantIdentifier)
        recorder.add("\(device) didReceive caption=\(layout?.caption ?? "nil") subcaption=\(layout?.subcaption ?? "nil")"
            + " sameLayout=\(layout === message.layout) senderIndex=\(sender.map(String.init) ?? "none")")
    }

    override func didStartSending(_ message: MSMessage, conversation: MSConversation) {
        let local = conversation.localParticipantIdentifier
        recorder.add("\(device) didStartSending caption=\((message.layout as? MSMessageTemplateLayout)?.caption ?? "nil")"
            + " local=\(message.senderParticipantIdentifier == local) ownLocal=\(inserted?.senderParticipantIdentifier == local)")
    }

    /// The app's own object for the message it inserted.
    private var inserted: MSMessage?

    func handle(_ request: ComposeRequest) {
        guard let conversation = activeConversation else { return }
        let message = MSMessage(session: MSSession())
        message.url = URL(string: "?q=lunch")
        let layout = MSMessageTemplateLayout()
        layout.caption = request.caption
        layout.subcaption = request.subcaption
        message.layout = layout
        conversation.insert(message)
        inserted = message
        recorder.add("\(device) inserted unsent=\(message.senderParticipantIdentifier == UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))")
    }
}

@Suite struct ReceivedMessageTests {
    /// The receiver reads the sender's captions from the message it is handed, one layout
    /// object however often it asks, and the sender among its remote identifiers; the
    /// sender's own message carries its local identifier once inserted (M3, M9, M17).
    @Test func aReceivedMessageShowsTheSendersLayoutAndSender() async throws {
        let recorder = Recorder()
        var apps = AppRegistry()
        apps.register("layout-reading", environment: { environment in
            LayoutReadingController(recorder: recorder, device: environment.device)
        })
        let scenario = try ScenarioParser.parse(text: """
            name: received-layout
            people: { alice: [alice-phone], bob: [bob-phone] }
            app: { name: layout-reading }
            steps:
              - { at: 0ms, device: bob-phone, open: compact }
              - { at: 10ms, device: alice-phone, send: { session: poll, caption: "Lunch?", subcaption: "Pick one" } }
            """, file: "received-layout.yaml", registeredApps: ["layout-reading"])
        _ = try await scenario.run(apps: apps)
        #expect(recorder.lines == [
            "alice-phone inserted unsent=true",
            "alice-phone didStartSending caption=Lunch? local=true ownLocal=true",
            "bob-phone didReceive caption=Lunch? subcaption=Pick one sameLayout=true senderIndex=0",
        ])
    }
}
