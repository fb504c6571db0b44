/// The counts behind an `ExplorationReport` while runs come in: order-free sums, minima
/// and unions, so adding runs (or merging tallies) in any order gives the same report.
struct ExplorationTally: Sendable {
    typealias Report = ExplorationReport

    private(set) var runs = 0
    private(set) var failedRuns = 0
    private(set) var stoppedRuns = 0
    private var checkFailures: [Int]
    private var checkFirst: [Report.RunReference?]
    private var shown: [ExploredRun.Slot: [Report.Shown: Int]] = [:]
    private var pitfallRuns: [PitfallKind: Int] = [:]
    /// The rule each kind cited; the smallest if runs ever disagreed, so order cannot matter.
    private var pitfallRules: [PitfallKind: String] = [:]
    private var stepFailureRuns: [ExploredRun.StepFailureKey: Int] = [:]
    /// Sorted by run number, at most `Report.failureSampleLimit`.
    private var failures: [Report.FailingRun] = []
    private var outcomeKeys: Set<String> = []
    private var cloudConflicts = 0
    private var conflictRuns = 0
    private var mostConflicts = 0

    init(checks: Int) {
        checkFailures = Array(repeating: 0, count: checks)
        checkFirst = Array(repeating: nil, count: checks)
    }

    /// The tally a report was made from (for merging shard reports).
    init(_ report: Report) {
        self.init(checks: report.checks.count)
        runs = report.runs
        failedRuns = report.failedRuns
        stoppedRuns = report.stoppedRuns
        checkFailures = report.checks.map(\.failedRuns)
        checkFirst = report.checks.map(\.firstFailure)
        for row in report.outcomes {
            let slot = ExploredRun.Slot(device: row.device, session: row.session)
            for count in row.counts { shown[slot, default: [:]][count.shown, default: 0] += count.runs }
        }
        for pitfall in report.pitfalls {
            pitfallRuns[pitfall.kind, default: 0] += pitfall.runs
            noteRule(pitfall.rule, for: pitfall.kind)
        }
        for failure in report.stepFailures {
            stepFailureRuns[ExploredRun.StepFailureKey(step: failure.step, device: failure.device, code: failure.code), default: 0] += failure.runs
        }
        failures = report.failures
        outcomeKeys = Set(report.outcomeKeys)
        cloudConflicts = report.cloudConflicts
        conflictRuns = report.conflictRuns
        mostConflicts = report.mostConflicts
    }

    mutating func add(_ run: ExploredRun) {
        runs += 1
        if !run.quiet { stoppedRuns += 1 }
        for index in run.failedChecks where checkFailures.indices.contains(index) {
            checkFailures[index] += 1
            if checkFirst[index].map({ run.reference.run < $0.run }) ?? true { checkFirst[index] = run.reference }
        }
        if !run.failedChecks.isEmpty {
            failedRuns += 1
            insertFailures([Report.FailingRun(reference: run.reference, failedChecks: run.failedChecks, schedule: run.schedule)])
        }
        for row in run.shown { shown[row.slot, default: [:]][row.shown, default: 0] += 1 }
        for pitfall in run.pitfalls {
            pitfallRuns[pitfall.kind, default: 0] += 1
            noteRule(pitfall.rule, for: pitfall.kind)
        }
        for failure in run.stepFailures { stepFailureRuns[failure, default: 0] += 1 }
        outcomeKeys.insert(run.outcomeKey)
        cloudConflicts += run.cloudConflicts
        if run.cloudConflicts > 0 { conflictRuns += 1 }
        mostConflicts = max(mostConflicts, run.cloudConflicts)
    }

    /// Adds another tally's counts: the result is the tally of both sets of runs.
    mutating func merge(_ other: ExplorationTally) {
        runs += other.runs
        failedRuns += other.failedRuns
        stoppedRuns += other.stoppedRuns
        for index in checkFailures.indices where other.checkFailures.indices.contains(index) {
            checkFailures[index] += other.checkFailures[index]
            if let theirs = other.checkFirst[index], checkFirst[index].map({ theirs.run < $0.run }) ?? true {
                checkFirst[index] = theirs
            }
        }
        for (slot, counts) in other.shown {
            for (value, count) in counts { shown[slot, default: [:]][value, default: 0] += count }
        }
        for (kind, count) in other.pitfallRuns { pitfallRuns[kind, default: 0] += count }
        for (kind, rule) in other.pitfallRules { noteRule(rule, for: kind) }
        for (key, count) in other.stepFailureRuns { stepFailureRuns[key, default: 0] += count }
        insertFailures(other.failures)
        outcomeKeys.formUnion(other.outcomeKeys)
        cloudConflicts += other.cloudConflicts
        conflictRuns += other.conflictRuns
        mostConflicts = max(mostConflicts, other.mostConflicts)
    }

    private mutating func noteRule(_ rule: String, for kind: PitfallKind) {
        if pitfallRules[kind].map({ rule < $0 }) ?? true { pitfallRules[kind] = rule }
    }

    private mutating func insertFailures(_ more: [Report.FailingRun]) {
        failures = Array((failures + more).sorted { $0.reference.run < $1.reference.run }.prefix(Report.failureSampleLimit))
    }

    /// The report: `template` supplies the scenario, mode, shard, devices, sessions and
    /// check texts; this tally the counts, each list sorted as `ExplorationReport` says.
    func report(_ template: Report) -> Report {
        var report = template
        report.runs = runs
        report.failedRuns = failedRuns
        report.stoppedRuns = stoppedRuns
        report.checks = template.checks.indices.map { index in
            var check = template.checks[index]
            check.failedRuns = checkFailures.indices.contains(index) ? checkFailures[index] : 0
            check.firstFailure = checkFirst.indices.contains(index) ? checkFirst[index] : nil
            return check
        }
        let deviceRank = Dictionary(template.devices.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let sessionRank = Dictionary(template.sessions.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        // Each slot's ranks are looked up once, not at every comparison of the sort.
        let ranked = shown.keys.map { (slot: $0, device: deviceRank[$0.device] ?? Int.max, session: sessionRank[$0.session] ?? Int.max) }
        let slots = ranked.sorted { a, b in
            if a.device != b.device { return a.device < b.device }
            if a.slot.device != b.slot.device { return a.slot.device < b.slot.device }
            if a.session != b.session { return a.session < b.session }
            return a.slot.session < b.slot.session
        }.map(\.slot)
        report.outcomes = slots.map { slot in
            let counts = (shown[slot] ?? [:]).map { Report.OutcomeCount(shown: $0.key, runs: $0.value) }
                .sorted { $0.runs != $1.runs ? $0.runs > $1.runs : $0.shown < $1.shown }
            return Report.OutcomeTally(device: slot.device, session: slot.session, counts: counts)
        }
        report.pitfalls = pitfallRuns.keys.sorted().map {
            Report.PitfallTally(kind: $0, rule: pitfallRules[$0] ?? $0.rule, runs: pitfallRuns[$0] ?? 0)
        }
        report.stepFailures = stepFailureRuns.map { Report.StepFailureTally(step: $0.key.step, device: $0.key.device, code: $0.key.code, runs: $0.value) }
            .sorted { a, b in
                if (a.step ?? Int.max) != (b.step ?? Int.max) { return (a.step ?? Int.max) < (b.step ?? Int.max) }
                if a.device != b.device { return a.device < b.device }
                return a.code < b.code
            }
        report.failures = failures
        report.outcomeKeys = outcomeKeys.sorted()
        report.cloudConflicts = cloudConflicts
        report.conflictRuns = conflictRuns
        report.mostConflicts = mostConflicts
        return report
    }
}
