import Foundation
import Testing
import GroupSim
import GroupSimTesting

/// M2, M3: a reinstall gives the device a new identifier set, and every bubble it draws
/// from then on carries the new sender identifier: to the app (`didSelect`,
/// `selectedMessage`) and in the transcript. No retired identifier reaches the app.
@Suite struct ReinstallViewTests {
    struct Recorder: MessagesApp {
        let seen: Seen
        /// Keeps each view it is handed in `Seen.kept`, reading nothing of it, instead of noting it.
        var keeps = false
        final class Seen: @unchecked Sendable {
            /// Per callback: the app's local identifier and every identifier it was shown
            /// (its participants, the handed message's sender, `selectedMessage`'s sender).
            var shown: [(local: ParticipantID, ids: [ParticipantID])] = []
            /// Per didSelect: the handed message's sender and `selectedMessage`'s.
            var selections: [(handed: ParticipantID?, selected: ParticipantID?)] = []
            /// Every view handed to a keeping recorder, unread.
            var kept: [Conversation] = []
        }

        func note(_ conversation: Conversation, _ message: Message?) {
            guard !keeps else {
                seen.kept.append(conversation)
                return
            }
            let senders = [message?.senderParticipantIdentifier, conversation.selectedMessage?.senderParticipantIdentifier]
            seen.shown.append((conversation.localParticipantIdentifier,
                               [conversation.localParticipantIdentifier] + conversation.remoteParticipantIdentifiers
                                   + senders.compactMap { $0 }))
        }
        mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
            [.insert(Message(session: request.session, url: "?n=1", layout: TemplateLayout(caption: request.caption)))]
        }
        mutating func didBecomeActive(_ conversation: Conversation) -> [AppAction] {
            note(conversation, nil)
            return []
        }
        mutating func willSelect(_ message: Message, conversation: Conversation) -> [AppAction] {
            note(conversation, message)
            return []
        }
        mutating func didSelect(_ message: Message, conversation: Conversation) -> [AppAction] {
            note(conversation, message)
            seen.selections.append((message.senderParticipantIdentifier, conversation.selectedMessage?.senderParticipantIdentifier))
            return []
        }
        mutating func didReceive(_ message: Message, conversation: Conversation) -> [AppAction] {
            note(conversation, message)
            return []
        }
    }

    static let text = """
    name: reinstall-view
    app: { name: recorder }
    people:
      alice: [alice-phone]
      bob: [bob-phone]
    steps:
      - at: 0ms
        device: bob-phone
        open: expanded
      - at: 10ms
        device: alice-phone
        open: compact
      - at: 20ms
        device: alice-phone
        text: "a text first, so the bubble is m2"
      - at: 30ms
        device: bob-phone
        reinstall: true
      - at: 100ms
        device: alice-phone
        insert: { session: poll, caption: "poll" }
      - at: 110ms
        device: alice-phone
        press-send: true
      - at: 200ms
        device: bob-phone
        tap: poll
      - at: 300ms
        device: bob-phone
        tap: poll

    """

    /// Also with the bubble arriving before the reinstall: drawn afterwards, it must carry
    /// the new identifier too.
    static let arrivedBefore = text
        .replacingOccurrences(of: "  - at: 30ms\n    device: bob-phone\n    reinstall: true\n", with: "")
        .replacingOccurrences(of: "    tap: poll\n  - at: 300ms",
            with: "    reinstall: true\n  - at: 250ms\n    device: bob-phone\n    tap: poll\n  - at: 300ms")

    static func registry(_ seen: Recorder.Seen, keeping: Bool = false) -> AppRegistry {
        var apps = AppRegistry()
        apps.register("recorder") { _ in Recorder(seen: seen, keeps: keeping) }
        return apps
    }

    /// A view's remote identifiers are worked out when the app first reads them: a view
    /// Bob's app kept from before his reinstall, read only after the run, lists his first
    /// installation's identifiers, as the same view read at once does, and not the ones
    /// his views list after the reinstall.
    @Test func aViewKeptAcrossTheReinstallListsTheIdentifiersItWasMadeWith() async throws {
        let seen = Recorder.Seen()
        let report = try await Fixture.run(Self.text, apps: Self.registry(seen))
        let kept = Recorder.Seen()
        _ = try await Fixture.run(Self.text, apps: Self.registry(kept, keeping: true))
        // The first view of either run is Bob's, when he opens the app at 0 ms.
        let readAtOnce = try #require(seen.shown.first)
        let keptView = try #require(kept.kept.first)
        #expect(keptView.localParticipantIdentifier == readAtOnce.local)
        let remote = Array(readAtOnce.ids.dropFirst())
        #expect(remote.count == 1)
        #expect(keptView.remoteParticipantIdentifiers == remote)
        let bob = try #require(report.outcome.device("bob-phone"))
        let afterReinstall = try #require(seen.shown.last { $0.local == bob.localIdentifier })
        #expect(afterReinstall.local != readAtOnce.local)
        #expect(Set(afterReinstall.ids).isDisjoint(with: remote), "\(afterReinstall.ids)")
    }

    @Test(arguments: [text, arrivedBefore])
    func everyBubbleCarriesTheNewSenderIdentifier(_ text: String) async throws {
        // The same run without the reinstall: Bob's first installation's identifiers.
        let first = try await Fixture.run(text.replacingOccurrences(of: "reinstall: true", with: "close: true"),
                                          apps: Self.registry(Recorder.Seen()))
        let retired = Set(try #require(first.outcome.device("bob-phone")).identifiers.map(\.id))
        let seen = Recorder.Seen()
        let report = try await Fixture.run(text, apps: Self.registry(seen))
        let bob = try #require(report.outcome.device("bob-phone"))
        #expect(bob.generation == 1)
        let newAlice = try #require(bob.identifiers.first { $0.person == "alice" }?.id)
        #expect(!retired.contains(newAlice))

        // The message handed to didSelect and selectedMessage agree, on the new identifier.
        #expect(!seen.selections.isEmpty)
        for selection in seen.selections {
            #expect(selection.handed == newAlice)
            #expect(selection.selected == newAlice)
        }
        // The drawn transcript and its JSON show the new one, never a retired one.
        let bubble = try #require(report.transcript("bob-phone").first { $0.kind == .bubble })
        #expect(bubble.senderIdentifier == newAlice)
        let json = JSONReport.render(report)
        #expect(json.contains(newAlice.uuidString))
        #expect(retired.allSatisfy { !json.contains($0.uuidString) })
        // Nothing the app was shown after the reinstall is a retired identifier.
        let afterReinstall = seen.shown.filter { $0.local == bob.localIdentifier }
        #expect(!afterReinstall.isEmpty)
        for call in afterReinstall {
            #expect(retired.isDisjoint(with: call.ids), "\(call.ids)")
        }
    }
}
