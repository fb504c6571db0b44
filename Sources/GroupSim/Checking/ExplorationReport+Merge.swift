extension ExplorationReport {
    /// Merges the reports of shards of one random exploration (same scenario, base seed
    /// and number of runs; `--shard I/N`) into one: exactly the report the whole
    /// exploration would have given, whatever order the parts come in. A single report
    /// merges into itself.
    ///
    /// Throws `ExplorationError.mismatchedReports` for reports of different scenarios,
    /// checks, seeds or run counts, for a shard given twice, and for several exhaustive
    /// reports (an exhaustive report already covers every order).
    public static func merge(_ reports: [ExplorationReport]) throws(ExplorationError) -> ExplorationReport {
        guard let first = reports.first else { throw .mismatchedReports("there are no reports to merge") }
        if reports.count == 1 { return first }
        guard case .sampled(let seed, let requested) = first.mode else {
            throw .mismatchedReports("exhaustive reports cover every delivery order already; only shards of a random exploration merge")
        }
        var covered: Set<Int> = []
        var shardCount: Int?
        var tally = ExplorationTally(first)
        for (position, report) in reports.enumerated() {
            let name = "report \(position + 1)"
            guard report.scenario == first.scenario else {
                throw .mismatchedReports("\(name) is of scenario \(report.scenario), not \(first.scenario)")
            }
            guard report.mode == .sampled(seed: seed, requested: requested) else {
                throw .mismatchedReports("\(name) is not of the same exploration: \(report.modeSummary), not \(first.modeSummary)")
            }
            guard report.devices == first.devices, report.sessions == first.sessions,
                  report.checks.map(\.text) == first.checks.map(\.text), report.checks.map(\.line) == first.checks.map(\.line) else {
                throw .mismatchedReports("\(name) has different devices, sessions or checks: the scenario file changed between shards")
            }
            guard let shard = report.shard else {
                throw .mismatchedReports("\(name) covers every run already; merge only the reports of --shard I/N runs")
            }
            guard shardCount == nil || shardCount == shard.count else {
                throw .mismatchedReports("\(name) splits the runs into \(shard.count) shards, the others into \(shardCount ?? 0)")
            }
            shardCount = shard.count
            for index in shard.indices {
                guard covered.insert(index).inserted else {
                    throw .mismatchedReports("shard \(index)/\(shard.count) is given twice")
                }
            }
            if position > 0 { tally.merge(ExplorationTally(report)) }
        }
        var template = first
        let count = shardCount ?? 1
        template.shard = covered.count == count ? nil : ShardCoverage(count: count, indices: covered.sorted())
        return tally.report(template)
    }

    /// `random from seed 7, 1000 runs` or `exhaustive with seed 7`.
    var modeSummary: String {
        switch mode {
        case .sampled(let seed, let requested): "random from seed \(seed), \(requested) runs"
        case .exhaustive(let seed, _, _): "exhaustive with seed \(seed)"
        }
    }
}
