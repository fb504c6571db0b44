import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimChecking
@testable import GroupSimReporting

/// A cancelled exploration stops between runs and reports the runs before the first one
/// not finished, marked interrupted. The command line cancels it on
/// SIGINT or SIGTERM; here the task is cancelled directly.
@Suite struct ExplorerInterruptionTests {
    static let scenario = ExplorerTests.pollRace(.message, checks: [.converged(session: "poll")])

    /// Runs `explore` in a child task of a group cancelled before the child starts.
    static func cancelledExploration(workers: Int) async -> ExplorationReport? {
        await withTaskGroup(of: ExplorationReport?.self) { group in
            group.cancelAll()
            group.addTask { try? await Explorer(scenario: scenario, workers: workers).explore(runs: 500, seed: 3) }
            return await group.next() ?? nil
        }
    }

    @Test(arguments: [1, 3])
    func aCancelledExplorationStartsNoRunAndSaysSo(workers: Int) async throws {
        let report = try #require(await Self.cancelledExploration(workers: workers))
        #expect(report.runs == 0)
        #expect(report.interrupted)
        #expect(report.plannedRuns == 500)
        let text = ExplorationTextReport.render(report)
        #expect(text.contains("interrupted after 0 of 500 runs: the counts below are of those runs"), "\(text)")
    }

    @Test func aWholeExplorationIsNotInterrupted() async throws {
        let report = try await Explorer(scenario: Self.scenario, workers: 3).explore(runs: 50, seed: 3)
        #expect(report.runs == 50 && !report.interrupted)
        #expect(!ExplorationTextReport.render(report).contains("interrupted"))
        #expect(!ExplorationJSONReport.render(report).contains("interrupted"))
    }

    @Test func theJSONReportKeepsTheMark() async throws {
        var report = try await Explorer(scenario: Self.scenario).explore(runs: 20, seed: 3, shard: try Shard(index: 1, count: 3))
        report.interrupted = true
        #expect(report.plannedRuns == 7)
        let json = ExplorationJSONReport.render(report)
        #expect(json.contains("\"interrupted\": true"))
        #expect(try ExplorationJSONReport.parse(json) == report)
    }

    @Test func groupedCounts() {
        #expect(0.grouped == "0")
        #expect(41_200.grouped == "41,200")
        #expect(100_000_000.grouped == "100,000,000")
    }
}
