import Testing
@testable import GroupSim
import GroupSimTesting

/// Pitfall reports name the right cause.
@Suite struct PitfallCauseTests {
    /// Alice writes her own UUID into the poll; Bob replies, carrying it on; Carol reads
    /// Bob's bubble. The UUID was minted on alice-phone, not on bob-phone that sent it (M4).
    @Test func foreignIdentifierNamesTheMintingDevice() async throws {
        let report = try await Fixture.run("""
            name: owner
            people: { alice: [alice-phone], bob: [bob-phone], carol: [carol-phone] }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: chores, data: { owner: $me } } }
              - { at: 1s, device: bob-phone, reply: { session: chores, data: { bob: dishes } } }
              - { at: 2s, device: carol-phone, tap: chores }

            """)
        let carol = try #require(report.pitfalls.first { $0.kind == .foreignIdentifier && $0.devices == ["carol-phone"] })
        #expect(carol.summary.contains("minted on alice-phone"), "\(carol.summary)")
        #expect(carol.summary.contains("bob-phone passed it on"))
        #expect(!carol.summary.contains("minted on bob-phone"))
        #expect(carol.explanation.contains("The UUID was minted on alice-phone"), "\(carol.explanation)")
        #expect(!carol.explanation.contains("written on bob-phone"))
    }

    /// In per-conversation mode the explanation cites the conversation scope (M6).
    @Test func perConversationModeCitesM6() async throws {
        let report = try await Fixture.run("""
            name: scoped
            people: { alice: [alice-phone], bob: [bob-phone] }
            options: { identifiers: per-conversation }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: chores, data: { owner: $me } } }
              - { at: 1s, device: bob-phone, tap: chores }

            """)
        let pitfall = try #require(report.pitfalls.first { $0.kind == .foreignIdentifier })
        #expect(pitfall.explanation.contains("per conversation"), "\(pitfall.explanation)")
        #expect(pitfall.explanation.contains("M6"))
        #expect(!pitfall.explanation.contains("Participant identifiers are per device (M1)"))
    }

    /// A sender that overwrites its own earlier value, one step after the other with
    /// nothing concurrent, loses nothing: its second send saw the first.
    @Test func aSequentialOverwriteIsNoLostUpdate() async throws {
        let report = try await Fixture.run(Fixture.group + """
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { choice: pizza } } }
              - { at: 1s, device: alice-phone, send: { session: poll, data: { choice: sushi } } }
            expect:
              - converged: poll
              - no-pitfalls: true

            """)
        #expect(report.pitfallKinds == [], "\(report.pitfalls.map(\.summary))")
        #expect(report.passed)
    }

    /// Carol's new send builds on nothing (no bubble selected, M20), after Bob's reply
    /// reached her: Bob's pick is lost, and the cause is not a stale selection.
    @Test func noStaleSelectionWithoutASelection() async throws {
        let report = try await Fixture.run(Fixture.group + """
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
              - { at: 500ms, device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }
              - { at: 2s, device: carol-phone, send: { session: poll, data: { carol: pickles } } }

            """)
        let lost = try #require(report.pitfalls.first { $0.kind == .lostUpdate && $0.summary.contains("bob=tomatoes") })
        #expect(!lost.explanation.contains("stale selectedMessage"), "\(lost.explanation)")
        #expect(lost.explanation.contains("without selecting a bubble"))
        #expect(!report.pitfallKinds.contains(.staleSelection))
    }
}
