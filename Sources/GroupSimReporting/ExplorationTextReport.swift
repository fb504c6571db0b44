import GroupSimCore
import GroupSimSimulation
import GroupSimChecking

/// The plain-text report `groupsim explore` prints: per check how many runs failed it,
/// the distribution of outcomes per device (grouped by sender and state, since message
/// numbers vary from run to run), the pitfalls with how many runs reported each, failed
/// steps, and how to replay a failing run.
public enum ExplorationTextReport {
    public static func render(_ report: ExplorationReport) -> String {
        var lines: [String] = []
        let runs = report.runs
        switch report.mode {
        case .sampled(let seed, let requested):
            var heading = "\(report.scenario): \(runs) run\(runs == 1 ? "" : "s") with fresh latency, jitter and race draws (seeds derived from \(seed))"
            if let shard = report.shard {
                heading += "; shard\(shard.indices.count == 1 ? "" : "s") \(shard) of \(requested) runs"
                lines.append(heading)
                lines.append("partial: \(shard.missingDescription()), so this is not the whole exploration")
            } else {
                lines.append(heading)
            }
        case .exhaustive(let seed, let estimate, let simulated):
            lines.append("\(report.scenario): \(runs) distinct delivery order\(runs == 1 ? "" : "s") (seed \(seed); up-front estimate \(estimate); \(simulated) schedule\(simulated == 1 ? "" : "s") simulated, orders that only swap events on different devices pruned)")
        }
        let unit = if case .sampled = report.mode { "runs" } else { "orders" }
        if report.interrupted {
            let planned = report.plannedRuns.map { " of \(ExplorationReport.grouped($0))" } ?? ""
            lines.append("interrupted after \(ExplorationReport.grouped(runs))\(planned) \(unit): the counts below are of those \(unit)")
        }
        lines.append("")
        lines.append("Checks (\(unit) that failed each)")
        let tallies = report.checks + report.unexpectedFailures
        if tallies.isEmpty { lines.append("  (none)") }
        let failedWidth = tallies.map { String($0.failedRuns).count }.max() ?? 1
        for check in tallies {
            let place = check.line.map { "line \($0): " } ?? ""
            let count = String(repeating: " ", count: failedWidth - String(check.failedRuns).count) + String(check.failedRuns)
            var line = "  \(check.failedRuns == 0 ? "PASS" : "FAIL")  \(count) of \(runs) \(pad("(" + ExplorationReport.percent(check.failedRuns, of: runs) + ")", 8))  \(place)\(check.text)"
            if case .sampled = report.mode, let first = check.firstFailure { line += "  [first failing seed \(first.seed)]" }
            lines.append(line)
        }
        lines.append("")
        lines.append("Outcomes (the live bubble's sender and the state tapping it would show; message numbers vary by run)")
        let rows = report.outcomes.filter { row in row.counts.contains { $0.shown.from != nil } }
        if rows.isEmpty { lines.append("  (no device shows a bubble of any session)") }
        let placeWidth = rows.map { $0.device.count + $0.session.count + 2 }.max() ?? 0
        let senderWidth = rows.flatMap(\.counts).map { sender($0.shown).count }.max() ?? 0
        let countWidth = rows.flatMap(\.counts).map { String($0.runs).count }.max() ?? 1
        for row in rows {
            for count in row.counts {
                let place = pad("\(row.device) \(row.session):", placeWidth)
                let percent = pad(ExplorationReport.percent(count.runs, of: runs), 6, right: true)
                let number = pad("(\(count.runs))", countWidth + 2, right: true)
                let state = count.shown.from == nil ? "" : "  \(count.shown.state)"
                lines.append("  \(place) \(pad(sender(count.shown), senderWidth))  \(percent) \(number)\(state)")
            }
        }
        lines.append("")
        lines.append("Pitfalls (\(unit) that reported each)")
        if report.pitfalls.isEmpty { lines.append("  none") }
        for pitfall in report.pitfalls {
            lines.append("  \(pitfall.kind.rawValue) (\(pitfall.rule)): \(pitfall.runs) of \(runs) (\(ExplorationReport.percent(pitfall.runs, of: runs)))")
        }
        if report.cloudConflicts > 0 {
            lines.append("")
            lines.append("Cloud conflicts (conditional writes the store refused; cloud-cas retries each, M13)")
            lines.append("  \(report.cloudConflicts) in \(report.conflictRuns) of \(runs) \(unit) (\(ExplorationReport.percent(report.conflictRuns, of: runs))), at most \(report.mostConflicts) in one")
        }
        if let footnote = RuleReference.footnote(for: lines.joined(separator: "\n")) { lines.append("  " + footnote) }
        if !report.stepFailures.isEmpty {
            lines.append("")
            lines.append("Failed steps (\(unit) where each failed)")
            for failure in report.stepFailures {
                let step = failure.step.map { "step \($0)" } ?? "an app action"
                lines.append("  \(step) on \(failure.device): \(failure.code) in \(failure.runs) of \(runs) (\(ExplorationReport.percent(failure.runs, of: runs)))")
            }
        }
        if report.stoppedRuns > 0 {
            lines.append("")
            lines.append("warning: \(Plural.count(report.stoppedRuns, "run")) stopped after \(Simulation.eventLimit) events without going quiet")
        }
        lines.append("")
        var summary = "\(report.failedRuns) of \(runs) \(unit) failed a check; \(report.distinctOutcomes) distinct outcome\(report.distinctOutcomes == 1 ? "" : "s")"
        if let shard = report.shard { summary += " (partial: \(shard.missingCount) of \(shard.count) shards missing)" }
        lines.append(summary)
        if let failure = report.firstFailure {
            let failed = failure.failedChecks.compactMap { report.checks.indices.contains($0) ? report.checks[$0].text : nil } + failure.unexpected
            switch report.mode {
            case .sampled:
                lines.append("first failing run: #\(failure.reference.run), failed \(listed(failed))")
                if let app = report.app {
                    lines.append(Self.swiftReplayHint(app: app, seed: failure.reference.seed))
                } else {
                    lines.append("replay: \(report.replayCommand(seed: failure.reference.seed))")
                }
            case .exhaustive:
                let shown = report.failures.count < report.failedRuns ? "the first \(report.failures.count) of \(report.failedRuns)" : "all \(report.failedRuns)"
                lines.append("failing orders (\(shown)):")
                for failure in report.failures {
                    let failed = failure.failedChecks.compactMap { report.checks.indices.contains($0) ? report.checks[$0].text : nil }
                        + failure.unexpected
                    lines.append("  #\(failure.reference.run), failed \(listed(failed))")
                    lines.append("    order: \(failure.schedule.joined(separator: ", "))")
                }
                if let app = report.app { lines.append(Self.swiftReplayHint(app: app, seed: nil)) }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// How to replay a failing run of an app registered from Swift: from the test that
    /// explored it, since a plain `groupsim` does not know the app.
    /// The most failures one line names; the rest are counted.
    static let failuresPerLine = 20

    /// `a; b; c`, at most `failuresPerLine` of them, then `and 2,980 more`.
    static func listed(_ failed: [String]) -> String {
        let shown = failed.prefix(failuresPerLine).joined(separator: "; ")
        guard failed.count > failuresPerLine else { return shown }
        return shown + "; and \(ExplorationReport.grouped(failed.count - failuresPerLine)) more"
    }

    static func swiftReplayHint(app: String, seed: UInt64?) -> String {
        let run = seed.map { " or `try await scenario.run(seed: \($0), apps: apps)`" } ?? ""
        return "replay: the app \"\(app)\" is registered from Swift; in your test, `await explorer.replay(report.firstFailure!, of: report)`\(run)"
            + " gives the run with its transcripts (render it with MermaidReport or HTMLReport); `explorer.scenarioFile(replaying:of:)` writes it as a file"
            + " for a command line built with `GroupSimCommand(apps:)`"
    }

    /// `from Bob`, or `no bubble`.
    static func sender(_ shown: ExplorationReport.Shown) -> String {
        shown.fromName.map { "from \($0)" } ?? shown.from.map { "from \($0)" } ?? "no bubble"
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
