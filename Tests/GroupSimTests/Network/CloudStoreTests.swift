import Testing
import GroupSim

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
        let checks = "expect:\n  - converged: poll\n  - complete: { session: poll, data: { q: topping, bob: tomatoes, carol: pickles } }\n  - no-pitfalls: true\n"
        let report = try await Fixture.run(Self.race("cloud-merge") + checks)
        #expect(report.passed, "\(report.checks.map(\.detail))")
        // The URL carries only the session token (M13).
        #expect(report.live("alice-phone", "poll")?.urlState.entries == [DataEntry("session", "poll")])
    }

    /// M13: each reply is a fetch and a write, each a round trip of cloud-latency, before
    /// the message is sent.
    @Test func m13RoundTripsBeforeSending() async throws {
        let report = try await Fixture.run(Self.race("cloud-merge"))
        let sent = report.outcome.trace.events.filter { event in
            if case .sent(let id, _, _) = event.kind { return id == 2 }
            return false
        }
        // Bob replies at 500ms: fetch 500 -> 520 -> 540, write 540 -> 560 -> 580, then send.
        #expect(sent.map(\.time.nanoseconds) == [580_000_000])
    }
}
