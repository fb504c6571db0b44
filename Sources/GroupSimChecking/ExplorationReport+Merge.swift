extension ExplorationReport {
    /// Merges the reports of shards of one random exploration (same scenario text, tool
    /// version, base seed and number of runs; `--shard I/N`) into one: exactly the report
    /// the whole exploration would have given, whatever order the parts come in. A single
    /// report that covers every run merges into itself.
    ///
    /// Every report is first checked with `validate()`, so counts that cannot be (a shard
    /// with more failures than runs) are refused rather than added up; every sum is
    /// overflow-checked. The merged report takes its `file` (the replay line's path) from
    /// the report of the lowest shard, so it does not depend on the order of `reports`.
    ///
    /// - Parameters:
    ///   - names: what messages call each report (its file), in the order of `reports`;
    ///     `report 1`, `report 2`, ... when absent.
    ///   - partial: merge what is there when some shards are missing; the result then
    ///     keeps a `shard` coverage naming the shards it covers, so it is never taken for
    ///     the whole exploration.
    /// - Throws: `ExplorationError.invalidReport` for a report whose counts cannot be;
    ///   `ExplorationError.mismatchedReports` for reports of different scenario text
    ///   (`fingerprint`), GroupSim versions, scenarios, checks, seeds or run counts, for a
    ///   shard given twice, and for several exhaustive reports (an exhaustive report
    ///   already covers every order); `ExplorationError.missingShards` when shards are
    ///   missing and `partial` is false.
    public static func merge(_ reports: [ExplorationReport], names: [String] = [],
        partial: Bool = false) throws(ExplorationError) -> ExplorationReport {
        let named = reports.enumerated().map { (name: $0.offset < names.count ? names[$0.offset] : "report \($0.offset + 1)",
            report: $0.element) }
        for (name, report) in named {
            do {
                try report.validate()
            } catch {
                throw .invalidReport("\(name): \(error.description)")
            }
        }
        guard let first = named.first else { throw .mismatchedReports("there are no reports to merge") }
        guard case .random(let seed, let requested) = first.report.mode else {
            guard reports.count == 1 else {
                throw .mismatchedReports("exhaustive reports cover every delivery order already; only shards of a random exploration merge")
            }
            return first.report
        }
        if reports.count == 1, first.report.shard == nil { return first.report }
        // Lowest shard first, so the result does not depend on the order given.
        let ordered = named.sorted { ($0.report.shard?.indices.first ?? -1) < ($1.report.shard?.indices.first ?? -1) }
        let base = ordered[0]
        var covered: [Int: String] = [:]
        var shardCount: (count: Int, name: String)?
        var tally = ExplorationTally(base.report)
        for (position, (name, report)) in ordered.enumerated() {
            try report.checkSameExploration(as: base.report, name: name, baseName: base.name)
            guard report.mode == .random(seed: seed, requested: requested) else {
                throw .mismatchedReports("\(name) is not of the same exploration as \(base.name): \(report.modeSummary), not "
                    + "\(base.report.modeSummary)")
            }
            guard let shard = report.shard else {
                throw .mismatchedReports("\(name) covers every run already; merge only the reports of --shard I/N runs")
            }
            if let shardCount, shardCount.count != shard.count {
                throw .mismatchedReports("\(name) splits the runs into \(shard.count) shards, \(shardCount.name) into \(shardCount.count)")
            }
            shardCount = (shard.count, name)
            for index in shard.indices {
                if let other = covered[index] {
                    throw .mismatchedReports("shard \(index)/\(shard.count) is given twice: in \(other) and in \(name)")
                }
                covered[index] = name
            }
            if position > 0 { tally.merge(ExplorationTally(report)) }
        }
        var template = base.report
        if let count = shardCount?.count {
            let coverage = ShardCoverage(count: count, indices: covered.keys.sorted())
            template.shard = covered.count == count ? nil : coverage
            if template.shard != nil && !partial {
                throw .missingShards(covered: coverage, requestedRuns: requested)
            }
        } else {
            template.shard = nil
        }
        return tally.report(template)
    }

    /// Throws unless `self` explores the same scenario text with the same GroupSim as
    /// `base`: name, fingerprint, version, devices, sessions and checks.
    private func checkSameExploration(as base: ExplorationReport, name: String, baseName: String) throws(ExplorationError) {
        guard scenario == base.scenario else {
            throw .mismatchedReports("\(name) is of scenario \(scenario), \(baseName) of \(base.scenario)")
        }
        guard toolVersion == base.toolVersion else {
            throw .mismatchedReports("\(name) was explored by groupsim \(toolVersion), \(baseName) by groupsim \(base.toolVersion): "
                + "explore every shard with the same version")
        }
        guard fingerprint == base.fingerprint else {
            throw .mismatchedReports("\(name) and \(baseName) are of different scenario text under the name \(scenario) (fingerprint "
                + "\(fingerprint) in \(name), \(base.fingerprint) in \(baseName)): the scenario file changed between shards")
        }
        guard devices == base.devices, sessions == base.sessions,
              checks.map(\.text) == base.checks.map(\.text), checks.map(\.line) == base.checks.map(\.line) else {
            throw .mismatchedReports("\(name) has different devices, sessions or checks from \(baseName): the scenario file changed "
                + "between shards")
        }
    }

    /// `random from seed 7, 1000 runs` or `exhaustive with seed 7`.
    var modeSummary: String {
        switch mode {
        case .random(let seed, let requested): "random from seed \(seed), \(requested) runs"
        case .exhaustive(let seed, _, _): "exhaustive with seed \(seed)"
        }
    }
}
