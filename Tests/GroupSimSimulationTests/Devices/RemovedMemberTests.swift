import Testing
import GroupSim
import GroupSimTesting

/// M6: members leave while the group runs. A removed member cannot post to the group any
/// more, so no app is handed a post whose sender it cannot place among its participants.
@Suite struct RemovedMemberTests {
    /// Records, for every message the app is handed (didReceive, willSelect, didSelect, and
    /// `selectedMessage` in any callback), its sender and the participants the app knew
    /// then; and the remote identifiers each device's app saw when it closed.
    struct Watcher: MessagesApp {
        let seen: Seen
        final class Seen: @unchecked Sendable {
            var handed: [(sender: ParticipantID?, local: ParticipantID, remotes: [ParticipantID])] = []
            var atClose: [(local: ParticipantID, remotes: [ParticipantID])] = []
        }

        func note(_ message: Message?, _ conversation: Conversation) {
            for candidate in [message, conversation.selectedMessage] {
                guard let candidate else { continue }
                seen.handed.append((candidate.senderParticipantIdentifier, conversation.localParticipantIdentifier,
                                    conversation.remoteParticipantIdentifiers))
            }
        }
        mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
            note(nil, conversation)
            return [.insert(Message(session: request.session, url: "?n=1", layout: TemplateLayout(caption: request.caption)))]
        }
        mutating func willSelect(_ message: Message, conversation: Conversation) -> [AppAction] {
            note(message, conversation)
            return []
        }
        mutating func didSelect(_ message: Message, conversation: Conversation) -> [AppAction] {
            note(message, conversation)
            return []
        }
        mutating func didReceive(_ message: Message, conversation: Conversation) -> [AppAction] {
            note(message, conversation)
            return []
        }
        mutating func willResignActive(_ conversation: Conversation) -> [AppAction] {
            seen.atClose.append((conversation.localParticipantIdentifier, conversation.remoteParticipantIdentifiers))
            return []
        }
    }

    static let text = """
    name: removed
    app: { name: watcher }
    people:
      alice: [alice-phone]
      bob: [bob-phone]
      carol: [carol-phone, carol-ipad]
    steps:
      - at: 0ms
        device: alice-phone
        open: compact
      - at: 0ms
        device: bob-phone
        open: compact
      - at: 10ms
        device: carol-phone
        send: { session: poll, caption: "before" }
      - at: 100ms
        device: alice-phone
        leave: carol
      - at: 200ms
        device: carol-phone
        reply: { session: poll, caption: "after" }
      - at: 210ms
        device: carol-ipad
        text: "still here?"
      - at: 300ms
        device: carol-phone
        close: true
      - at: 350ms
        device: carol-phone
        join: carol
      - at: 400ms
        device: bob-phone
        send: { session: other, caption: "bob" }
    expect:
      - error: { step: 5, code: notMember }
      - error: { step: 6, code: notMember }
      - error: { step: 8, code: notMember }

    """

    @Test func removedMemberCannotPost() async throws {
        let seen = Watcher.Seen()
        var apps = AppRegistry()
        apps.register("watcher") { _ in Watcher(seen: seen) }
        let report = try await Fixture.run(Self.text, apps: apps)
        #expect(report.passed, "\(report.checks.map(\.detail))")

        // Each of Carol's steps after the leave failed with a clear reason; none was delivered.
        let failures = report.outcome.failures.filter { $0.code == .notMember }
        #expect(failures.map(\.step) == [5, 6, 8])
        #expect(failures.allSatisfy { $0.reason.contains("carol, who is not a member of conversation group") })
        #expect(report.outcome.members.first?.members == ["alice", "bob"], "Carol's join as a non-member changed nothing")
        #expect(report.transcript("alice-phone").map(\.text) == ["before", "bob"], "Carol's message from before she left, then Bob's")
        #expect(report.transcript("bob-phone").map(\.text) == ["before", "bob"])
        #expect(report.lines("carol-ipad") == ["bubble m1"], "Carol's iPad had her message before; nothing after")

        // Her app's participant list no longer holds the others.
        let carol = try #require(report.outcome.device("carol-phone"))
        let closing = seen.atClose.filter { $0.local == carol.localIdentifier }
        #expect(closing.count == 1)
        #expect(closing.first?.remotes == [])

        // No app was ever handed a sender outside its local and remote identifiers.
        #expect(!seen.handed.isEmpty)
        for handed in seen.handed {
            let known = [handed.local] + handed.remotes
            #expect(handed.sender.map(known.contains) == true, "sender \(String(describing: handed.sender)) is not in \(known)")
        }
    }
}
