import Foundation
import Testing
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
import GroupSimTesting

/// `step()` and `advance(to:)` run the same events as `run()`, in the same order: a test
/// may stop anywhere, look, and go on, and the run ends as if it had never stopped.
@Suite struct SteppingTests {
    static let files = ["pickles-race.yaml", "pickles-race-cloud-merge.yaml", "offline-catch-up.yaml"]

    static func scenario(_ file: String) throws -> Scenario {
        try ScenarioParser.load(path: ScenarioFiles.root.appendingPathComponent("Scenarios").appendingPathComponent(file).path)
    }

    /// The file's uninterrupted run's report, and a fresh simulation of its scenario.
    static func whole(_ file: String) async throws -> (whole: RunReport, fresh: Simulation) {
        let scenario = try Self.scenario(file)
        return (RunReport(outcome: try await Simulation(scenario: scenario).run()), Simulation(scenario: scenario))
    }

    @Test(arguments: files)
    func steppingToTheEndGivesTheRunsDigest(_ file: String) async throws {
        let (whole, stepped) = try await Self.whole(file)
        var events = 0
        while try await stepped.step() { events += 1 }
        #expect(try await stepped.step() == false)
        let outcome = try await stepped.run()
        #expect(events == outcome.eventCount)
        #expect(events == whole.outcome.eventCount)
        #expect(RunReport(outcome: outcome).digest == whole.digest)
    }

    @Test(arguments: files)
    func advancingInSlicesGivesTheRunsDigest(_ file: String) async throws {
        let (whole, sliced) = try await Self.whole(file)
        var ran = 0
        var instant = VirtualTime.zero
        // 37 ms slices until the end of the whole run: each leaves the clock at its instant.
        while instant < whole.outcome.endTime {
            instant = instant + .milliseconds(37)
            ran += try await sliced.advance(to: instant)
            #expect(await sliced.now == instant)
        }
        #expect(ran == whole.outcome.eventCount)
        #expect(try await sliced.step() == false)
        let outcome = try await sliced.run()
        #expect(RunReport(outcome: outcome).digest == whole.digest)
    }

    /// Advancing runs exactly the events due by then: the trace so far ends at or before it.
    @Test func advanceStopsAtTheInstant() async throws {
        let scenario = try Self.scenario("pickles-race.yaml")
        let whole = try await Simulation(scenario: scenario).run()
        let due = whole.trace.events.filter { $0.time <= VirtualTime.zero + .milliseconds(10) }.count
        #expect(due > 0 && due < whole.trace.events.count)
        let simulation = Simulation(scenario: scenario)
        try await simulation.advance(to: VirtualTime.zero + .milliseconds(10))
        // The rest of the run adds exactly the events after the instant.
        let outcome = try await simulation.run()
        #expect(outcome.trace.events.count == whole.trace.events.count)
        #expect(outcome.trace.events.filter { $0.time <= VirtualTime.zero + .milliseconds(10) }.count == due)
    }

    /// A scenario with problems is refused by the first `step()`, as `run()` refuses it.
    @Test func steppingAScenarioWithProblemsThrowsItsErrors() async throws {
        var scenario = try Self.scenario("pickles-race.yaml")
        scenario.checks.append(CheckSpec(.latest(device: "nobody-phone", session: "poll", from: nil, data: [], caption: nil)))
        var runErrors: [String] = []
        do { _ = try await Simulation(scenario: scenario).run() } catch { runErrors = error.errors.map(\.description) }
        #expect(!runErrors.isEmpty)
        var stepErrors: [String] = []
        do { _ = try await Simulation(scenario: scenario).step() } catch { stepErrors = error.errors.map(\.description) }
        #expect(stepErrors == runErrors)
    }
}
