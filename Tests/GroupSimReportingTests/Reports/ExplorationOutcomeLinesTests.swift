import Foundation
import Testing
import GroupSim
import GroupSimTesting
@testable import GroupSimReporting

/// The text report's outcome lines are read from the exploration tally's table in one
/// pass over its numbers (`OutcomeTallies.summary`), not by building every row: they must
/// say exactly what the rows say when the same report holds them as values (a report read
/// from JSON, or changed by hand), for random and exhaustive exploration, short and `--full`.
@Suite struct ExplorationOutcomeLinesTests {
    /// Files whose outcomes differ between runs (races, jitter), with devices that show no
    /// bubble of a session (direct sends, members who join later, old platforms).
    static let files = ["pickles-race.yaml", "member-joins-later.yaml", "platforms.yaml", "offline-catch-up.yaml",
                        "pickles-race-cloud-cas.yaml"]

    @Test(arguments: files)
    func linesFromTheTableMatchLinesFromTheRows(_ file: String) async throws {
        let scenario = try ScenarioParser.load(path: ReportingFixture.root.appendingPathComponent("Scenarios/" + file).path)
        let explorer = Explorer(scenario: scenario, workers: 1)
        for report in [try await explorer.explore(runs: 40, seed: 3), try await explorer.exhaustive(limit: 2_000)] {
            var asValues = report
            asValues.outcomes = ExplorationReport.OutcomeTallies(Array(report.outcomes))
            for full in [false, true] {
                let fromTable = ExplorationTextReport.outcomeLines(report, full: full)
                #expect(fromTable == ExplorationTextReport.outcomeLines(asValues, full: full), "\(file), full: \(full)")
                #expect(fromTable.contains { $0.contains("outcome class") || $0.contains("no device shows a bubble") }, "\(file)")
            }
            // The summary itself, per session, against the rows it was read from.
            let sessions = Set(report.outcomes.map(\.session))
            let summary = report.outcomes.summary(sessions: sessions)
            let rows = asValues.outcomes.summary(sessions: sessions)
            #expect(summary.devices == rows.devices)
            #expect(summary.bubbleLines == rows.bubbleLines)
            #expect(summary.shown.mapValues(Self.sorted) == rows.shown.mapValues(Self.sorted), "\(file)")
        }
    }

    static func sorted(_ counts: [ExplorationReport.OutcomeCount]) -> [String] {
        counts.map { "\($0.shown) \($0.runs)" }.sorted()
    }
}
