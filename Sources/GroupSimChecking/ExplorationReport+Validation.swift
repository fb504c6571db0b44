import GroupSimCore
import GroupSimScenario

extension ExplorationReport {
    /// Checks that the report's counts can be those of an exploration: a report read
    /// from a file may have been edited, truncated or written by something else, and
    /// `merge` must not add up counts that cannot be.
    ///
    /// Refused, with `ExplorationError.invalidReport` naming the count:
    /// - a shard coverage outside `0..<count`, or an index given twice;
    /// - for a random exploration, a number of runs other than the runs its shards hold
    ///   (run `i` of `requestedRuns` belongs to shard `i % count`);
    /// - more failed or stopped runs than runs, a check or an unexpected failure counted in
    ///   more runs than failed, more failed runs than its checks and unexpected failures
    ///   together account for, an outcome, pitfall or failed step counted in more runs than there
    ///   are, more distinct outcomes than runs;
    /// - a first failure missing, or present for a check no run failed; a failing run
    ///   outside the covered shards or with a seed that its run number does not derive;
    ///   a sample of failing runs that is not the lowest-numbered `failureSampleLimit`;
    /// - cloud conflicts in more runs than there are, or refused writes that those runs
    ///   cannot hold: fewer than one per run that had them, more than the most in one run
    ///   times those runs, or any at all with no run that had them.
    ///
    /// - Complexity: linear in the size of the report; every sum is overflow-checked.
    public func validate() throws(ExplorationError) {
        let place = shard.map { "shard\($0.indices.count == 1 ? "" : "s") \($0)" } ?? "the report"
        func refuse(_ message: String) -> ExplorationError { .invalidReport("\(place): \(message)") }

        if let shard {
            guard shard.count >= 1 else { throw refuse("a shard count must be at least 1, found \(shard.count)") }
            guard !shard.indices.isEmpty else { throw refuse("it covers no shard") }
            var seen: Set<Int> = []
            for index in shard.indices {
                guard index >= 0, index < shard.count else { throw refuse("shard \(index)/\(shard.count) is not I/N with 0 <= I < N") }
                guard seen.insert(index).inserted else { throw refuse("it lists shard \(index)/\(shard.count) twice") }
            }
        }
        if case .random(let seed, let requested) = mode {
            let expected = try Self.runs(of: shard, below: requested)
            guard runs == ExactCount(expected) else {
                throw refuse("\(runs) runs, but \(shard == nil ? "an exploration" : place) of \(requested) runs holds \(expected)")
            }
            for reference in failures.map(\.reference) + checks.compactMap(\.firstFailure) {
                guard reference.run < requested, shard.map({ $0.indices.contains(reference.run % $0.count) }) ?? true else {
                    throw refuse("failing run #\(reference.run) is not one of its runs")
                }
                guard reference.seed == Explorer.seed(forRun: reference.run, base: seed) else {
                    throw refuse("failing run #\(reference.run) has seed \(reference.seed), not the seed run #\(reference.run) derives "
                        + "from \(seed)")
                }
            }
        }
        guard failedRuns <= runs else { throw refuse("\(failedRuns) failed runs out of \(runs) runs") }
        guard stoppedRuns <= runs else { throw refuse("\(stoppedRuns) stopped runs out of \(runs) runs") }
        for check in checks {
            guard check.failedRuns <= failedRuns else {
                throw refuse("check \"\(check.text)\" failed in \(check.failedRuns) runs, but only \(failedRuns) runs failed a check")
            }
            guard (check.failedRuns > 0) == (check.firstFailure != nil) else {
                throw refuse("check \"\(check.text)\" failed in \(check.failedRuns) runs but "
                    + "\(check.firstFailure == nil ? "has no" : "has a") first failing run")
            }
        }
        // A run fails when a check fails or a step fails unexpectedly: the failed runs are
        // at least the most any one of those failed, at most all of them together.
        for tally in unexpectedFailures {
            guard tally.failedRuns <= failedRuns else {
                throw refuse("\(tally.text) in \(tally.failedRuns) runs, but only \(failedRuns) runs failed")
            }
        }
        let explained = ExactCount.sum((checks + unexpectedFailures).map(\.failedRuns))
        guard failedRuns <= explained else {
            throw refuse("\(failedRuns) failed runs, but its checks and unexpected failures account for at most \(explained)")
        }
        var slots: Set<ExploredRun.Slot> = []
        for row in outcomes {
            guard slots.insert(ExploredRun.Slot(device: row.device, session: row.session)).inserted else {
                throw refuse("the outcomes of \(row.session) on \(row.device) are listed twice")
            }
            guard ExactCount.sum(row.counts.map(\.runs)) <= runs else {
                throw refuse("the outcomes of \(row.session) on \(row.device) add up to more than its \(runs) runs")
            }
        }
        var kinds: Set<Scenario.PitfallKind> = []
        for pitfall in pitfalls {
            guard kinds.insert(pitfall.kind).inserted else { throw refuse("pitfall \(pitfall.kind.rawValue) is listed twice") }
            guard pitfall.runs <= runs else { throw refuse("pitfall \(pitfall.kind.rawValue) in \(pitfall.runs) runs out of \(runs) runs") }
        }
        for failure in stepFailures where failure.runs > runs {
            throw refuse("a failed step on \(failure.device) (\(failure.code)) in \(failure.runs) runs out of \(runs) runs")
        }
        // Refused conditional writes happen only in the runs counted as having them, at
        // least one each and at most the most in one run each.
        guard mostConflicts >= 0, conflictRuns <= runs else {
            throw refuse("cloud conflicts in \(conflictRuns) runs out of \(runs) runs")
        }
        guard conflictRuns <= cloudConflicts, cloudConflicts <= ExactCount(mostConflicts) * conflictRuns,
              ExactCount(mostConflicts) <= cloudConflicts else {
            throw refuse("\(cloudConflicts) refused cloud writes in \(conflictRuns) runs, at most \(mostConflicts) in one run: "
                + "those counts cannot go together")
        }
        var classTotals: [String: ExactCount] = [:]
        var classKeys: Set<ClassKey> = []
        for entry in classes {
            guard classKeys.insert(entry.key).inserted else { throw refuse("an outcome class of \(entry.session) is listed twice") }
            classTotals[entry.session, default: .zero] += entry.runs
        }
        for (session, total) in classTotals.sorted(by: { $0.key < $1.key }) where total != runs {
            throw refuse("the outcome classes of \(session) count \(total) runs, not its \(runs) runs")
        }
        let runNumbers = failures.map(\.reference.run)
        guard failures.count == min(failedRuns.clampedInt, Self.failureSampleLimit), zip(runNumbers,
            runNumbers.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw refuse("its failing runs are not the lowest-numbered \(Self.failureSampleLimit) of its \(failedRuns) failed runs")
        }
        for failure in failures {
            guard failure.failedChecks.allSatisfy({ checks.indices.contains($0) }) else {
                throw refuse("failing run #\(failure.reference.run) names checks that are not in the report")
            }
        }
    }

    /// How many runs below `requested` the shards of `coverage` hold (all of them when
    /// nil). Run `i` belongs to shard `i % count`. O(`coverage.indices.count`).
    static func runs(of coverage: ShardCoverage?, below requested: Int) throws(ExplorationError) -> Int {
        guard let coverage else { return requested }
        var total = 0
        for index in coverage.indices where index < requested {
            // Runs index, index + count, ... below requested; no intermediate overflows.
            let (sum, overflow) = total.addingReportingOverflow((requested - 1 - index) / coverage.count + 1)
            guard !overflow else { throw .invalidReport("the shards of \(requested) runs hold more runs than can be counted") }
            total = sum
        }
        return total
    }
}
