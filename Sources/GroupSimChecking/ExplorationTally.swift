import GroupSimCore
import GroupSimScenario

/// The counts behind an `ExplorationReport` while runs come in: order-free sums, minima
/// and unions, so adding runs (or merging tallies) in any order gives the same report.
struct ExplorationTally: Sendable {
    typealias Report = ExplorationReport

    private(set) var runs: ExactCount = 0
    private(set) var failedRuns: ExactCount = 0
    private(set) var stoppedRuns: ExactCount = 0
    private var checkFailures: [ExactCount]
    private var checkFirst: [Report.RunReference?]
    private var shown = OutcomeCounts()
    private var pitfallRuns: [Scenario.PitfallKind: ExactCount] = [:]
    /// The rule each kind cited; the smallest if runs ever disagreed, so order cannot matter.
    private var pitfallRules: [Scenario.PitfallKind: Rule] = [:]
    private var stepFailureRuns: [ExploredRun.StepFailureKey: ExactCount] = [:]
    private var unexpectedRuns: [ExploredRun.StepFailureKey: ExactCount] = [:]
    private var unexpectedFirst: [ExploredRun.StepFailureKey: Report.RunReference] = [:]
    /// The text of each unexpected failure's key, and its step's line.
    private var unexpectedTitles: [ExploredRun.StepFailureKey: (text: String, line: Int?)] = [:]
    /// Sorted by run number, at most `Report.failureSampleLimit`.
    private var failures: [Report.FailingRun] = []
    /// Each session's classes: runs, and the fewest and most devices that agreed.
    private var classes: [Report.ClassKey: (runs: ExactCount, agreeing: ClosedRange<Int>?)] = [:]
    private var outliers: [ExploredRun.Slot: ExactCount] = [:]
    /// The outliers of runs whose devices are `outlierDevices`, in that order (every run of
    /// one exploration): per session, a count per device number, counted without hashing
    /// the device's name. `outlierCounts` holds both.
    private var outlierDevices: [String] = []
    private var outliersByNumber: [String: [UInt64]] = [:]
    private var cloudConflicts: ExactCount = 0
    private var conflictRuns: ExactCount = 0
    private var mostConflicts = 0

    /// The outcome classes counted so far (what the tally holds grows with them).
    var classCount: Int { classes.count }

    init(checks: Int) {
        checkFailures = Array(repeating: .zero, count: checks)
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
            for count in row.counts { shown.add(slot, count.shown, count.runs) }
        }
        for pitfall in report.pitfalls {
            pitfallRuns[pitfall.kind, default: .zero] += pitfall.runs
            noteRule(pitfall.rule, for: pitfall.kind)
        }
        for failure in report.stepFailures {
            let key = ExploredRun.StepFailureKey(step: failure.step, device: failure.device, code: failure.code)
            stepFailureRuns[key, default: .zero] += failure.runs
        }
        for tally in report.unexpectedFailures {
            guard let key = Self.key(ofUnexpected: tally.text) else { continue }
            unexpectedRuns[key, default: .zero] += tally.failedRuns
            if let first = tally.firstFailure { unexpectedFirst[key] = first }
            unexpectedTitles[key] = (tally.text, tally.line)
        }
        failures = report.failures
        for entry in report.classes { noteClass(entry.key, runs: entry.runs, agreeing: entry.agreeing) }
        for entry in report.outliers { outliers[ExploredRun.Slot(device: entry.device, session: entry.session),
            default: .zero] += entry.runs }
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
        runs += .one
        if !run.quiet { stoppedRuns += .one }
        for index in run.failedChecks where checkFailures.indices.contains(index) {
            checkFailures[index] += .one
            if checkFirst[index].map({ run.reference.run < $0.run }) ?? true { checkFirst[index] = run.reference }
        }
        for key in run.unexpected {
            unexpectedRuns[key, default: .zero] += .one
            if unexpectedFirst[key].map({ run.reference.run < $0.run }) ?? true { unexpectedFirst[key] = run.reference }
            if unexpectedTitles[key] == nil { unexpectedTitles[key] = (key.unexpectedText, run.unexpectedLines[key]) }
        }
        if run.failed {
            failedRuns += .one
            // A full list of failing runs keeps a later run out: its entry is not made.
            if failures.count < Report.failureSampleLimit || failures.last.map({ run.reference.run < $0.reference.run }) ?? true {
                insertFailures([Report.FailingRun(reference: run.reference, failedChecks: run.failedChecks,
                                                  unexpected: run.unexpected.map(\.unexpectedText), schedule: run.schedule)])
            }
        }
        shown.add(run.rows, count: .one)
        for entry in run.classes {
            noteClass(Report.ClassKey(session: entry.session, shown: entry.shown), runs: .one, agreeing: entry.agreeing...entry.agreeing)
            if !entry.outliers.isEmpty { noteOutliers(entry.outliers, session: entry.session, devices: run.rows.devices) }
        }
        for pitfall in run.pitfalls {
            pitfallRuns[pitfall.kind, default: .zero] += .one
            noteRule(pitfall.rule, for: pitfall.kind)
        }
        for failure in run.stepFailures { stepFailureRuns[failure, default: .zero] += .one }
        cloudConflicts += ExactCount(run.cloudConflicts)
        if run.cloudConflicts > 0 { conflictRuns += .one }
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
        shown.merge(other.shown)
        for (kind, count) in other.pitfallRuns { pitfallRuns[kind, default: .zero] += count }
        for (kind, rule) in other.pitfallRules { noteRule(rule, for: kind) }
        for (key, count) in other.stepFailureRuns { stepFailureRuns[key, default: .zero] += count }
        for (key, count) in other.unexpectedRuns { unexpectedRuns[key, default: .zero] += count }
        for (key, first) in other.unexpectedFirst where unexpectedFirst[key].map({ first.run < $0.run }) ?? true {
            unexpectedFirst[key] = first
        }
        for (key, title) in other.unexpectedTitles where unexpectedTitles[key] == nil { unexpectedTitles[key] = title }
        insertFailures(other.failures)
        for (key, entry) in other.classes { noteClass(key, runs: entry.runs, agreeing: entry.agreeing) }
        for (slot, count) in other.outlierCounts { outliers[slot, default: .zero] += count }
        cloudConflicts += other.cloudConflicts
        conflictRuns += other.conflictRuns
        mostConflicts = max(mostConflicts, other.mostConflicts)
    }

    // MARK: Weighted counts (factored exhaustive exploration, `Explorer+Factored.swift`)

    /// `count` more orders, of which `failed` failed a check and `stopped` did not go quiet.
    mutating func addOrders(_ count: ExactCount, failed: ExactCount, stopped: Bool) {
        runs += count
        failedRuns += failed
        if stopped { stoppedRuns += count }
    }

    /// `count` more orders failed check `index`; `first` is one of them.
    mutating func addCheckFailures(_ index: Int, _ count: ExactCount, first: Report.RunReference?) {
        guard checkFailures.indices.contains(index) else { return }
        checkFailures[index] += count
        if let first, checkFirst[index].map({ first.run < $0.run }) ?? true { checkFirst[index] = first }
    }

    /// `count` more orders had the unexpected step failure `key`; `first` is one of them.
    mutating func addUnexpected(_ key: ExploredRun.StepFailureKey, _ count: ExactCount, first: Report.RunReference?, line: Int?) {
        unexpectedRuns[key, default: .zero] += count
        if let first, unexpectedFirst[key].map({ first.run < $0.run }) ?? true { unexpectedFirst[key] = first }
        if unexpectedTitles[key] == nil { unexpectedTitles[key] = (key.unexpectedText, line) }
    }

    /// A failing order to list (kept if among the lowest-numbered).
    mutating func addSample(_ failure: Report.FailingRun) { insertFailures([failure]) }

    mutating func addShown(_ slot: ExploredRun.Slot, _ value: Report.Shown, _ count: ExactCount) {
        shown.add(slot, value, count)
    }

    mutating func addClass(session: String, shown: [Report.Shown], _ count: ExactCount) {
        noteClass(Report.ClassKey(session: session, shown: shown), runs: count, agreeing: nil)
    }

    mutating func addPitfall(_ kind: Scenario.PitfallKind, rule: Rule, _ count: ExactCount) {
        pitfallRuns[kind, default: .zero] += count
        noteRule(rule, for: kind)
    }

    mutating func addStepFailure(_ key: ExploredRun.StepFailureKey, _ count: ExactCount) {
        stepFailureRuns[key, default: .zero] += count
    }

    /// `count` orders each with `writes` refused conditional writes.
    mutating func addConflicts(_ writes: Int, orders count: ExactCount) {
        guard writes > 0 else { return }
        cloudConflicts += ExactCount(writes) * count
        conflictRuns += count
        mostConflicts = max(mostConflicts, writes)
    }

    /// Counts `runs` more runs of a session's class, widening its range of agreeing devices.
    /// The class is found once (a new one starts from no runs and no range).
    private mutating func noteClass(_ key: Report.ClassKey, runs: ExactCount, agreeing: ClosedRange<Int>?) {
        Self.widen(&classes[key, default: (.zero, nil)], runs: runs, agreeing: agreeing)
    }

    private static func widen(_ entry: inout (runs: ExactCount, agreeing: ClosedRange<Int>?), runs: ExactCount, agreeing: ClosedRange<Int>?) {
        entry.agreeing = switch (entry.agreeing, agreeing) {
        case (let a?, let b?): min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
        case (let a?, nil): a
        case (nil, let b): b
        }
        entry.runs += runs
    }

    /// Counts one run's outliers of `session`, given by number in the run's `devices`.
    private mutating func noteOutliers(_ numbers: [Int32], session: String, devices: [String]) {
        if outlierDevices.isEmpty { outlierDevices = devices }
        guard devices == outlierDevices else {
            for number in numbers { outliers[ExploredRun.Slot(device: devices[Int(number)], session: session), default: .zero] += .one }
            return
        }
        Self.count(numbers, into: &outliersByNumber[session, default: Array(repeating: 0, count: devices.count)])
    }

    private static func count(_ numbers: [Int32], into counts: inout [UInt64]) {
        for number in numbers { counts[Int(number)] += 1 }
    }

    /// Every outlier's count, by device and session.
    private var outlierCounts: [ExploredRun.Slot: ExactCount] {
        var all = outliers
        for (session, counts) in outliersByNumber {
            for (number, count) in counts.enumerated() where count > 0 {
                all[ExploredRun.Slot(device: outlierDevices[number], session: session), default: .zero] += ExactCount(count)
            }
        }
        return all
    }

    private mutating func noteRule(_ rule: Rule, for kind: Scenario.PitfallKind) {
        if pitfallRules[kind].map({ rule < $0 }) ?? true { pitfallRules[kind] = rule }
    }

    private mutating func insertFailures(_ more: [Report.FailingRun]) {
        // A run after every one kept goes last, or is left out once the list is full:
        // most failing runs of an exploration come in run order.
        if more.count == 1, let run = more.first, failures.last.map({ $0.reference.run < run.reference.run }) ?? true {
            if failures.count < Report.failureSampleLimit { failures.append(run) }
            return
        }
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
            check.failedRuns = checkFailures.indices.contains(index) ? checkFailures[index] : .zero
            check.firstFailure = checkFirst.indices.contains(index) ? checkFirst[index] : nil
            return check
        }
        let deviceRank = Dictionary(template.devices.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        let sessionRank = Dictionary(template.sessions.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first,
            _ in first })
        report.outcomes = shown.tallies(deviceRank: deviceRank, sessionRank: sessionRank)
        report.pitfalls = pitfallRuns.keys.sorted().map {
            Report.PitfallTally(kind: $0, rule: pitfallRules[$0] ?? $0.rule, runs: pitfallRuns[$0] ?? .zero)
        }
        report.stepFailures = stepFailureRuns.map { Report.StepFailureTally(step: $0.key.step, device: $0.key.device, code: $0.key.code,
            runs: $0.value) }
            .sorted { a, b in
                if (a.step ?? Int.max) != (b.step ?? Int.max) { return (a.step ?? Int.max) < (b.step ?? Int.max) }
                if a.device != b.device { return a.device < b.device }
                return a.code < b.code
            }
        report.unexpectedFailures = unexpectedRuns.keys.sorted().map { key in
            Report.CheckTally(text: unexpectedTitles[key]?.text ?? key.unexpectedText, line: unexpectedTitles[key]?.line,
                              failedRuns: unexpectedRuns[key] ?? .zero, firstFailure: unexpectedFirst[key])
        }
        report.failures = failures
        // Each entry's ranks are looked up once, not twice per comparison (a sort of n
        // entries hashed names about 2n log n times). Entries are distinct, so the order is total.
        report.classes = classes.map { (rank: sessionRank[$0.key.session] ?? Int.max,
                                        tally: Report.OutcomeClass(session: $0.key.session, shown: $0.key.shown, runs: $0.value.runs,
                                                                   agreeing: $0.value.agreeing)) }
            .sorted { left, right in
                if left.rank != right.rank { return left.rank < right.rank }
                let a = left.tally, b = right.tally
                if a.session != b.session { return a.session < b.session }
                if a.runs != b.runs { return a.runs > b.runs }
                return a.shown.lexicographicallyPrecedes(b.shown)
            }
            .map(\.tally)
        report.outliers = outlierCounts.map { (rank: sessionRank[$0.key.session] ?? Int.max, device: deviceRank[$0.key.device] ?? Int.max,
                                               tally: Report.Outlier(session: $0.key.session, device: $0.key.device, runs: $0.value)) }
            .sorted { left, right in
                if left.rank != right.rank { return left.rank < right.rank }
                let a = left.tally, b = right.tally
                if a.session != b.session { return a.session < b.session }
                if a.runs != b.runs { return a.runs > b.runs }
                return (left.device, a.device) < (right.device, b.device)
            }
            .map(\.tally)
        report.cloudConflicts = cloudConflicts
        report.conflictRuns = conflictRuns
        report.mostConflicts = mostConflicts
        return report
    }
}
