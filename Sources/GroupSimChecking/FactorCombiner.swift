import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// Counts the orders of one dependent order of a factored exhaustive exploration
/// (`Explorer+Factored.swift`): the product of its devices' local orders, and for every
/// check, pitfall and outcome class how many of those combinations give it, without
/// enumerating the combinations.
///
/// Each device's local order is reduced to an `Observation`: what the checks and
/// pitfalls read of that device alone. The combination folds the devices in one at a
/// time over `Fold` states (per check whether some device failed it, per session the
/// one state every app device shows or "mixed", per session the set of things shown),
/// each with the number of orders reaching it and the smallest assignment of local
/// orders that reaches it (a witness, so that a failing order can be written out).
struct FactorCombiner {
    typealias Shown = ExplorationReport.Shown
    typealias FactoringStop = Explorer.FactoringStop

    let scenario: Scenario
    /// Checks judged per device (`CheckDescriptor.judged`): failed in an order when some
    /// device's observation fails them, or no device's judges them.
    private let perDeviceChecks: [Int]
    /// Combinations tried, per dependent order, for more failing orders to list.
    static let sampleSearchLimit = 4_096
    /// The pitfall kinds judged per device on the final states.
    private static let perDeviceKinds = Scenario.PitfallKind.allCases.filter { $0.descriptor.judged == .perDevice }
    /// Per session, the distinct things shown so far (ids per session, for class bitsets).
    private var shownIDs: [String: [Shown: Int]] = [:]
    private var shownTables: [String: [Shown]] = [:]
    /// Failing orders written out so far, numbered in the order written.
    private var samples = 0
    private var firstWritten: Set<Int> = []
    private var unexpectedWritten: Set<ExploredRun.StepFailureKey> = []

    /// What it keeps between dependent orders, in bytes (`SearchMemory`): the things shown.
    var heldBytes: Int { shownTables.values.reduce(0) { $0 + $1.count } * SearchMemory.outcomeClass }

    init(scenario: Scenario) {
        self.scenario = scenario
        perDeviceChecks = scenario.checks.indices.filter { scenario.checks[$0].check.kind.descriptor.judged == .perDevice }
    }

    /// What the checks and pitfalls read of one device in one local order.
    struct Observation: Hashable {
        /// Per-device checks this device fails, as a bitset over `perDeviceChecks`' positions.
        var failed: [UInt64]
        /// Per-device checks this device is judged by, as a bitset like `failed`.
        var judged: [UInt64]
        /// The per-device pitfall kinds found on this device, a bit per `perDeviceKinds` entry.
        var flags: UInt64
        /// Per state session: the id of the raw state it shows, -1 when not an app device of it.
        var values: [Int32]
        /// Per state session, as bits: whether the device's state of it could be read.
        var readable: [UInt64]
        /// Per state session, as bits: whether the device joined after the session began
        /// and shows no bubble of it (M6): `divergence` leaves it out.
        var late: [UInt64]
        /// Per report session: the id of what it shows, -1 when it has no row for it.
        var shown: [Int32]
    }

    /// The combination so far.
    struct Fold: Hashable {
        var failed: [UInt64]
        var judged: [UInt64]
        var flags: UInt64
        /// Per state session: -1 no app device yet, -2 mixed, else the one state's id.
        var values: [Int32]
        /// Per state session, as bits: whether some device's state of it could be read.
        var readable: [UInt64]
        /// `values` without the devices that joined after the session began (M6): what
        /// `divergence` reads, while `converged` and `diverged` read `values`.
        var agreed: [Int32]
        /// Per report session: the ids of the things shown, as bits.
        var seen: [UInt64]

        func adding(_ observation: Observation) -> Fold {
            var next = self
            for index in next.failed.indices {
                next.failed[index] |= observation.failed[index]
                next.judged[index] |= observation.judged[index]
            }
            next.flags |= observation.flags
            for index in next.readable.indices { next.readable[index] |= observation.readable[index] }
            for index in next.values.indices {
                let value = observation.values[index]
                guard value >= 0 else { continue }
                next.values[index] = next.values[index] == -1 ? value : (next.values[index] == value ? value : -2)
                guard observation.late[index / 64] & (1 << UInt64(index % 64)) == 0 else { continue }
                next.agreed[index] = next.agreed[index] == -1 ? value : (next.agreed[index] == value ? value : -2)
            }
            for index in next.seen.indices where observation.shown[index] >= 0 {
                next.seen[index] |= 1 << UInt64(observation.shown[index])
            }
            return next
        }
    }

    /// Adds one dependent order's counts to `tally`.
    ///
    /// - Parameters:
    ///   - runs: its simulations; `owner[d][j]` is the one in which device `d` took its
    ///     local order `j` (`orders[d][j]`).
    ///   - schedule: the dependent part of the order, event by event.
    /// - Throws: `.cannot` when something not read per device changed with a local order,
    ///   or the combination grew past `Explorer.combinationLimit`.
    mutating func add(runs: [Explorer.FactoredRun], orders: [[LocalOrder]], owner: [[Int]], schedule: [(text: String, isStep: Bool)],
                      into tally: inout ExplorationTally) throws(FactoringStop) {
        guard let first = runs.first else { return }
        let devices = scenario.devices
        let states = first.report.states
        // The sessions whose app devices' states the checks and `divergence` compare.
        var stateSessions = states.sessions
        for spec in scenario.checks {
            // The sessions a check compares across devices are the ones its verdict asks about.
            _ = CheckEvaluator.verdict(spec.check, agreement: { session in
                if !stateSessions.contains(session) { stateSessions.append(session) }
                return (false, false)
            }, kinds: [], onRun: true)
        }
        let divergenceSessions = Set(states.sessions)
        let appDevices = stateSessions.map { Set(states.appDevices(for: $0).map(\.name)) }
        var reportSessions: [String] = []
        var reportIndex: [String: Int] = [:]
        for run in runs {
            for row in run.explored.shown where reportIndex[row.slot.session] == nil {
                reportIndex[row.slot.session] = reportSessions.count
                reportSessions.append(row.slot.session)
            }
        }
        var rawIDs: [SessionStates.Reading: Int32] = [:]
        let words = (perDeviceChecks.count + 63) / 64

        // Rows and snapshots by device name, per run, built once.
        let rowsByDevice: [[String: [(session: String, shown: Shown)]]] = runs.map { run in
            var rows: [String: [(session: String, shown: Shown)]] = [:]
            for row in run.explored.shown { rows[row.slot.device, default: []].append((row.slot.session, row.shown)) }
            return rows
        }
        let flaggedByRun: [[String: UInt64]] = runs.map { run in
            var flagged: [String: UInt64] = [:]
            for pitfall in run.report.pitfalls {
                guard let bit = Self.perDeviceKinds.firstIndex(of: pitfall.kind) else { continue }
                for device in pitfall.devices { flagged[device, default: 0] |= 1 << UInt64(bit) }
            }
            return flagged
        }

        func observe(_ device: Int, in index: Int) -> Observation {
            let run = runs[index]
            let name = devices[device].name
            var failed = [UInt64](repeating: 0, count: words)
            var judged = failed
            let snapshot = run.report.outcome.devices.indices.contains(device) ? run.report.outcome.devices[device] : nil
            for (position, check) in perDeviceChecks.enumerated() {
                guard let snapshot,
                      let fails = CheckEvaluator.fails(scenario.checks[check].check, on: snapshot, run.report.outcome, run.report.states)
                else { continue }
                judged[position / 64] |= 1 << UInt64(position % 64)
                if fails { failed[position / 64] |= 1 << UInt64(position % 64) }
            }
            var values = [Int32](repeating: -1, count: stateSessions.count)
            var readable = [UInt64](repeating: 0, count: (stateSessions.count + 63) / 64)
            var late = readable
            if let snapshot {
                for (position, session) in stateSessions.enumerated() where appDevices[position].contains(name) {
                    let state = SessionStates.Reading(run.report.states.shown(session, on: snapshot))
                    if state.isState { readable[position / 64] |= 1 << UInt64(position % 64) }
                    if state == .noBubble, run.report.states.joinedAfterStart(session, device: device) {
                        late[position / 64] |= 1 << UInt64(position % 64)
                    }
                    if let id = rawIDs[state] {
                        values[position] = id
                    } else {
                        values[position] = Int32(rawIDs.count)
                        rawIDs[state] = Int32(rawIDs.count)
                    }
                }
            }
            var shown = [Int32](repeating: -1, count: reportSessions.count)
            for row in rowsByDevice[index][name] ?? [] {
                guard let position = reportIndex[row.session] else { continue }
                shown[position] = Int32(intern(row.shown, in: row.session))
            }
            return Observation(failed: failed, judged: judged, flags: flaggedByRun[index][name] ?? 0, values: values, readable: readable, late: late,
                               shown: shown)
        }

        // What must not change with a local order: it is read from the first run.
        let factored = devices.indices.filter { orders[$0].count > 1 }
        let isFactored = Set(factored)
        let fixed = devices.indices.filter { !isFactored.contains($0) }
        let reference = Constant(first, fixed: fixed.map { observe($0, in: 0) }, scenario: scenario)
        for index in runs.indices.dropFirst() {
            let constant = Constant(runs[index], fixed: fixed.map { observe($0, in: index) }, scenario: scenario)
            guard constant == reference else {
                throw .cannot("\(constant.difference(from: reference)) changed with the order in which a device received its copies")
            }
        }

        // The combination.
        var start = Fold(failed: [UInt64](repeating: 0, count: words), judged: [UInt64](repeating: 0, count: words), flags: 0,
                         values: [Int32](repeating: -1, count: stateSessions.count),
                         readable: [UInt64](repeating: 0, count: (stateSessions.count + 63) / 64),
                         agreed: [Int32](repeating: -1, count: stateSessions.count),
                         seen: [UInt64](repeating: 0, count: reportSessions.count))
        for observation in reference.fixed { start = start.adding(observation) }
        var folds: [Fold: (count: ExactCount, witness: [Int32])] = [start: (.one, [])]
        var observed: [[Observation]] = []
        for device in factored {
            // Local orders with the same observation are one class, counted.
            var classes: [Observation: (count: Int, first: Int)] = [:]
            var classOrder: [Observation] = []
            observed.append(owner[device].map { observe(device, in: $0) })
            for (order, observation) in (observed.last ?? []).enumerated() {
                if let known = classes[observation] {
                    classes[observation] = (known.count + 1, known.first)
                } else {
                    classes[observation] = (1, order)
                    classOrder.append(observation)
                }
            }
            var next: [Fold: (count: ExactCount, witness: [Int32])] = [:]
            for (fold, entry) in folds {
                for observation in classOrder {
                    guard let local = classes[observation] else { continue }
                    let reached = fold.adding(observation)
                    let witness = entry.witness + [Int32(local.first)]
                    let count = entry.count * ExactCount(local.count)
                    if let known = next[reached] {
                        next[reached] = (known.count + count, Self.smaller(known.witness, witness))
                    } else {
                        next[reached] = (count, witness)
                    }
                }
            }
            guard next.count <= Explorer.combinationLimit else {
                throw .cannot("the devices' outcome classes combine into more than \(Explorer.combinationLimit) distinct states")
            }
            folds = next
        }
        if reportSessions.contains(where: { (shownTables[$0]?.count ?? 0) > 64 }) {
            throw .cannot("a session's devices showed more than 64 distinct things")
        }

        // Every order of this dependent order.
        var total = ExactCount.one
        for device in factored { total *= ExactCount(orders[device].count) }
        var failedOrders = ExactCount.zero
        let seed = scenario.seed
        let finals = folds.sorted { $0.value.witness.lexicographicallyPrecedes($1.value.witness) }
        let lostUpdateRule: Rule = scenario.app.state == .message ? "M12" : "M13"
        let rule = { (kind: Scenario.PitfallKind) -> Rule in kind == .lostUpdate ? lostUpdateRule : kind.rule }
        var ruleSeen: [Scenario.PitfallKind: Rule] = [:]
        for run in runs {
            for pitfall in run.report.pitfalls where ruleSeen[pitfall.kind].map({ pitfall.rule < $0 }) ?? true {
                ruleSeen[pitfall.kind] = pitfall.rule
            }
        }
        // The checks an order fails and the pitfall kinds it reports, from its fold.
        func verdict(_ fold: Fold) -> (failedChecks: [Int], kinds: Set<Scenario.PitfallKind>) {
            var kinds = reference.sighted
            for (bit, kind) in Self.perDeviceKinds.enumerated() where fold.flags & (1 << UInt64(bit)) != 0 { kinds.insert(kind) }
            for (position, session) in stateSessions.enumerated()
            where divergenceSessions.contains(session) && fold.agreed[position] == -2 {
                kinds.insert(.divergence)
            }
            var failedChecks: [Int] = []
            for (index, spec) in scenario.checks.enumerated() {
                let passed: Bool
                if let position = perDeviceChecks.firstIndex(of: index) {
                    // Some device judged it (`complete` with no app device holds on nothing) and none failed it.
                    let bit: UInt64 = 1 << UInt64(position % 64)
                    passed = fold.judged[position / 64] & bit != 0 && fold.failed[position / 64] & bit == 0
                } else {
                    passed = CheckEvaluator.verdict(spec.check, agreement: { session in
                        let position = stateSessions.firstIndex(of: session) ?? 0
                        return (fold.readable[position / 64] & (1 << UInt64(position % 64)) != 0, fold.values[position] != -2)
                    }, kinds: kinds, onRun: reference.runVerdicts[index] ?? true) ?? true
                }
                if !passed { failedChecks.append(index) }
            }
            return (failedChecks, kinds)
        }
        // Writes out the order a witness stands for, as a failing order to list.
        var writtenHere: Set<[Int32]> = []
        func write(_ witness: [Int32], failedChecks: [Int]) {
            guard writtenHere.insert(witness).inserted else { return }
            let number = samples
            samples += 1
            var tails: [LocalOrder] = []
            var chosen = witness.makeIterator()
            for device in devices.indices where !orders[device].isEmpty {
                let order = isFactored.contains(device) ? Int(chosen.next() ?? 0) : 0
                if orders[device].indices.contains(order) { tails.append(orders[device][order]) }
            }
            let written = Self.assemble(schedule, tails)
            let sample = ExplorationReport.RunReference(run: number, seed: seed)
            tally.addSample(.init(reference: sample, failedChecks: failedChecks,
                                  unexpected: reference.unexpected.map(\.unexpectedText), schedule: written))
            for check in failedChecks where firstWritten.insert(check).inserted {
                tally.addCheckFailures(check, .zero, first: sample)
            }
            for key in reference.unexpected where unexpectedWritten.insert(key).inserted {
                tally.addUnexpected(key, .zero, first: sample, line: first.explored.unexpectedLines[key])
            }
        }
        for (fold, entry) in finals {
            let (failedChecks, kinds) = verdict(fold)
            let fails = !failedChecks.isEmpty || !reference.unexpected.isEmpty
            if fails {
                failedOrders += entry.count
                let needed = failedChecks.contains { !firstWritten.contains($0) }
                    || reference.unexpected.contains { !unexpectedWritten.contains($0) }
                if samples < ExplorationReport.failureSampleLimit || needed { write(entry.witness, failedChecks: failedChecks) }
                for check in failedChecks { tally.addCheckFailures(check, entry.count, first: nil) }
                for key in reference.unexpected {
                    tally.addUnexpected(key, entry.count, first: nil, line: first.explored.unexpectedLines[key])
                }
            }
            for kind in kinds.sorted() { tally.addPitfall(kind, rule: ruleSeen[kind] ?? rule(kind), entry.count) }
            for (position, session) in reportSessions.enumerated() {
                let table = shownTables[session] ?? []
                let shown = table.indices.filter { fold.seen[position] & (1 << UInt64($0)) != 0 }.map { table[$0] }.sorted()
                tally.addClass(session: session, shown: shown, entry.count)
            }
        }
        // More failing orders to list, up to the sample limit: the first combinations in
        // order (each device's local orders as digits, the first device most significant),
        // a bounded number of them.
        if samples < ExplorationReport.failureSampleLimit, ExactCount(writtenHere.count) < failedOrders {
            var digits = [Int](repeating: 0, count: factored.count)
            for _ in 0..<Self.sampleSearchLimit {
                var fold = start
                for (position, digit) in digits.enumerated() { fold = fold.adding(observed[position][digit]) }
                let failedChecks = verdict(fold).failedChecks
                if !failedChecks.isEmpty || !reference.unexpected.isEmpty { write(digits.map { Int32($0) }, failedChecks: failedChecks) }
                if samples >= ExplorationReport.failureSampleLimit { break }
                // The next combination, the last device fastest.
                var position = digits.count - 1
                while position >= 0 {
                    digits[position] += 1
                    if digits[position] < observed[position].count { break }
                    digits[position] = 0
                    position -= 1
                }
                if position < 0 { break }
            }
        }
        tally.addOrders(total, failed: failedOrders, stopped: !reference.quiet)
        for key in reference.stepFailures { tally.addStepFailure(key, total) }
        tally.addConflicts(reference.conflicts, orders: total)
        // Each device's rows: its local order's view, times the orders of the others.
        for device in devices.indices {
            let name = devices[device].name
            guard isFactored.contains(device) else {
                for row in rowsByDevice[0][name] ?? [] { tally.addShown(.init(device: name, session: row.session), row.shown, total) }
                continue
            }
            var others = ExactCount.one
            for other in factored where other != device { others *= ExactCount(orders[other].count) }
            for run in owner[device] {
                for row in rowsByDevice[run][name] ?? [] { tally.addShown(.init(device: name, session: row.session), row.shown, others) }
            }
        }
    }

    /// The id of `shown` among the things `session`'s devices showed.
    private mutating func intern(_ shown: Shown, in session: String) -> Int {
        if let id = shownIDs[session]?[shown] { return id }
        let id = shownTables[session]?.count ?? 0
        shownIDs[session, default: [:]][shown] = id
        shownTables[session, default: []].append(shown)
        return min(id, 63)
    }

    private static func smaller(_ a: [Int32], _ b: [Int32]) -> [Int32] { b.lexicographicallyPrecedes(a) ? b : a }

    /// One whole order, event by event, that random runs and `Explorer.replay` can take:
    /// the dependent part, with each device's tail copies put back just before the first
    /// step they had to precede or at the end, each as early as the steps it came after
    /// allow, devices in the scenario's order, each device's copies in its local order.
    static func assemble(_ dependent: [(text: String, isStep: Bool)], _ tails: [LocalOrder]) -> [String] {
        var bySlot: [Int: [String]] = [:]
        for tail in tails {
            var slot = 0
            for (text, place) in zip(tail.texts, tail.places) {
                slot = max(slot, place.after + 1)
                bySlot[slot, default: []].append(text)
            }
        }
        var result: [String] = []
        var steps = 0
        for event in dependent {
            if event.isStep {
                result += bySlot.removeValue(forKey: steps) ?? []
                steps += 1
            }
            result.append(event.text)
        }
        for slot in bySlot.keys.sorted() { result += bySlot[slot] ?? [] }
        return result
    }

    /// What one simulation of a dependent order must share with every other: whatever a
    /// device's arrival order might change that is not read per device.
    struct Constant: Equatable {
        var stepFailures: [ExploredRun.StepFailureKey]
        var unexpected: [ExploredRun.StepFailureKey]
        var quiet: Bool
        var conflicts: Int
        /// Pitfall kinds seen while the app read something (and `divergence` is judged
        /// from the values; per-device kinds from the observations).
        var sighted: Set<Scenario.PitfallKind>
        /// The verdicts of the checks judged on the run (`error:`), by check index.
        var runVerdicts: [Int: Bool]
        /// The observations of the devices not counted apart, in device order.
        var fixed: [Observation]

        init(_ run: Explorer.FactoredRun, fixed: [Observation], scenario: Scenario) {
            stepFailures = run.explored.stepFailures
            unexpected = run.explored.unexpected
            quiet = run.explored.quiet
            conflicts = run.explored.cloudConflicts
            sighted = Set(run.report.pitfalls.map(\.kind).filter { $0.descriptor.judged == .perRun })
            var verdicts: [Int: Bool] = [:]
            for (index, spec) in scenario.checks.enumerated() where spec.check.kind.descriptor.judged == .perRun {
                verdicts[index] = run.report.checks.indices.contains(index) && run.report.checks[index].passed
            }
            runVerdicts = verdicts
            self.fixed = fixed
        }

        /// What differs, in words.
        func difference(from other: Constant) -> String {
            if stepFailures != other.stepFailures || unexpected != other.unexpected || runVerdicts != other.runVerdicts {
                return "a step failure"
            }
            if quiet != other.quiet { return "whether the run went quiet" }
            if conflicts != other.conflicts { return "the cloud store's refused writes" }
            if sighted != other.sighted { return "a pitfall seen while the app read something" }
            return "what a device that receives nothing more shows"
        }
    }
}
