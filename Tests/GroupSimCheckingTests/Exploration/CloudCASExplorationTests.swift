import Testing
@testable import GroupSim
@testable import GroupSimChecking

/// `app.state: cloud-cas` explored: the built-in app's compare-and-set with retry (M13).
@Suite struct CloudCASExplorationTests {
    /// Over many seeds with jitter, compare-and-set never loses a vote (M13), and the
    /// retries are counted.
    @Test func casConvergesOverManySeeds() async throws {
        let scenario = ExplorerTests.pollRace(.cloudCAS, checks: [.converged(session: "poll"),
            .complete(session: "poll", data: ExplorerTests.everyPick)])
        let report = try await Explorer(scenario: scenario, workers: 2).explore(runs: 200, seed: 3)
        for check in report.checks where check.failedRuns > 0 {
            Issue.record("\(check.text) failed in \(check.failedRuns) runs; first failing seed \(check.firstFailure?.seed ?? 0)")
        }
        #expect(!report.pitfalls.contains { $0.kind == .lostUpdate })
        #expect(report.cloudConflicts >= report.conflictRuns && report.conflictRuns > 0)
    }
}
