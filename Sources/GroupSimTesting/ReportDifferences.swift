import GroupSim

/// The counts two exhaustive reports of one scenario must share, named where they differ:
/// what the property tests compare a search with its oracle by (factoring, the race
/// search, against plain enumeration).
package enum ReportDifferences {
    package static func between(_ a: ExplorationReport, _ b: ExplorationReport) -> [String] {
        var found: [String] = []
        if a.runs != b.runs { found.append("orders \(a.runs) vs \(b.runs)") }
        if a.failedRuns != b.failedRuns { found.append("failed orders \(a.failedRuns) vs \(b.failedRuns)") }
        if a.stoppedRuns != b.stoppedRuns { found.append("stopped \(a.stoppedRuns) vs \(b.stoppedRuns)") }
        for (x, y) in zip(a.checks, b.checks) where x.failedRuns != y.failedRuns || (x.firstFailure == nil) != (y.firstFailure == nil) {
            found.append("check \(x.text): \(x.failedRuns) vs \(y.failedRuns)")
        }
        if a.unexpectedFailures.map(\.failedRuns) != b.unexpectedFailures.map(\.failedRuns) { found.append("unexpected failures") }
        if a.pitfalls != b.pitfalls { found.append("pitfalls \(a.pitfalls.map { "\($0.kind.rawValue) \($0.runs)" }) vs " +
            "\(b.pitfalls.map { "\($0.kind.rawValue) \($0.runs)" })") }
        if a.outcomes != b.outcomes { found.append("device rows") }
        if a.classes != b.classes { found.append("outcome classes \(a.classes.map(\.runs)) vs \(b.classes.map(\.runs))") }
        if a.stepFailures != b.stepFailures { found.append("failed steps") }
        if a.cloudConflicts != b.cloudConflicts || a.conflictRuns != b.conflictRuns { found.append("cloud conflicts") }
        return found
    }
}
