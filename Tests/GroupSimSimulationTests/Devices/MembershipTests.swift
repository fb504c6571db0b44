import Testing
import GroupSim
import GroupSimTesting

@Suite struct MembershipTests {
    /// Records the remote identifiers the app sees each time it is called.
    struct Watcher: MessagesApp {
        let seen: Seen
        final class Seen: @unchecked Sendable {
            var calls: [(local: ParticipantID, remotes: [ParticipantID])] = []
            func remotes(of local: ParticipantID?) -> [[ParticipantID]] { calls.filter { $0.local == local }.map(\.remotes) }
        }
        mutating func didBecomeActive(_ conversation: Conversation) -> [AppAction] {
            seen.calls.append((conversation.localParticipantIdentifier, conversation.remoteParticipantIdentifiers))
            return []
        }
        mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
            [.insert(Message(session: request.session, url: "?n=1"))]
        }
        mutating func didReceive(_ message: Message, conversation: Conversation) -> [AppAction] {
            seen.calls.append((conversation.localParticipantIdentifier, conversation.remoteParticipantIdentifiers))
            return []
        }
    }

    static let text = """
    name: members
    app: { name: watcher }
    people:
      alice: [alice-phone]
      bob: [bob-phone]
      carol: [carol-phone]
      dave: [dave-phone]
      erin: [erin-phone]
    conversation: [alice, bob, carol, erin]
    steps:
      - at: 0ms
        device: alice-phone
        open: compact
      - at: 10ms
        device: bob-phone
        join: dave
      - at: 20ms
        device: bob-phone
        send: { session: a }
      - at: 100ms
        device: bob-phone
        leave: carol
      - at: 110ms
        device: bob-phone
        send: { session: b }

    """

    /// M6: the remote identifiers change while the extension runs, as members join and
    /// leave; their order is a seeded shuffle per device.
    @Test func m6MembersJoinAndLeaveWhileRunning() async throws {
        let seen = Watcher.Seen()
        var apps = AppRegistry()
        apps.register("watcher") { _ in Watcher(seen: seen) }
        let report = try await Fixture.run(Self.text, apps: apps)
        let alice = try #require(report.outcome.device("alice-phone"))
        func id(_ person: String) -> ParticipantID? { alice.identifiers.first { $0.person == person }?.id }
        let remotes = seen.remotes(of: alice.localIdentifier)
        #expect(remotes.count == 3)
        #expect(Set(remotes[0]) == Set([id("bob"), id("carol"), id("erin")].compactMap { $0 }))
        #expect(Set(remotes[1]) == Set([id("bob"), id("carol"), id("erin"), id("dave")].compactMap { $0 }))
        #expect(Set(remotes[2]) == Set([id("bob"), id("erin"), id("dave")].compactMap { $0 }))
        // Carol left before the second message: she does not receive it; Dave does.
        #expect(report.lines("carol-phone") == ["bubble m1"])
        #expect(report.lines("dave-phone") == ["bubble m1", "bubble m2"])
    }

    /// M6: the order of remoteParticipantIdentifiers is a seeded shuffle per device: the
    /// same seed gives the same order, and over many seeds more than one order shows up.
    @Test func m6RemoteOrderIsSeeded() async throws {
        var orders: Set<[String]> = []
        for seed in 1...12 as ClosedRange<UInt64> {
            var firsts: [[String]] = []
            for _ in 0..<2 {
                let seen = Watcher.Seen()
                var apps = AppRegistry()
                apps.register("watcher") { _ in Watcher(seen: seen) }
                let report = try await Fixture.run(Self.text, seed: seed, apps: apps)
                let alice = try #require(report.outcome.device("alice-phone"))
                let names = try #require(seen.remotes(of: alice.localIdentifier).first)
                    .map { id in alice.identifiers.first { $0.id == id }?.person ?? "?" }
                firsts.append(names)
            }
            #expect(firsts[0] == firsts[1], "seed \(seed)")
            orders.insert(firsts[0])
        }
        #expect(orders.count > 1)
    }
}
