import GroupSimScenario

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
    private var unexpectedRuns: [ExploredRun.StepFailureKey: Int] = [:]
    private var unexpectedFirst: [ExploredRun.StepFailureKey: Report.RunReference] = [:]
    /// The text of each unexpected failure's key, and its step's line.
    private var unexpectedTitles: [ExploredRun.StepFailureKey: (text: String, line: Int?)] = [:]
    /// Sorted by run number, at most `Report.failureSampleLimit`.
    private var failures: [Report.FailingRun] = []
    private var outcomeKeys: Set<String> = []
    private var cloudConflicts = 0
    private var conflictRuns = 0
    private var mostConflicts = 0
    /// Whether a sum went past `Int.max` (only counts read from reports can get there):
    /// the sum stopped at `Int.max` and the tally must not be reported.
    private(set) var overflowed = false

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
            for count in row.counts { Self.add(&shown[slot, default: [:]][count.shown, default: 0], count.runs, &overflowed) }
        }
        for pitfall in report.pitfalls {
            Self.add(&pitfallRuns[pitfall.kind, default: 0], pitfall.runs, &overflowed)
            noteRule(pitfall.rule, for: pitfall.kind)
        }
        for failure in report.stepFailures {
            let key = ExploredRun.StepFailureKey(step: failure.step, device: failure.device, code: failure.code)
            Self.add(&stepFailureRuns[key, default: 0], failure.runs, &overflowed)
        }
        for tally in report.unexpectedFailures {
            guard let key = Self.key(ofUnexpected: tally.text) else { continue }
            unexpectedRuns[key, default: 0] += tally.failedRuns
            if let first = tally.firstFailure { unexpectedFirst[key] = first }
            unexpectedTitles[key] = (tally.text, tally.line)
        }
        failures = report.failures
        outcomeKeys = Set(report.outcomeKeys)
        cloudConflicts = report.cloudConflicts
        conflictRuns = report.conflictRuns
        mostConflicts = report.mostConflicts
    }

    /// The key an unexpected failure's text was made from (`step 3 on bob-phone failed
    /// unexpectedly: noBubble`): for merging reports read back from JSON.
    static func key(ofUnexpected text: String) -> ExploredRun.StepFailureKey? {
        guard text.hasPrefix("step "), let on = text.range(of: " on "),
              let failed = text.range(of: " failed unexpectedly: ", options: .backwards) else { return nil }
        let step = Int(text[text.index(text.startIndex, offsetBy: 5)..<on.lowerBound])
        return ExploredRun.StepFailureKey(step: step, device: String(text[on.upperBound..<failed.lowerBound]),
                                          code: String(text[failed.upperBound...]))
    }

    mutating func add(_ run: ExploredRun) {
        runs += 1
        if !run.quiet { stoppedRuns += 1 }
        for index in run.failedChecks where checkFailures.indices.contains(index) {
            checkFailures[index] += 1
            if checkFirst[index].map({ run.reference.run < $0.run }) ?? true { checkFirst[index] = run.reference }
        }
        for key in run.unexpected {
            unexpectedRuns[key, default: 0] += 1
            if unexpectedFirst[key].map({ run.reference.run < $0.run }) ?? true { unexpectedFirst[key] = run.reference }
            if unexpectedTitles[key] == nil { unexpectedTitles[key] = (key.unexpectedText, run.unexpectedLines[key]) }
        }
        if !run.failedChecks.isEmpty || !run.unexpected.isEmpty {
            failedRuns += 1
            insertFailures([Report.FailingRun(reference: run.reference, failedChecks: run.failedChecks,
                                              unexpected: run.unexpected.map(\.unexpectedText), schedule: run.schedule)])
        }
        // The runs of one scenario share most slots: the first run sizes the table.
        if shown.isEmpty { shown.reserveCapacity(run.shown.count) }
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

    /// Adds another tally's counts: the result is the tally of both sets of runs. Every
    /// sum is overflow-checked: one past `Int.max` sets `overflowed` instead of trapping.
    mutating func merge(_ other: ExplorationTally) {
        overflowed = overflowed || other.overflowed
        Self.add(&runs, other.runs, &overflowed)
        Self.add(&failedRuns, other.failedRuns, &overflowed)
        Self.add(&stoppedRuns, other.stoppedRuns, &overflowed)
        for index in checkFailures.indices where other.checkFailures.indices.contains(index) {
            Self.add(&checkFailures[index], other.checkFailures[index], &overflowed)
            if let theirs = other.checkFirst[index], checkFirst[index].map({ theirs.run < $0.run }) ?? true {
                checkFirst[index] = theirs
            }
        }
        for (slot, counts) in other.shown {
            for (value, count) in counts { Self.add(&shown[slot, default: [:]][value, default: 0], count, &overflowed) }
        }
        for (kind, count) in other.pitfallRuns { Self.add(&pitfallRuns[kind, default: 0], count, &overflowed) }
        for (kind, rule) in other.pitfallRules { noteRule(rule, for: kind) }
        for (key, count) in other.stepFailureRuns { Self.add(&stepFailureRuns[key, default: 0], count, &overflowed) }
        for (key, count) in other.unexpectedRuns { Self.add(&unexpectedRuns[key, default: 0], count, &overflowed) }
        for (key, first) in other.unexpectedFirst where unexpectedFirst[key].map({ first.run < $0.run }) ?? true {
            unexpectedFirst[key] = first
        }
        for (key, title) in other.unexpectedTitles where unexpectedTitles[key] == nil { unexpectedTitles[key] = title }
        insertFailures(other.failures)
        outcomeKeys.formUnion(other.outcomeKeys)
        Self.add(&cloudConflicts, other.cloudConflicts, &overflowed)
        Self.add(&conflictRuns, other.conflictRuns, &overflowed)
        mostConflicts = max(mostConflicts, other.mostConflicts)
    }

    /// `total += amount`, stopping at `Int.max` and noting it in `overflowed`.
    private static func add(_ total: inout Int, _ amount: Int, _ overflowed: inout Bool) {
        let (sum, overflow) = total.addingReportingOverflow(amount)
        total = overflow ? Int.max : sum
        if overflow { overflowed = true }
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
        report.unexpectedFailures = unexpectedRuns.keys.sorted().map { key in
            Report.CheckTally(text: unexpectedTitles[key]?.text ?? key.unexpectedText, line: unexpectedTitles[key]?.line,
                              failedRuns: unexpectedRuns[key] ?? 0, firstFailure: unexpectedFirst[key])
        }
        report.failures = failures
        report.outcomeKeys = outcomeKeys.sorted()
        report.cloudConflicts = cloudConflicts
        report.conflictRuns = conflictRuns
        report.mostConflicts = mostConflicts
        return report
    }
}
