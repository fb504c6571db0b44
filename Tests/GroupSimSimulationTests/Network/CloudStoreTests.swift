import Testing
import GroupSim
import GroupSimTesting

@Suite struct CloudStoreTests {
    static func race(_ state: String) -> String {
        Fixture.group + """
        app: { state: \(state), cloud-latency: 20ms }
        steps:
          - at: 0ms
            device: alice-phone
            send: { session: poll, data: { q: topping } }
          - at: 500ms
            device: bob-phone
            reply: { session: poll, data: { bob: tomatoes } }
          - at: 502ms
            device: carol-phone
            reply: { session: poll, data: { carol: pickles } }

        """
    }

    /// M13: with a store that overwrites, both replies fetch the same version and the
    /// later write wins: every device converges on the store's state, but a vote is lost.
    @Test func m13OverwriteLosesAConcurrentUpdate() async throws {
        let report = try await Fixture.run(Self.race("cloud-overwrite") + "expect:\n  - converged: poll\n  - pitfalls: [lost-update]\n")
        #expect(report.passed, "\(report.checks.map(\.detail))")
        let lost = try #require(report.pitfalls.first { $0.kind == .lostUpdate })
        #expect(lost.rule == "M13")
        #expect(lost.summary.hasPrefix("Bob's change bob=tomatoes"))
        #expect(report.outcome.cloud.map(\.state.description) == ["{carol: pickles, q: topping}"])
        #expect(report.outcome.cloud.first?.version == 3)
    }

    /// M13: an atomic merge at the store converges with nothing lost.
    @Test func m13MergeConverges() async throws {
        let checks = "expect:\n  - converged: poll\n" +
            "  - complete: { session: poll, data: { q: topping, bob: tomatoes, carol: pickles } }\n  - no-pitfalls: true\n"
        let report = try await Fixture.run(Self.race("cloud-merge") + checks)
        #expect(report.passed, "\(report.checks.map(\.detail))")
        // The URL carries only the session token (M13).
        #expect(report.live("alice-phone", "poll")?.urlState.entries == [Scenario.DataEntry("session", "poll")])
    }

    /// M13: a reply fetches (a round trip of cloud-latency) before the message is staged;
    /// the write is pushed when the user taps Send, so it leaves with the message.
    @Test func m13FetchBeforeSendingPushOnSend() async throws {
        let report = try await Fixture.run(Self.race("cloud-merge"))
        let bob = report.outcome.trace.events.filter { $0.subject == "bob-phone" }
        let sent = bob.filter { event in
            if case .sent(let id, _, _) = event.kind { return id == 2 }
            return false
        }
        let stored = bob.filter { event in
            if case .cloudRequest(.store, _) = event.kind { return true }
            return false
        }
        // Bob replies at 500ms: fetch 500 -> 520 -> 540, then send and push at 540.
        #expect(sent.map(\.time.nanoseconds) == [540_000_000])
        #expect(stored.map(\.time.nanoseconds) == [540_000_000])
    }
}

/// A poll that saves with a conditional write and, on a conflict, merges its change into
/// the server's record and tries again: the remedy for lost updates at the store (M13).
struct ConditionalSaveApp: MessagesApp {
    let log: Log
    private var pending: ComposeRequest?

    final class Log: @unchecked Sendable {
        // Only touched from inside the simulation, which runs one device at a time.
        var conflicts: [String] = []
    }

    init(log: Log) { self.log = log }

    mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
        pending = request
        return [.fetch(key: request.session.name)]
    }

    mutating func didFetch(_ record: AppAction.CloudRecord, conversation: Conversation) -> [AppAction] {
        write(over: record)
    }

    mutating func didStore(_ record: AppAction.CloudRecord, conversation: Conversation) -> [AppAction] {
        guard let request = pending else { return [] }
        if record.conflict {
            log.conflicts.append("v\(record.version)")
            return write(over: record)
        }
        pending = nil
        return [.insert(Message(session: request.session, url: "?session=\(record.key)"))]
    }

    private func write(over record: AppAction.CloudRecord) -> [AppAction] {
        guard let request = pending else { return [] }
        var state = record.state ?? StateMap()
        state.apply(request.data)
        return [.store(key: record.key, write: .conditional(expectedVersion: record.version, state: state))]
    }
}

@Suite struct ConditionalWriteTests {
    /// M13: two replies read version 1 at once; the first conditional write lands (v2), the
    /// second is refused with the server's v2, merges into it and lands as v3: no vote lost.
    @Test func m13ConditionalWriteRefusesAMovedVersionAndTheRetryKeepsBoth() async throws {
        let log = ConditionalSaveApp.Log()
        var apps = AppRegistry()
        apps.register("cas") { _ in ConditionalSaveApp(log: log) }
        let text = CloudStoreTests.race("message").replacingOccurrences(of: "app: { state: message, cloud-latency: 20ms }",
                                                                       with: "app: { name: cas, cloud-latency: 20ms }")
        let report = try await Fixture.run(text, apps: apps)
        #expect(report.outcome.cloud.map(\.state.description) == ["{bob: tomatoes, carol: pickles, q: topping}"])
        #expect(report.outcome.cloud.first?.version == 3)
        #expect(log.conflicts == ["v2"])
        let refused = report.outcome.trace.events.filter { if case .cloudHandled(.refusedStore, _, _, _) = $0.kind { true } else { false } }
        #expect(refused.map(\.kindText) == ["cloud refused store poll from carol-phone -> v2"])
    }
}
