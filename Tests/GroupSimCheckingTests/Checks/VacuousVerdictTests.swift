import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
import GroupSimTesting

/// No verdict on nothing (issue 35): a check that reads the app's state fails, saying
/// which devices gave none and why, when no device's state could be read; `$bob` in a
/// check's data is read on each device as its app writes bob's key, and a failure says
/// what it became there; `no-pitfalls: [KINDS]` asserts the absence of just those kinds.
@Suite struct VacuousVerdictTests {
    /// Runs `body` after the fixture's people, and checks that exploration's quick verdicts
    /// (no words) are the explained ones.
    static func run(_ body: String) async throws -> RunReport {
        let outcome = try await Simulation(scenario: try Fixture.scenario(Fixture.group + body)).run()
        let report = RunReport(outcome: outcome)
        let quick = RunReport(outcome: outcome, explainingPitfalls: false)
        #expect(quick.checks.map(\.passed) == report.checks.map(\.passed), "\(report.checks.map(\.detail))")
        return report
    }

    /// A message only staged (M16) is on no device: `converged` once held over four devices
    /// that show nothing; now every state-reading check fails and names them.
    @Test func aSessionNoDeviceShowsIsNoEvidence() async throws {
        let report = try await Self.run("""
            steps:
              - { at: 0ms, device: alice-phone, insert: { session: poll, data: { q: topping } } }
            expect:
              - converged: poll
              - diverged: poll
              - complete: { session: poll, data: { q: topping } }
              - latest: { device: bob-phone, session: poll, data: { q: topping } }

            """)
        #expect(report.checks.map(\.passed) == [false, false, false, false])
        let nothing = "no device's state could be read: alice-phone, bob-phone, bob-ipad, carol-phone: no bubble of poll"
        #expect(report.checks.map(\.detail) == [nothing, nothing, nothing, "bob-phone shows no bubble of poll"])
    }

    /// A session whose conversation has no device that runs the app gives no state.
    @Test func aConversationWithoutTheAppIsNoEvidence() async throws {
        let report = try await Self.run("""
            devices:
              bob-phone: { app: missing }
              bob-ipad: { platform: macos }
            conversation: [alice, bob]
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
              - { at: 1s, device: alice-phone, leave: alice }
            expect:
              - converged: poll
              - complete: { session: poll, data: { q: topping } }

            """)
        #expect(report.checks.map(\.passed) == [false, false])
        #expect(report.checks.map(\.detail) == Array(repeating: "no device's state could be read: no device in group runs the app",
                                                       count: 2))
    }

    /// The cloud record is named by the item `app.record-key` says: the built-in app
    /// writes its token there, and the checks read the record it names.
    @Test func theBuiltInAppWritesItsTokenUnderTheRecordKey() async throws {
        let report = try await Self.run("""
            app: { state: cloud-merge, record-key: poll-id }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
              - { at: 1s, device: bob-phone, reply: { session: poll, data: { bob: pickles } } }
            expect:
              - converged: poll
              - complete: { session: poll, data: { q: topping, bob: pickles } }

            """)
        #expect(report.passed, "\(report.checks.map(\.detail))")
        let bubble = try #require(report.transcript("carol-phone").last { $0.kind == .bubble })
        #expect(bubble.url == "?poll-id=poll")
    }

    /// Some devices read and one that could not: `converged` does not hold (the state not
    /// read differs from every state), and the finding says why on that device.
    @Test func oneStateNotReadBreaksConvergence() async throws {
        let scenario = try Fixture.scenario(Fixture.group + """
            app: { state: cloud-merge }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
            expect:
              - converged: poll
              - diverged: poll

            """)
        let outcome = try await Simulation(scenario: scenario).run()
        let all = RunReport(outcome: outcome)
        #expect(all.checks.map(\.passed) == [true, false])
        // The same run, read as if the app wrote its token under another item: nothing is read.
        var renamed = outcome
        renamed.scenario.app.recordKey = "poll"
        let unread = RunReport(outcome: renamed)
        #expect(unread.checks.map(\.passed) == [false, false])
        #expect(unread.pitfalls.isEmpty, "states not read are no evidence of a lost update or a divergence")
        #expect(unread.checks[0].detail.hasSuffix(": the bubble's URL has no `poll` item to name its cloud record "
            + "(its items are `session`; set app.record-key)"), "\(unread.checks[0].detail)")
        // The same run with the record gone from the store: the URL names a record there is not.
        var emptied = outcome
        emptied.cloud = []
        let missing = RunReport(outcome: emptied)
        #expect(missing.checks.map(\.passed) == [false, false])
        #expect(missing.checks[0].detail == "no device's state could be read: alice-phone, bob-phone, bob-ipad, carol-phone: "
            + "the cloud store has no record named \"poll\" (the bubble's `session` item)")
    }

    /// `$bob` under `participant-id`: each device reads it as its own identifier of Bob,
    /// which only Bob's phone wrote; the failure says what it became on each device.
    @Test func aTokenSaysWhatItBecameOnEachDevice() async throws {
        let report = try await Self.run("""
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
              - { at: 1s, device: bob-phone, reply: { session: poll, data: { $me: pickles } } }
            expect:
              - complete: { session: poll, data: { $bob: pickles } }

            """)
        let check = try #require(report.checks.first)
        #expect(!check.passed)
        let devices = report.outcome.devices
        func id(ofBob device: DeviceSnapshot) -> String {
            device.identifiers.first { $0.person == "bob" }?.id.uuidString ?? "none"
        }
        let became = "; $bob is " + devices.map { "\(id(ofBob: $0)) on \($0.name)" }.joined(separator: ", ")
        #expect(check.detail.hasSuffix(became), "\(check.detail)")
        #expect(check.detail.hasPrefix("missing on alice-phone ("), "\(check.detail)")
        #expect(!check.detail.contains("bob-phone ("), "Bob's phone reads its own key: \(check.detail)")
    }

    /// Under `account`, `$bob` is one key everywhere, and the failure says so.
    @Test func anAccountTokenIsTheSameOnEveryDevice() async throws {
        let report = try await Self.run("""
            app: { identity: account }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
              - { at: 1s, device: bob-phone, reply: { session: poll, data: { $me: pickles } } }
            expect:
              - complete: { session: poll, data: { $bob: pickles } }
              - complete: { session: poll, data: { $bob: olives } }

            """)
        #expect(report.checks.map(\.passed) == [true, false])
        let account = AppIdentity.accountID(RandomStreams(seed: report.outcome.seed), person: "bob")
        #expect(report.checks[1].detail.hasSuffix("; $bob is \(account) on every device"), "\(report.checks[1].detail)")
    }

    /// `no-pitfalls: [KINDS]` holds when none of those kinds is reported, whatever else is,
    /// and names the ones that were.
    @Test func noPitfallsOfSomeKinds() async throws {
        let report = try await Self.run("""
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
              - { at: 500ms, device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }
              - { at: 501ms, device: alice-phone, reply: { session: poll, data: { alice: olives } } }
            expect:
              - pitfalls: [lost-update]
              - no-pitfalls: [dropped-url, stale-identifier]
              - no-pitfalls: [dropped-url, lost-update]
              - no-pitfalls: true

            """)
        #expect(report.checks.map(\.passed) == [true, true, false, false])
        #expect(report.checks.map(\.text) == ["pitfalls lost-update", "no-pitfalls dropped-url, stale-identifier",
                                              "no-pitfalls dropped-url, lost-update", "no-pitfalls"])
        #expect(report.checks[1].detail == "none of dropped-url, stale-identifier reported")
        #expect(report.checks[2].detail.hasPrefix("reported: lost-update ("), "\(report.checks[2].detail)")
        #expect(report.checks[2].detail.contains("is missing from poll on"), "\(report.checks[2].detail)")
    }
}
