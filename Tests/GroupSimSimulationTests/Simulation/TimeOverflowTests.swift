import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
import GroupSimTesting

/// Virtual-time arithmetic cannot overflow during a run. A scenario file
/// keeps every duration and time within 365 days (see the parser's tests), and a scenario
/// built or edited in Swift is refused the same way before it runs; the simulation's own
/// arithmetic is checked here too, past that validation (`ValidatedScenario(parsed:)`), so that no
/// value can crash it.
@Suite struct TimeOverflowTests {
    static let text = """
        name: overflow
        people:
          alice: [alice-phone]
          bob: [bob-phone]
        steps:
          - at: 0ms
            device: alice-phone
            send: { session: poll, data: { q: topping } }
          - at: 1s
            race:
              within: 5ms
              steps:
                - { device: alice-phone, reply: { session: poll, data: { alice: a } } }
                - { device: bob-phone, reply: { session: poll, data: { bob: b } } }

        """

    /// The latency and jitter of the issue's file (6307200000s each), whose sum passes
    /// `Int64.max` nanoseconds: `explore` crashed in `Network.delay(from:to:)`.
    @Test func hugeLatencyAndJitterDoNotCrashRunOrExplore() async throws {
        var scenario = try Fixture.scenario(Self.text)
        scenario.network = Scenario.NetworkSpec(latency: .seconds(6_307_200_000), jitter: .seconds(6_307_200_000))
        await #expect(throws: ScenarioErrors.self) { try await scenario.run(seed: 1) }
        await #expect(throws: ExplorationError.self) { try await Explorer(scenario: scenario).explore(runs: 20, seed: 3) }
        let report = try await RunReport(outcome: Simulation(ValidatedScenario(parsed: scenario), seed: 1).run())
        // Every delivery is held at the end of virtual time, never before the send.
        let deliveries = report.outcome.trace.events.filter {
            if case .delivered = $0.kind { true } else { false }
        }
        #expect(!deliveries.isEmpty)
        #expect(deliveries.allSatisfy { $0.time.nanoseconds >= 6_307_200_000 * 1_000_000_000 })
    }

    /// A race at the very end of virtual time (the issue's `at: 9223372036854ms` followed
    /// by a race) crashed; its offsets are now held at the end.
    @Test func aRaceAtTheEndOfTimeDoesNotCrash() async throws {
        var scenario = try Fixture.scenario(Self.text)
        guard case .race(var race) = scenario.timeline[1] else {
            Issue.record("expected a race")
            return
        }
        race.time = VirtualTime(nanoseconds: 9_223_372_036_854_000_000)
        race.within = VirtualDuration(nanoseconds: .max)
        scenario.timeline[1] = .race(race)
        await #expect(throws: ScenarioErrors.self) { try await scenario.run(seed: 1) }
        for seed in 1...20 as ClosedRange<UInt64> {
            let outcome = try await Simulation(ValidatedScenario(parsed: scenario), seed: seed).run()
            #expect(outcome.trace.events.allSatisfy { $0.time.nanoseconds >= 0 }, "seed \(seed)")
        }
    }

    @Test func sumsAreHeldAtTheBoundsOfInt64() {
        let end = VirtualTime(nanoseconds: .max - 1)
        #expect((end + .seconds(1)).nanoseconds == .max)
        #expect((VirtualDuration(nanoseconds: .max) + .seconds(1)).nanoseconds == .max)
        #expect((VirtualTime(nanoseconds: .min) - VirtualTime(nanoseconds: 1)).nanoseconds == .min)
        #expect((VirtualTime(nanoseconds: 5) - VirtualTime(nanoseconds: 2)).nanoseconds == 3)
    }
}
