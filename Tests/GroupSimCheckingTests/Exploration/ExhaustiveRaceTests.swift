import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimScenario
@testable import GroupSimChecking
@testable import GroupSimReporting
import GroupSimTesting

/// Exhaustive exploration covers race windows: the steps of a `race` run in
/// every order relative to each other and to the copies in flight, so every outcome a
/// random run can reach is among the exhaustive ones.
@Suite struct ExhaustiveRaceTests {
    static let picklesFiles: [String] = {
        let directory = ScenarioFiles.root.appendingPathComponent("Scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix("pickles-") && $0.hasSuffix(".yaml") }.sorted().map { directory.appendingPathComponent($0).path }
    }()

    @Test func thePicklesFilesAreFound() {
        #expect(Self.picklesFiles.count >= 5)
    }

    /// For each `pickles-*` file: the outcomes of `--exhaustive` contain every outcome of
    /// 500 random runs (2,000 with the full samples, `TestSampling`).
    @Test(arguments: picklesFiles)
    func exhaustiveFindsEveryOutcomeOfRandomRuns(_ path: String) async throws {
        let scenario = try ScenarioParser.load(path: path)
        let exhaustive = try await Explorer(scenario: scenario).exhaustive()
        let random = try await Explorer(scenario: scenario, workers: 2).explore(runs: TestSampling.count(default: 500, full: 2_000), seed: 1)
        let missing = Set(random.classes.map(\.key)).subtracting(exhaustive.classes.map(\.key))
        #expect(missing.isEmpty, "\(path): \(missing.count) outcome(s) of random runs (seeds derived from 1) that --exhaustive misses")
        // Rows per device: every (sender, state) a random run showed, exhaustive showed too.
        for row in random.outcomes {
            let found = Set(exhaustive.outcomes(of: row.session, on: row.device).map(\.shown))
            for count in row.counts where !found.contains(count.shown) {
                Issue.record(
                    "\(path): \(row.device) \(row.session) \(count.shown.state) from \(count.shown.from ?? "-") is missed by --exhaustive")
            }
        }
    }

    /// The window race: random runs lose a pick in about half the runs; exhaustive finds
    /// those orders too (before, the race's steps kept their drawn offsets and it found 2
    /// passing orders).
    @Test func theWindowRaceFailsExhaustively() async throws {
        let path = ScenarioFiles.root.appendingPathComponent("Scenarios/pickles-race-window.yaml").path
        let report = try await Explorer(scenario: try ScenarioParser.load(path: path)).exhaustive()
        #expect(!report.passed)
        #expect(report.failedRuns > 0 && report.failedRuns < report.runs)
        #expect(report.pitfalls.map(\.kind) == [.lostUpdate, .divergence])
        let text = ExplorationTextReport.render(report)
        #expect(text.contains("failing orders (all \(report.failedRuns)):"), "\(text)")
        #expect(report.failures.allSatisfy { $0.schedule.contains("step 2 on bob-phone") && $0.schedule.contains("step 3 on carol-phone") })
    }
}
