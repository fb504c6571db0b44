import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// Factored exhaustive exploration (docs/exploration.md, "Factoring").
///
/// Once no step is left that a device takes part in, and the device waits for no cloud
/// answer, the built-in app on it acts on nothing it receives (M23): the order in which
/// its copies still in flight arrive changes what that device shows, and nothing that
/// any other device sees (M11). An app registered from Swift is judged by what it did:
/// the engine tells the recorder what the app sent, staged, asked of the store, wrote to
/// its storage or failed with on each arrival (`ScheduleEffect`), and a device whose app
/// did any of it on an arrival deferred here is enumerated instead (`OrderRecorder.acted`,
/// the report's `unfactored`). Each device's controller is its own instance and the
/// simulation decides time and randomness, so the rest holds for it as for the built-in
/// app, unless the controllers share state in the process (the `shared-state` pitfall).
/// So the orders of a run split into a dependent part (the
/// steps and every event a step could read, enumerated as `enumerated(limit:)` does) and,
/// per such device, its own arrival orders. Each device's local orders are simulated once
/// each; the number of whole orders is the product of the devices' counts, and every
/// check and pitfall is counted by combining the devices' outcome classes:
///
/// - a check of one device (`latest`, `summaries`, `callbacks`) and `complete` fail in an
///   order when some device's class fails them;
/// - `converged`, `diverged` and the `divergence` pitfall read whether every app device's
///   state is the same: the combination keeps, per session, the one state seen or "mixed"
///   (for `divergence`, without the devices that joined after the session began, M6);
/// - `lost-update`, `unattributed`, `double-count` and `joined-late` are found per device;
/// - outcome classes keep, per session, the set of things shown.
///
/// The combination runs device by device over the distinct combined states, weighted by
/// how many orders give each (a dynamic program); it refuses, and the explorer enumerates
/// instead, past `combinationLimit` states. Whatever can change with a device's local
/// order but is not read per device (a step failure, a sighting, the cloud) must be the
/// same in all of a dependent order's simulations, or the explorer enumerates instead:
/// factoring never gives a count that enumeration would not.
extension Explorer {
    /// The most distinct combined states the combination keeps before falling back.
    static let combinationLimit = 50_000

    /// Why a factored search stopped.
    enum FactoringStop: Error {
        /// The device's copies could not be counted apart in some order: search again
        /// without it, and without every device in `acted` (whose apps did something on an
        /// arrival there, said in words).
        case violated(device: Int, acted: [Int: String])
        /// Factoring cannot count this scenario exactly; enumerate, saying why.
        case cannot(String)
    }

    /// `exhaustive(limit:factor: true)`: the factored search, with the devices whose
    /// arrivals broke the condition enumerated instead, one search per such device.
    func factored(limit: Int, memory: Int = Explorer.defaultSearchMemory, on loop: Simulation,
                  progress: (@Sendable (SearchProgress) -> Void)? = nil) async throws(ExplorationError)
        -> Result<ExplorationReport, FactoringStop> {
        var excluded: Set<Int> = []
        var acted: [Int: String] = [:]
        while true {
            let factorable = scenario.devices.indices.map { !excluded.contains($0) }
            switch try await factoredSearch(limit: limit, memory: memory, factorable: factorable, on: loop, progress: progress) {
            case .success(var report):
                report.factoring?.unfactored = acted.keys.sorted().compactMap { acted[$0] }
                return .success(report)
            case .failure(.violated(let device, let more)):
                acted.merge(more) { first, _ in first }
                let before = excluded.count
                excluded.formUnion(more.keys)
                excluded.insert(device)
                guard excluded.count > before, excluded.count < scenario.devices.count else {
                    let why = acted.isEmpty ? "" : ": " + Self.actedSummary(acted)
                    return .failure(.cannot("no device's arrivals could be counted apart" + why))
                }
            case .failure(let stop): return .failure(stop)
            }
        }
    }

    /// One dependent order's simulation, with what the recorder saw.
    struct FactoredRun {
        var report: RunReport
        var explored: ExploredRun
        var decisions: [OrderRecorder.Decision]
        var fresh: [OrderKey]
        var sleeps: [[OrderRecorder.Option]]
        var stuckAt: Int?
        var local: [[OrderRecorder.LocalDecision]]
        var violation: Int?
        /// What the decisions would have held when they passed the memory budget (nil: they did not).
        var overBudget: Int?
        /// `OrderRecorder.acted`: devices whose apps acted on an arrival in the tail.
        var acted: [Int: String] = [:]
    }

    private func simulateFactored(prefix: [Int], guide: [UInt64] = [], sleep: [OrderRecorder.Option]? = nil, visited: Set<OrderKey> = [],
                                  factorable: [Bool], local: [[Int]], sessions: [String], memory: Int = .max, on loop: Simulation) async
        -> FactoredRun {
        let recorder = OrderRecorder(scenario: scenario, prefix: prefix, guide: guide, sleep: sleep, visited: visited,
                                     factorable: factorable, localPrefix: local, memory: memory)
        let simulated = await loop.simulate(seed: scenario.seed, controller: recorder)
        let outcome = simulated.outcome
        let ran = simulated.controller as? OrderRecorder
        let report = RunReport(outcome: outcome)
        let explored = ExploredRun(reference: .init(run: 0, seed: scenario.seed), report: report, sessions: sessions)
        return FactoredRun(report: report, explored: explored, decisions: ran?.decisions ?? [], fresh: ran?.fresh ?? [],
                           sleeps: ran?.sleeps ?? [],
                           stuckAt: ran?.stuckAt, local: ran?.local ?? [], violation: ran?.violation,
                           overBudget: ran.flatMap { $0.overBudget ? $0.recordedBytes : nil }, acted: ran?.acted ?? [:])
    }

    private func factoredSearch(limit: Int, memory: Int, factorable: [Bool], on loop: Simulation,
                                progress: (@Sendable (SearchProgress) -> Void)?) async throws(ExplorationError)
        -> Result<ExplorationReport, FactoringStop> {
        let seed = scenario.seed
        let sessions = ExploredRun.sessions(of: scenario)
        let keptRun = SearchMemory.keptRun(scenario)
        let root = OrderKey(for: scenario)
        // The dependent part is searched with every alternative: the race search does not
        // see the copies ordered in the tail, which race with the dependent events (a
        // registered controller's race of two replies 30 ms apart, generated seed 68 of
        // `ControllerFactoringOracleTests`, lost 2 of its 6 orders by races).
        var search = OrderSearch(root: root, everyAlternative: true, budget: memory)
        var budget = SearchBudget(scenario: scenario.name, limit: limit, memory: memory, progress: progress)
        var tally = ExplorationTally(checks: scenario.checks.count)
        var combiner = FactorCombiner(scenario: scenario)
        var dependentOrders = 0
        var largest = 1
        var counted: Set<Int> = []
        var interrupted = false
        // What the search holds besides the local orders of the dependent order in hand.
        func held() -> Int { search.heldBytes + tally.classCount * SearchMemory.outcomeClass + combiner.heldBytes }
        while let (branch, sleep) = search.next() {
            if Task.isCancelled || !budget.holds(held()) {
                interrupted = true
                break
            }
            try budget.spend(after: tally)
            let run = await simulateFactored(prefix: branch.prefix, guide: branch.guide, sleep: sleep, visited: search.visited,
                                             factorable: factorable, local: [], sessions: sessions, memory: memory, on: loop)
            if let held = run.overBudget {
                // One schedule's decisions alone passed the budget: stop before keeping them.
                _ = budget.holds(held)
                interrupted = true
                break
            }
            if let device = run.violation { return .failure(.violated(device: device, acted: run.acted)) }
            try budget.estimateOnce(run.decisions, entities: 2 * scenario.devices.count + 1, local: run.local)
            let isNew = search.record(run.decisions, sleeps: run.sleeps, fresh: run.fresh, stuckAt: run.stuckAt, of: branch)
            guard isNew else { continue }

            // Every local order of every device counted apart, for this dependent order.
            let prefix = run.decisions.map(\.chosen)
            var orders = scenario.devices.indices.map { device -> [LocalOrder] in
                run.local[device].isEmpty ? [] : [LocalOrder(run.local[device])]
            }
            var queues = scenario.devices.indices.map { Self.alternatives(run.local[$0], after: 0) }
            var runs = [run]
            var owner: [[Int]] = orders.map { $0.isEmpty ? [] : [0] }
            var queued = queues.joined().reduce(0) { $0 + SearchMemory.localPrefix($1) }
            while queues.contains(where: { !$0.isEmpty }) {
                // Past the budget, the local orders simulated so far are combined and counted.
                if Task.isCancelled || !budget.holds(held() + runs.count * keptRun + queued) { break }
                var plan: [[Int]] = Array(repeating: [], count: scenario.devices.count)
                var exploring: [Bool] = Array(repeating: false, count: scenario.devices.count)
                for device in queues.indices {
                    if let next = queues[device].popLast() {
                        queued -= SearchMemory.localPrefix(next)
                        plan[device] = next
                        exploring[device] = true
                    }
                }
                try budget.spend(after: tally)
                let local = await simulateFactored(prefix: prefix, factorable: factorable, local: plan, sessions: sessions, on: loop)
                if let device = local.violation { return .failure(.violated(device: device, acted: local.acted)) }
                runs.append(local)
                for device in queues.indices where exploring[device] {
                    orders[device].append(LocalOrder(local.local[device]))
                    owner[device].append(runs.count - 1)
                    let more = Self.alternatives(local.local[device], after: plan[device].count)
                    queued += more.reduce(0) { $0 + SearchMemory.localPrefix($1) }
                    queues[device] += more
                }
            }
            if Task.isCancelled {
                interrupted = true
                break
            }
            let schedule = run.decisions.compactMap { decision -> (text: String, isStep: Bool)? in
                guard decision.options.indices.contains(decision.chosen) else { return nil }
                return (decision.options[decision.chosen].text, decision.options[decision.chosen].isStep)
            }
            do throws(FactoringStop) {
                try combiner.add(runs: runs, orders: orders, owner: owner, schedule: schedule, into: &tally)
            } catch {
                return .failure(error)
            }
            for device in orders.indices where orders[device].count > 1 { counted.insert(device) }
            largest = max(largest, orders.map(\.count).max() ?? 1)
            dependentOrders += 1
            if budget.memoryStop != nil {
                interrupted = true
                break
            }
        }
        budget.finish(orders: dependentOrders, complete: !interrupted, tally: tally)
        var report = tally.report(Self.template(for: scenario, mode: .exhaustive(seed: seed, estimate: budget.estimate,
            simulated: budget.simulated)))
        report.interrupted = interrupted
        report.memoryStop = budget.memoryStop
        report.factoring = .init(devices: counted.sorted().map { scenario.devices[$0].name }, dependentOrders: dependentOrders,
                                 largestFactor: largest)
        return .success(report)
    }

    /// What the apps of the devices in `acted` did, for the `not factored:` line: the
    /// first device's, then how many more acted.
    static func actedSummary(_ acted: [Int: String]) -> String {
        ExplorationReport.Factoring.acted(acted.keys.sorted().compactMap { acted[$0] })
    }

    /// The local prefixes a device's tail leaves to explore: at each depth from `after`
    /// on, every option not taken, after the choices made before it.
    static func alternatives(_ decisions: [OrderRecorder.LocalDecision], after start: Int) -> [[Int]] {
        var result: [[Int]] = []
        let chosen = decisions.map(\.chosen)
        for depth in start..<max(start, decisions.count) {
            for option in decisions[depth].options.indices where option != decisions[depth].chosen {
                result.append(Array(chosen[..<depth]) + [option])
            }
        }
        // Popped from the end: reversed, so the shallowest are explored first.
        return result.reversed()
    }
}

/// One device's arrival order in the tail: the copies' texts, in order, and where each
/// stands among the steps (`OrderRecorder.LocalDecision`).
struct LocalOrder: Sendable {
    var texts: [String]
    var places: [(before: Int, after: Int)]

    init(_ decisions: [OrderRecorder.LocalDecision]) {
        let taken = decisions.filter { $0.options.indices.contains($0.chosen) }
        texts = taken.map { $0.options[$0.chosen] }
        places = taken.map { ($0.before, $0.after) }
    }
}
