import GroupSimScenario
import GroupSimSimulation

extension Explorer {
    /// Runs every distinct order of the scenario's events once (`groupsim explore
    /// --exhaustive`), with its own seed for everything else (identifiers, the app).
    ///
    /// What it varies: the copies, cloud requests and answers in flight arrive in every
    /// order among themselves, whatever their latencies; each step of a race runs at every
    /// point of its window relative to the race's other steps and to the events in flight;
    /// and an event whose possible arrival times (its link's latency to latency plus
    /// jitter after its cause) straddle a step runs on either side of it. What it holds
    /// fixed: the time of each step outside a race (such steps keep their time order), an
    /// event that certainly arrives before a step (whatever the draws) runs before it,
    /// and held copies reach a device that comes back online in send order (M30). So
    /// every order a random run can take is among those explored (`OrderRecorder` says
    /// exactly which events may run when). Each order is simulated from scratch with an
    /// `OrderRecorder` that replays a prefix of choices, then chooses events that lead
    /// somewhere new, and records what else could have run at each point. Orders that
    /// cannot change what any device shows are one order: events on different devices
    /// commute (M11), and so do requests that leave the cloud store as it is when no write
    /// separates them (M13), so an order is known by its `OrderKey`. For an app registered
    /// from Swift the search branches where two events race (`OrderSearch`: optimal
    /// partial-order reduction), which simulates one schedule per distinct order; where
    /// only copies are in flight and the app ignores what it receives, one device's copies
    /// are ordered at a time.
    /// The report's `runs` is the number of distinct orders (equivalence classes),
    /// `distinctOutcomes` the number of distinct things the devices ended up showing, and
    /// each failing order's `schedule` lists its events.
    ///
    /// - Parameter limit: refuse a search whose bound from its first run is larger: per
    ///   interval between steps and per device (and the store), the number of orders of
    ///   the events it saw there, keeping each chain of cloud requests or answers in order
    ///   (a multinomial); their product, which is then the estimate. A search by races (a
    ///   registered app) is not refused by that bound, which can be far too high, but
    ///   once it has found more than `limit` orders; its estimate is the orders it found.
    ///   The search stops after simulating `limit * 20` schedules.
    /// - Throws: `ExplorationError.tooManyOrders` (with the bound, or the orders found),
    ///   `.searchTooLong`, or `.invalidScenario` (`Scenario.validate`).
    /// - Complexity: one simulation per distinct order for a registered app; more for
    ///   the built-in app and a factored dependent part (they branch at every alternative).
    ///
    /// - Parameter factor: count the orders of devices that nothing can read any more
    ///   apart and combine them by counting (`Explorer+Factored.swift`), which is exact
    ///   and makes a 96-device group's orders countable; false enumerates every order
    ///   (the oracle the factored counts are tested against). Where factoring cannot
    ///   count a scenario exactly, it enumerates, and `report.factoring.fallback` says why.
    ///
    /// - Parameter memory: the most bytes the search may hold (`SearchMemory`: the keys of
    ///   the orders reached, the branches to simulate, the outcome classes, a factored
    ///   search's local orders); past it the search stops, as it does when cancelled, and
    ///   the report (`interrupted`, with `memoryStop`) counts the orders searched so far.
    public func exhaustive(limit: Int = Explorer.defaultExhaustiveLimit,
        factor: Bool = true, memory: Int = Explorer.defaultSearchMemory) async throws(ExplorationError) -> ExplorationReport {
        try await exhaustive(limit: limit, factor: factor, memory: memory, progress: nil)
    }

    /// `exhaustive(limit:factor:memory:)` with progress reports.
    /// - Parameter progress: called before each schedule is simulated and once when the
    ///   search ends, with the orders found, those that failed and the schedules simulated
    ///   (for a progress line; it does not change the report). Called from the searching task.
    package func exhaustive(limit: Int, factor: Bool, memory: Int, progress: (@Sendable (SearchProgress) -> Void)?)
        async throws(ExplorationError) -> ExplorationReport {
        // One simulation for the whole search: the tables are built (sticker files read)
        // once, and every order restarts one engine.
        let loop = Simulation(try validateScenario(), apps: apps, recordTrace: false)
        guard factor else { return try await enumerated(limit: limit, memory: memory, on: loop, progress: progress) }
        let reason: String
        do throws(ExplorationError) {
            switch try await factored(limit: limit, memory: memory, on: loop, progress: progress) {
            case .success(var report):
                report.search = .factored
                return report
            case .failure(.cannot(let why)): reason = why
            case .failure(.violated): reason = "no device's arrivals could be counted apart"
            }
        } catch .tooManyOrders(_, let estimate, _) where scenario.app.name != nil {
            // The factored search branches at every alternative and refuses by the first
            // run's estimate, which for a registered app can be far above its orders (every
            // fetch on arrival multiplies it): the search by races, which counts what it
            // finds, decides instead.
            reason = "the dependent part was estimated at \(ExplorationError.format(estimate)) orders, over the limit of \(limit), "
                + "and the app registered from Swift is searched by races instead"
        }
        var report = try await enumerated(limit: limit, memory: memory, on: loop, progress: progress)
        report.factoring = .init(devices: [], dependentOrders: report.runs.clampedInt, largestFactor: 1, fallback: reason)
        return report
    }

    /// Every distinct order, enumerated (`exhaustive(limit:factor: false)`).
    /// - Parameter everyAlternative: branch at every alternative instead of at races only
    ///   (`OrderSearch`): the reference the race search is tested against. Scenarios of
    ///   the built-in app always are.
    /// - Parameter schedules: stop after simulating this many schedules (`.searchTooLong`)
    ///   instead of `limit * 20` (tests that skip what takes long).
    /// - Parameter loop: what runs the orders (nil: a simulation of its own).
    /// - Parameter progress: as for `exhaustive(limit:factor:memory:progress:)`.
    func enumerated(limit: Int, everyAlternative: Bool = false, schedules: Int? = nil, memory: Int = Explorer.defaultSearchMemory,
                    on loop: Simulation? = nil, progress: (@Sendable (SearchProgress) -> Void)? = nil) async throws(ExplorationError)
        -> ExplorationReport {
        let loop = if let loop { loop } else { Simulation(try validateScenario(), apps: apps, recordTrace: false) }
        let seed = scenario.seed
        let sessions = ExploredRun.sessions(of: scenario)
        let root = OrderKey(for: scenario)
        // By races for an app registered from Swift (unless factored: `factored`); the built-in
        // app's scenarios are searched as their factored dependent parts are, so that both
        // ways pick the same order to stand for equivalent ones. A device that goes offline
        // and back gets what it held in send order (M30), so sends on different devices do
        // not commute there: the race search, which takes them to, is not used.
        var search = OrderSearch(root: root, everyAlternative: everyAlternative || scenario.app.name == nil
            || Self.switchesConnectivity(scenario), budget: memory)
        var budget = SearchBudget(scenario: scenario.name, limit: limit, counting: !search.everyAlternative, schedules: schedules,
                                  memory: memory, progress: progress)
        var tally = ExplorationTally(checks: scenario.checks.count)
        var orders = 0

        var interrupted = false
        while let (branch, sleep) = search.next() {
            // A cancelled search, or one that would pass its memory budget, stops between
            // orders with the orders found so far.
            if Task.isCancelled || !budget.holds(search.heldBytes + tally.classCount * SearchMemory.outcomeClass) {
                interrupted = true
                break
            }
            try budget.spend(after: tally)
            let run = await simulateOrder(prefix: branch.prefix, guide: branch.guide, sleep: sleep,
                                          visited: search.everyAlternative ? search.visited : [], memory: memory, on: loop)
            if let held = run.overBudget {
                // One schedule's decisions alone passed the budget: stop before keeping them.
                _ = budget.holds(held)
                interrupted = true
                break
            }
            try budget.estimateOnce(run.decisions, entities: 2 * scenario.devices.count + 1)
            let counted = search.record(run.decisions, sleeps: run.sleeps, fresh: run.fresh, stuckAt: run.stuckAt, of: branch)
            guard counted else { continue }
            var explored = ExploredRun(reference: .init(run: orders, seed: seed), report: RunReport(outcome: run.outcome),
                                       sessions: sessions)
            // Only a failing order's schedule is reported: spelled out for those alone.
            if explored.failed {
                explored.schedule = run.decisions.compactMap {
                    $0.options.indices.contains($0.chosen) ? $0.options[$0.chosen].text : nil
                }
            }
            tally.add(explored)
            orders += 1
            try budget.found(orders: orders)
        }
        budget.finish(orders: orders, complete: !interrupted, tally: tally)
        let template = Self.template(for: scenario, mode: .exhaustive(seed: seed, estimate: budget.estimate, simulated: budget.simulated))
        var report = tally.report(template)
        report.interrupted = interrupted
        report.memoryStop = budget.memoryStop
        report.search = search.everyAlternative ? .everyAlternative : .optimal
        // The sizes of the agreeing groups are counted for random runs only: factoring
        // counts classes without them, and both ways must print the same report.
        for index in report.classes.indices { report.classes[index].agreeing = nil }
        report.outliers = []
        return report
    }

    /// Whether a device of `scenario` goes offline or back online: then sends on different
    /// devices do not commute (M30), and the search by races is not used.
    static func switchesConnectivity(_ scenario: Scenario) -> Bool {
        scenario.steps.contains { if case .connectivity = $0.action.kind.built.independence { true } else { false } }
    }

    /// What an exhaustive search may spend: it stops after simulating 20 times `limit`
    /// schedules. Branching at every alternative, it refuses up front when the bound from
    /// its first run (`Explorer.estimate`) is over `limit`, and that bound is its
    /// estimate. By races (`counting`), that bound can be off by orders of magnitude (every
    /// fetch on arrival multiplies it: 100,800 for 606 orders of 2 phones racing a cloud
    /// controller, 5 x 10^13 with 3 phones), so it decides nothing: the search refuses once
    /// it has found more than `limit` orders, and one that ends gives the orders it found
    /// as its estimate (the bound stays the estimate of one interrupted).
    struct SearchBudget {
        let scenario: String
        let limit: Int
        private(set) var simulated = 0
        /// The estimate of orders to enumerate: the first run's bound, or the orders found
        /// by a search by races that ended.
        private(set) var estimate = 0
        private let counting: Bool
        /// The most schedules it may simulate.
        private let most: Int
        private let progress: (@Sendable (SearchProgress) -> Void)?
        /// The most bytes the search may hold (`SearchMemory`).
        let memory: Int
        /// Set when the search would have held more than `memory`.
        private(set) var memoryStop: ExplorationReport.MemoryStop?

        init(scenario: String, limit: Int, counting: Bool = false, schedules: Int? = nil,
             memory: Int = Explorer.defaultSearchMemory, progress: (@Sendable (SearchProgress) -> Void)? = nil) {
            self.scenario = scenario
            self.limit = limit
            self.counting = counting
            self.progress = progress
            most = schedules ?? max(limit, 1) &* 20
            self.memory = memory
        }

        /// Whether the search may go on holding `bytes`; when not, notes where it stopped.
        mutating func holds(_ bytes: Int) -> Bool {
            guard bytes > memory else { return true }
            memoryStop = ExplorationReport.MemoryStop(budget: memory, held: bytes)
            return false
        }

        /// Reports the progress so far (`tally`: the orders counted), then counts one more
        /// schedule, or throws `.searchTooLong` past the budget.
        mutating func spend(after tally: ExplorationTally) throws(ExplorationError) {
            report(tally, finished: false)
            simulated += 1
            guard simulated <= most else { throw .searchTooLong(scenario: scenario, simulated: simulated - 1, limit: most) }
        }

        /// After the first schedule: the bound from its decisions, the estimate; unless
        /// counting, `.tooManyOrders` when it is over `limit`.
        /// - Parameter local: factoring: each device's decisions among its own copies in
        ///   the tail, whose orders are simulated too (`Explorer.localOrders`).
        mutating func estimateOnce(_ decisions: [OrderRecorder.Decision], entities: Int,
                                   local: [[OrderRecorder.LocalDecision]] = []) throws(ExplorationError) {
            guard simulated == 1 else { return }
            let bound = Explorer.estimate(decisions, entities: entities) * Explorer.localOrders(local)
            // Int.max stands for any bound past it (printed "more than 9.223 × 10^18").
            estimate = bound < Double(Int.max) ? Int(bound) : Int.max
            guard !counting, bound > Double(limit) else { return }
            throw .tooManyOrders(scenario: scenario, estimate: bound, limit: limit)
        }

        /// Counting: `.tooManyOrders` once the orders found are over `limit`.
        func found(orders: Int) throws(ExplorationError) {
            guard counting, orders > limit else { return }
            throw .tooManyOrders(scenario: scenario, estimate: Double(orders), limit: limit)
        }

        /// The search ended (`complete`: not interrupted): counting, the orders it found
        /// are the estimate. Reports the last progress, finished when complete.
        mutating func finish(orders: Int, complete: Bool, tally: ExplorationTally) {
            if counting, complete { estimate = orders }
            report(tally, finished: complete)
        }

        private func report(_ tally: ExplorationTally, finished: Bool) {
            progress?(SearchProgress(orders: tally.runs, failedOrders: tally.failedRuns, schedules: simulated, finished: finished))
        }
    }

    /// One simulation under an `OrderRecorder`, on `loop`, which keeps no copy of the
    /// recorder (and its share of `visited`) once this returns, so the caller's set stays
    /// uniquely referenced and grows in place.
    /// - Parameter memory: the most bytes the run's decisions may hold; `overBudget` is what
    ///   they would have held when they passed it (nil: they did not).
    private func simulateOrder(prefix: [Int], guide: [UInt64], sleep: [OrderRecorder.Option]?, visited: Set<OrderKey>,
                               memory: Int, on loop: Simulation) async
        -> (outcome: RunOutcome, decisions: [OrderRecorder.Decision], sleeps: [[OrderRecorder.Option]], fresh: [OrderKey], stuckAt: Int?,
            overBudget: Int?) {
        let ran = await loop.simulate(seed: scenario.seed,
                                      controller: OrderRecorder(scenario: scenario, prefix: prefix, guide: guide, sleep: sleep, visited: visited,
                                                                memory: memory))
        let recorder = ran.controller as? OrderRecorder
        let over = recorder.flatMap { $0.overBudget ? $0.recordedBytes : nil }
        return (ran.outcome, recorder?.decisions ?? [], recorder?.sleeps ?? [], recorder?.fresh ?? [], recorder?.stuckAt, over)
    }

    /// The local orders a factored search simulates for each dependent order: every
    /// device's local orders are simulated together, one order of each device per
    /// simulation, so as many as the device with the most. A device's are estimated from
    /// its decisions in the first run as the product of how many copies could arrive at
    /// each: n! for n copies in flight at once (10 texts from one phone, 3,628,800).
    static func localOrders(_ local: [[OrderRecorder.LocalDecision]]) -> Double {
        local.map { $0.reduce(1.0) { $0 * Double(max(1, $1.options.count)) } }.max() ?? 1
    }

    /// The up-front estimate of distinct orders from the plain run's decisions: split the
    /// run at its steps; in each interval, each entity (device or store) sees k events,
    /// of which those of one chain keep their order (a device's cloud requests at the
    /// store; the store's answers at a device), so it contributes the multinomial
    /// k! / (c1! c2! ...) over its chains' lengths. The estimate is the product.
    static func estimate(_ decisions: [OrderRecorder.Decision], entities: Int) -> Double {
        var bound = 1.0
        var chains: [[String: Int]] = Array(repeating: [:], count: entities)
        func factorial(_ n: Int) -> Double { n < 2 ? 1 : (2...n).reduce(1.0) { $0 * Double($1) } }
        func close() {
            for entity in chains {
                let total = entity.values.reduce(0, +)
                bound *= entity.values.reduce(factorial(total)) { $0 / factorial($1) }
            }
            chains = Array(repeating: [:], count: entities)
        }
        for decision in decisions {
            guard decision.options.indices.contains(decision.chosen) else { continue }
            let option = decision.options[decision.chosen]
            if option.isStep {
                close()
                continue
            }
            for entity in option.entities where chains.indices.contains(entity) {
                chains[entity][option.chain, default: 0] += 1
            }
        }
        close()
        return bound
    }
}

