import GroupSimCore
import GroupSimSimulation
import GroupSimChecking

/// The plain-text report `groupsim explore` prints: per check how many runs failed it,
/// the distribution of outcomes per device (grouped by sender and state, since message
/// numbers vary from run to run), the pitfalls with how many runs reported each, failed
/// steps, and how to replay a failing run.
package enum ExplorationTextReport {
    /// Per-device outcome lines printed without `full`: a scenario small enough to fit
    /// on a screen shows every device; a larger one shows its sessions' classes only.
    package static let deviceLineLimit = 24
    /// Outcome classes listed per session without `full`, the biggest first.
    package static let classLimit = 5
    /// Sessions listed without `full`.
    package static let sessionLimit = 6
    /// Devices named as apart from the majority, per session, without `full`.
    package static let outlierLimit = 5
    /// Checks, unexpected failures and failed steps listed without `full`.
    package static let listLimit = 20

    /// The up-front estimate of orders as counts print (`1.278 × 10^17`); the search
    /// keeps `Int.max` for any estimate past it, so that one is "more than" it.
    static func estimateText(_ estimate: Int) -> String {
        estimate == Int.max ? "more than \(ExactCount(estimate).readable)" : ExactCount(estimate).readable
    }

    /// - Parameter full: every device's line, every class, check and failed step; without
    ///   it the report stays about 60 lines whatever the number of devices and sessions.
    package static func render(_ report: ExplorationReport, full: Bool = false) -> String {
        var lines: [String] = []
        let runs = report.runs
        let readableRuns = runs.readable
        switch report.mode {
        case .random(let seed, let requested):
            var heading = "\(report.scenario): \(runs) run\(runs == 1 ? "" : "s") with fresh latency, jitter and race draws (seeds "
                + "derived from \(seed))"
            if let shard = report.shard {
                heading += "; shard\(shard.indices.count == 1 ? "" : "s") \(shard) of \(requested) runs"
                lines.append(heading)
                lines.append("partial: \(shard.missingDescription()), so this is not the whole exploration")
            } else {
                lines.append(heading)
            }
        case .exhaustive(let seed, let estimate, let simulated):
            lines.append("\(report.scenario): \(readableRuns) distinct delivery order\(runs == 1 ? "" : "s") (seed \(seed); up-front "
                + "estimate \(estimateText(estimate)); \(simulated) schedule\(simulated == 1 ? "" : "s") simulated"
                + "\(report.search == .optimal ? " by the optimal search" : ""); "
                + "orders that only swap events on different devices, or cloud reads no write separates, count as one)")
            if let factoring = report.factoring { lines.append(factoring.summary) }
        }
        let unit = if case .random = report.mode { "runs" } else { "orders" }
        if let stop = report.memoryStopDescription {
            lines.append(stop)
        } else if report.interrupted {
            let planned = report.plannedRuns.map { " of \($0.grouped)" } ?? ""
            lines.append("interrupted after \(runs.grouped)\(planned) \(unit): the counts below are of those \(unit)")
        }
        lines.append("")
        lines.append("Checks (\(unit) that failed each)")
        let tallies = report.checks + report.unexpectedFailures
        if tallies.isEmpty { lines.append("  (none)") }
        let failedWidth = tallies.map { $0.failedRuns.readable.count }.max() ?? 1
        let shownTallies = full ? tallies : Array(tallies.prefix(listLimit))
        for check in shownTallies {
            let place = check.line.map { "line \($0): " } ?? ""
            let count = pad(check.failedRuns.readable, failedWidth, right: true)
            var line = "  \(check.failedRuns.isZero ? "PASS" : "FAIL")  \(count) of \(readableRuns) "
                + "\(pad("(" + ExplorationReport.percent(check.failedRuns, of: runs) + ")", 8))  \(place)\(check.text)"
            if case .random = report.mode, let first = check.firstFailure { line += "  [first failing seed \(first.seed)]" }
            lines.append(line)
        }
        if shownTallies.count < tallies.count { lines.append("  and \(tallies.count - shownTallies.count) more (--full lists them)") }
        lines.append("")
        lines += outcomeLines(report, full: full)
        lines.append("")
        lines.append("Pitfalls (\(unit) that reported each)")
        if report.pitfalls.isEmpty { lines.append("  none") }
        for pitfall in report.pitfalls {
            lines.append("  \(pitfall.kind.rawValue) (\(pitfall.rule)): \(pitfall.runs.readable) of \(readableRuns) "
                + "(\(ExplorationReport.percent(pitfall.runs, of: runs)))")
        }
        if !report.cloudConflicts.isZero {
            lines.append("")
            lines.append("Cloud conflicts (conditional writes the store refused; cloud-cas retries each, M13)")
            lines.append("  \(report.cloudConflicts.readable) in \(report.conflictRuns.readable) of \(readableRuns) \(unit) "
                + "(\(ExplorationReport.percent(report.conflictRuns, of: runs))), at most \(report.mostConflicts) in one")
        }
        if let footnote = RuleReference.footnote(for: lines.joined(separator: "\n")) { lines.append("  " + footnote) }
        if !report.stepFailures.isEmpty {
            lines.append("")
            lines.append("Failed steps (\(unit) where each failed)")
            let steps = full ? report.stepFailures : Array(report.stepFailures.prefix(listLimit))
            for failure in steps {
                let step = failure.step.map { "step \($0)" } ?? "an app action"
                lines.append("  \(step) on \(failure.device): \(failure.code) in \(failure.runs.readable) of \(readableRuns) "
                    + "(\(ExplorationReport.percent(failure.runs, of: runs)))")
            }
            if steps.count < report.stepFailures.count { lines.append("  and \(report.stepFailures.count - steps.count) more (--full "
                + "lists them)") }
        }
        if !report.stoppedRuns.isZero {
            lines.append("")
            lines.append("warning: \(report.stoppedRuns.readable) run\(report.stoppedRuns == 1 ? "" : "s") stopped after "
                + "\(Simulation.eventLimit) events without going quiet")
        }
        lines.append("")
        var summary = "\(report.failedRuns.readable) of \(readableRuns) \(unit) failed a check; \(report.distinctOutcomes) distinct "
            + "outcome\(report.distinctOutcomes == 1 ? "" : "s")"
        if let shard = report.shard { summary += " (partial: \(shard.missingCount) of \(shard.count) shards missing)" }
        lines.append(summary)
        if let failure = report.firstFailure {
            let failed = failure.failedChecks.compactMap { report.checks.indices.contains($0) ? report.checks[$0].text : nil }
                + failure.unexpected
            switch report.mode {
            case .random:
                lines.append("first failing run: #\(failure.reference.run), failed \(listed(failed))")
                if let app = report.app {
                    lines.append(Self.swiftReplayHint(app: app, seed: failure.reference.seed))
                } else {
                    lines.append("replay: \(report.replayCommand(seed: failure.reference.seed))")
                }
            case .exhaustive:
                let shown = ExactCount(report.failures.count) < report.failedRuns
                    ? "the first \(report.failures.count) of \(report.failedRuns.readable)" : "all \(report.failedRuns)"
                lines.append("failing orders (\(shown)):")
                for failure in report.failures {
                    let failed = failure.failedChecks.compactMap { report.checks.indices.contains($0) ? report.checks[$0].text : nil }
                        + failure.unexpected
                    lines.append("  #\(failure.reference.run), failed \(listed(failed))")
                    lines.append("    order: \(orderText(failure.schedule, full: full))")
                }
                if let app = report.app { lines.append(Self.swiftReplayHint(app: app, seed: nil)) }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Events of a failing order printed without `full`: a 96-device group's order has
    /// hundreds; the JSON report lists every one.
    package static let orderEventLimit = 40

    /// A failing order, event by event, cut after `orderEventLimit` events without `full`.
    static func orderText(_ schedule: [String], full: Bool) -> String {
        guard !full, schedule.count > orderEventLimit else { return schedule.joined(separator: ", ") }
        return schedule.prefix(orderEventLimit).joined(separator: ", ")
            + ", and \(schedule.count - orderEventLimit) more events (--full or the JSON report lists them)"
    }

    /// The outcomes: each session's classes (what set of things its devices showed), the
    /// share of devices' live bubbles by sender, the devices most often apart from the
    /// majority, then every device's line when they fit (or with `full`).
    static func outcomeLines(_ report: ExplorationReport, full: Bool) -> [String] {
        var lines = ["Outcomes (what each session's devices showed: the live bubble's sender and the state tapping it would show)"]
        let runs = report.runs
        var sessions: [String] = []
        var known: Set<String> = []
        for entry in report.classes where known.insert(entry.session).inserted { sessions.append(entry.session) }
        let listedSessions = full ? sessions : Array(sessions.prefix(sessionLimit))
        // One pass over the rows' numbers: the listed sessions' devices and shares, and the
        // by-device lines; the rows themselves are made only when they are printed.
        let summary = report.outcomes.summary(sessions: Set(listedSessions))
        if summary.bubbleLines == 0 {
            lines.append("  (no device shows a bubble of any session)")
            return lines
        }
        var classesBySession: [String: [ExplorationReport.OutcomeClass]] = [:]
        for entry in report.classes { classesBySession[entry.session, default: []].append(entry) }
        var outliersBySession: [String: [ExplorationReport.Outlier]] = [:]
        for entry in report.outliers { outliersBySession[entry.session, default: []].append(entry) }
        var senderShares: [String: [String: ExactCount]] = [:]
        for (session, counts) in summary.shown {
            for count in counts { senderShares[session, default: [:]][sender(count.shown), default: .zero] += count.runs }
        }
        let devicesBySession = summary.devices
        for session in listedSessions {
            let classes = classesBySession[session] ?? []
            let devices = devicesBySession[session] ?? 0
            lines.append("  \(session): \(Plural.count(devices, "device")), "
                + "\(Plural.count(classes.count, "outcome class", plural: "outcome classes"))")
            let listed = full ? classes : Array(classes.prefix(classLimit))
            let countWidth = listed.map { $0.runs.readable.count }.max() ?? 1
            for entry in listed {
                let percent = pad(ExplorationReport.percent(entry.runs, of: runs), 6, right: true)
                let number = pad("(\(entry.runs.readable))", countWidth + 2, right: true)
                lines.append("    \(percent) \(number)  \(describe(entry, devices: devices))")
            }
            if listed.count < classes.count { lines.append("    and \(classes.count - listed.count) more classes (--full lists them)") }
            let shares = (senderShares[session] ?? [:]).sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            let total = ExactCount.sum(shares.map(\.value))
            if shares.count > 1 {
                let parts = shares.prefix(full ? shares.count : 6).map { "\($0.key) \($0.value.percent(of: total))" }
                lines.append("    live bubbles over every device: "
                    + "\(parts.joined(separator: ", "))\(shares.count > parts.count ? ", and \(shares.count - parts.count) more" : "")")
            }
            let outliers = outliersBySession[session] ?? []
            if !outliers.isEmpty {
                let named = (full ? outliers : Array(outliers.prefix(outlierLimit))).map { "\($0.device) (\($0.runs.readable))" }
                let more = outliers.count > named.count ? ", and \(outliers.count - named.count) more" : ""
                lines.append("    most often apart from the majority: \(named.joined(separator: ", "))\(more)")
            }
        }
        if listedSessions.count < sessions.count {
            lines.append("  and \(sessions.count - listedSessions.count) more sessions (--full lists them)")
        }
        let deviceLines = summary.bubbleLines
        guard full || deviceLines <= deviceLineLimit else {
            lines.append("  (\(deviceLines) device lines left out; --full prints every device's outcomes)")
            return lines
        }
        let rows = report.outcomes.filter { row in row.counts.contains { $0.shown.from != nil } }
        lines.append("  by device:")
        let placeWidth = rows.map { $0.device.count + $0.session.count + 2 }.max() ?? 0
        let senderWidth = rows.flatMap(\.counts).map { sender($0.shown).count }.max() ?? 0
        let countWidth = rows.flatMap(\.counts).map { $0.runs.readable.count }.max() ?? 1
        for row in rows {
            for count in row.counts {
                let place = pad("\(row.device) \(row.session):", placeWidth)
                let percent = pad(ExplorationReport.percent(count.runs, of: runs), 6, right: true)
                let number = pad("(\(count.runs.readable))", countWidth + 2, right: true)
                let state = count.shown.from == nil ? "" : "  \(count.shown.state)"
                lines.append("    \(place) \(pad(sender(count.shown), senderWidth))  \(percent) \(number)\(state)")
            }
        }
        return lines
    }

    /// `every device: from Carol {carol: pickles}`, or `3 views: from Alice {...} | ...`,
    /// with the range of devices in the largest group when it was counted.
    static func describe(_ entry: ExplorationReport.OutcomeClass, devices: Int) -> String {
        let things = entry.shown.map { $0.from == nil ? "no bubble" : "\(sender($0)) \($0.state)" }
        guard things.count > 1 else { return "every device: \(things.first ?? "no bubble")" }
        var text = "\(things.count) views: \(things.joined(separator: " | "))"
        if let agreeing = entry.agreeing {
            let size = agreeing.lowerBound == agreeing.upperBound
                ? "\(agreeing.lowerBound)" : "\(agreeing.lowerBound)-\(agreeing.upperBound)"
            text += " (largest group \(size) of \(devices))"
        }
        return text
    }

    /// How to replay a failing run of an app registered from Swift: from the test that
    /// explored it, since a plain `groupsim` does not know the app.
    /// The most failures one line names; the rest are counted.
    static let failuresPerLine = 20

    /// `a; b; c`, at most `failuresPerLine` of them, then `and 2,980 more`.
    static func listed(_ failed: [String]) -> String {
        let shown = failed.prefix(failuresPerLine).joined(separator: "; ")
        guard failed.count > failuresPerLine else { return shown }
        return shown + "; and \((failed.count - failuresPerLine).grouped) more"
    }

    static func swiftReplayHint(app: String, seed: UInt64?) -> String {
        let run = seed.map { " or `try await scenario.run(seed: \($0), apps: apps)`" } ?? ""
        return "replay: the app \"\(app)\" is registered from Swift; in your test, `await explorer.replay(report.firstFailure!, of: "
            + "report)`\(run)"
            + " gives the run with its transcripts (render it with MermaidReport or HTMLReport); `explorer.scenarioFile(replaying:of:)` "
                + "writes it as a file"
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
