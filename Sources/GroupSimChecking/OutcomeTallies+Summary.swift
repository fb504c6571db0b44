import GroupSimCore

extension ExplorationReport {
    /// What the text report's outcome lines read of a report's outcome rows, made in one
    /// pass over integers instead of building every row as an `OutcomeTally` (a
    /// 1,000-device group has 10 million rows, and the default report lists six sessions).
    package struct OutcomeSummary: Sendable {
        /// Per session asked for: how many devices have a row of it.
        package var devices: [String: Int] = [:]
        /// Per session asked for: each thing shown, with its runs summed over the
        /// session's devices, in no particular order.
        package var shown: [String: [OutcomeCount]] = [:]
        /// The lines the by-device list prints: every count of each row in which a
        /// device showed a bubble; 0 when no device showed a bubble of any session.
        package var bubbleLines = 0
    }
}

extension ExplorationReport.OutcomeTallies {
    /// The summary of these rows, with per-session figures for `sessions` only.
    package func summary(sessions: Set<String>) -> ExplorationReport.OutcomeSummary {
        if let counted = countedSummary(sessions: sessions) { return counted }
        var summary = ExplorationReport.OutcomeSummary()
        var sums: [String: [ExplorationReport.Shown: ExactCount]] = [:]
        for row in self {
            let counts = row.counts
            if counts.contains(where: { $0.shown.from != nil }) { summary.bubbleLines += counts.count }
            guard sessions.contains(row.session) else { continue }
            summary.devices[row.session, default: 0] += 1
            for count in counts { sums[row.session, default: [:]][count.shown, default: .zero] += count.runs }
        }
        summary.shown = sums.mapValues { $0.map { ExplorationReport.OutcomeCount(shown: $0.key, runs: $0.value) } }
        return summary
    }
}
