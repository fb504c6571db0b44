import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimChecking
import GroupSimTesting

/// M6: new members receive no history. A device whose person joined after a session's
/// messages were sent has no bubble of it: that is `joined-late`, not a lost update or a
/// divergence (M12), and `converged` and `complete` say so in their evidence.
@Suite struct JoinedLatePitfallTests {
    /// Alice opens a poll at 100ms and Bob votes; Alice adds Carol at `join`; Bob replies again at `again`, if set.
    static func poll(join: Int, again: Int? = nil, offline: Bool = false, mode: String = "message") -> String {
        var text = """
        name: late
        people:
          alice: [alice-phone]
          bob: [bob-phone]
          carol: [carol-phone]
        conversations:
          group: [alice, bob]
        app: { state: \(mode) }
        steps:
          - { at: 100ms, device: alice-phone, send: { session: poll, data: { q: lunch } } }
          - { at: 500ms, device: bob-phone, reply: { session: poll, data: { bob: yes } } }
          - { at: \(join)ms, device: alice-phone, join: carol }

        """
        if offline { text += "  - { at: 0ms, device: carol-phone, offline: true }\n" }
        if let again { text += "  - { at: \(again)ms, device: bob-phone, reply: { session: poll, data: { bob: no } } }\n" }
        return text + """
        expect:
          - converged: poll
          - complete: { session: poll, data: { q: lunch } }

        """
    }

    /// Carol joined after the poll began: no lost update, no divergence, but `joined-late`
    /// on her phone citing M6, with the fix; the checks' evidence says why she has nothing.
    @Test(arguments: ["message", "cloud-merge"])
    func aLateMemberIsNotALostUpdate(mode: String) async throws {
        let report = try await Fixture.run(Self.poll(join: 1000, mode: mode))
        #expect(report.pitfallKinds == [.joinedLate], "\(report.pitfalls.map(\.summary))")
        let pitfall = try #require(report.pitfalls.first)
        #expect(pitfall.rule == "M6" && pitfall.devices == ["carol-phone"] && pitfall.session == "poll")
        #expect(pitfall.summary == "carol-phone joined group after poll began and shows no bubble of it")
        #expect(pitfall.explanation.contains("a new member receives no history (M6)"))
        #expect(pitfall.fix.contains("send a fresh bubble of the session"))
        // The verdicts stay: Carol's phone shows nothing, so the group has not converged.
        #expect(report.checks.map(\.passed) == [false, false])
        #expect(report.checks[0].detail.contains("carol-phone: no bubble: joined after the session began (M6)"), "\(report.checks[0].detail)")
        #expect(report.checks[1].detail.contains("carol-phone (no bubble: joined after the session began (M6))"), "\(report.checks[1].detail)")
    }

    /// Once a member sends a new message of the session after Carol joined, she has it:
    /// nothing to report, and every check holds.
    @Test func aMessageAfterTheJoinReachesTheNewMember() async throws {
        let report = try await Fixture.run(Self.poll(join: 1000, again: 1500))
        #expect(report.pitfalls.isEmpty, "\(report.pitfalls.map(\.summary))")
        #expect(report.passed, "\(report.checks.map(\.detail))")
    }

    /// A member since before the session began who still has no bubble (offline to the
    /// end) did miss it: that stays a lost update and a divergence (M12), not `joined-late`.
    @Test func aMemberFromBeforeTheSessionStillLosesUpdates() async throws {
        let report = try await Fixture.run(Self.poll(join: 0, offline: true))
        #expect(report.pitfallKinds.contains(.lostUpdate) && report.pitfallKinds.contains(.divergence), "\(report.pitfallKinds)")
        #expect(!report.pitfallKinds.contains(.joinedLate))
        #expect(report.checks[0].detail.contains("carol-phone: no bubble;") || report.checks[0].detail.hasSuffix("carol-phone: no bubble"),
                "\(report.checks[0].detail)")
    }

    /// Trace-free verdicts and factored exploration judge a late member as the worded
    /// report does: the same counts as plain enumeration, in a race between the replies.
    @Test func explorationAgreesOnALateMember() async throws {
        let text = """
        name: late-race
        people:
          alice: [alice-phone]
          bob: [bob-phone, bob-ipad]
          carol: [carol-phone]
          dave: [dave-phone]
        conversations:
          group: [alice, bob, carol]
        network: { latency: 40ms, jitter: 20ms }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: lunch } } }
          - at: 500ms
            race:
              within: 5ms
              steps:
                - { device: bob-phone, reply: { session: poll, data: { bob: yes } } }
                - { device: carol-phone, reply: { session: poll, data: { carol: yes } } }
          - { at: 2s, device: alice-phone, join: dave }
        expect:
          - converged: poll
          - no-pitfalls: [lost-update, divergence]

        """
        let scenario = try Fixture.scenario(text)
        let explorer = Explorer(scenario: scenario)
        let plain = try await explorer.enumerated(limit: 6_000, schedules: 2_000)
        let factored = try await explorer.exhaustive(limit: 6_000, factor: true)
        let differences = ReportDifferences.between(factored, plain)
        #expect(differences.isEmpty, "\(differences)")
        let late = try #require(plain.pitfalls.first { $0.kind == .joinedLate })
        #expect(late.runs == plain.runs && late.rule == "M6")
    }
}
