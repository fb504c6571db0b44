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
    /// exactly which events may run when). Each order is simulated from scratch with an `OrderRecorder` that
    /// replays a prefix of choices, then keeps choosing events that lead somewhere new,
    /// and records what else could have run at each point. Orders that cannot change what
    /// any device shows are pruned: events on different devices commute (M11), so a
    /// prefix is known by the per-device (and cloud store) sequences of the events it
    /// ran, and a branch whose sequences were already reached is skipped; where only
    /// copies are in flight and the app ignores what it receives, one device's copies
    /// are ordered at a time. The report's `runs` is the number of distinct orders
    /// (equivalence classes), `distinctOutcomes` the number of distinct things the
    /// devices ended up showing, and each failing order's `schedule` lists its events.
    ///
    /// - Parameter limit: refuse when the up-front estimate of distinct orders is larger.
    ///   The estimate comes from the plain run: per interval between steps and per device
    ///   (and the store), the number of orders of the events it saw there, keeping each
    ///   chain of cloud requests or answers in order (a multinomial); their product. It
    ///   leaves out the orders of a race's steps among the events in flight, which the
    ///   search still explores; the search stops after simulating `limit * 20` schedules.
    /// - Throws: `ExplorationError.tooManyOrders` (with the estimate), `.searchTooLong`, or
    ///   `.invalidScenario` (`Scenario.validate`).
    /// - Complexity: one simulation per distinct order when only copies are in flight;
    ///   more with cloud traffic (orders that turn out to repeat explored ones).
    ///
    /// - Parameter factor: count the orders of devices that nothing can read any more
    ///   apart and combine them by counting (`Explorer+Factored.swift`), which is exact
    ///   and makes a 96-device group's orders countable; false enumerates every order
    ///   (the oracle the factored counts are tested against). Where factoring cannot
    ///   count a scenario exactly, it enumerates, and `report.factoring.fallback` says why.
    public func exhaustive(limit: Int = Explorer.defaultExhaustiveLimit,
        factor: Bool = true) async throws(ExplorationError) -> ExplorationReport {
        try validateScenario()
        guard factor else { return try await enumerated(limit: limit) }
        let reason: String
        if let app = scenario.app.name {
            reason = "the app \"\(app)\" is registered from Swift, and may act on what it receives"
        } else {
            switch try await factored(limit: limit) {
            case .success(let report): return report
            case .failure(.cannot(let why)): reason = why
            case .failure(.violated): reason = "no device's arrivals could be counted apart"
            }
        }
        var report = try await enumerated(limit: limit)
        report.factoring = .init(devices: [], dependentOrders: report.runs.clampedInt, largestFactor: 1, fallback: reason)
        return report
    }

    /// Every distinct order, enumerated (`exhaustive(limit:factor: false)`).
    func enumerated(limit: Int) async throws(ExplorationError) -> ExplorationReport {
        let seed = scenario.seed
        let sessions = ExploredRun.sessions(of: scenario)
        var budget = SearchBudget(scenario: scenario.name, limit: limit)
        let root = OrderKey(for: scenario)
        var visited: Set<OrderKey> = [root]
        // Branches still to explore: a prefix of choices and the key it leads to. A branch
        // whose key was reached meanwhile (by another path) is skipped unsimulated.
        var pending: [(prefix: [Int], key: OrderKey)] = [([], root)]
        var tally = ExplorationTally(checks: scenario.checks.count)
        var orders = 0

        var interrupted = false
        while let branch = pending.popLast() {
            // A cancelled search stops between orders with the orders found so far.
            if Task.isCancelled {
                interrupted = true
                break
            }
            if !branch.prefix.isEmpty {
                guard visited.insert(branch.key).inserted else { continue }
            }
            try budget.spend()
            let run = await simulateOrder(prefix: branch.prefix, visited: visited)
            try budget.estimateOnce(run.decisions, entities: 2 * scenario.devices.count + 1)
            visited.formUnion(run.fresh)

            pending += Self.branches(run.decisions, stuckAt: run.stuckAt, after: branch.prefix.count, root: root, visited: visited)
            guard run.stuckAt == nil else { continue }
            let schedule = run.decisions.compactMap { $0.options.indices.contains($0.chosen) ? $0.options[$0.chosen].text : nil }
            tally.add(ExploredRun(reference: .init(run: orders, seed: seed), report: RunReport(outcome: run.outcome),
                                  sessions: sessions, schedule: schedule))
            orders += 1
        }
        let template = Self.template(for: scenario, mode: .exhaustive(seed: seed, estimate: budget.estimate, simulated: budget.simulated))
        var report = tally.report(template)
        report.interrupted = interrupted
        // The sizes of the agreeing groups are counted for random runs only: factoring
        // counts classes without them, and both ways must print the same report.
        for index in report.classes.indices { report.classes[index].agreeing = nil }
        report.outliers = []
        return report
    }

    /// What an exhaustive search may spend: it stops after simulating 20 times `limit`
    /// schedules, and refuses up front when the first run's estimate is over `limit`.
    struct SearchBudget {
        let scenario: String
        let limit: Int
        private(set) var simulated = 0
        /// The up-front estimate of orders to enumerate (`Explorer.estimate`).
        private(set) var estimate = 0

        init(scenario: String, limit: Int) {
            self.scenario = scenario
            self.limit = limit
        }

        /// Counts one more schedule, or throws `.searchTooLong` past the budget.
        mutating func spend() throws(ExplorationError) {
            let most = max(limit, 1) &* 20
            simulated += 1
            guard simulated <= most else { throw .searchTooLong(scenario: scenario, simulated: simulated - 1, limit: most) }
        }

        /// After the first schedule: the estimate from its decisions, or `.tooManyOrders`.
        mutating func estimateOnce(_ decisions: [OrderRecorder.Decision], entities: Int) throws(ExplorationError) {
            guard simulated == 1 else { return }
            let bound = Explorer.estimate(decisions, entities: entities)
            guard bound <= Double(limit) else { throw .tooManyOrders(scenario: scenario, estimate: bound, limit: limit) }
            estimate = Int(bound)
        }
    }

    /// The branches a run leaves to explore, in the order to push them: every
    /// alternative past the replayed prefix (`after` decisions) whose key was not reached,
    /// so that the shallowest are explored next, each depth's in option order.
    static func branches(_ decisions: [OrderRecorder.Decision], stuckAt: Int?, after replayed: Int, root: OrderKey,
                         visited: Set<OrderKey>) -> [(prefix: [Int], key: OrderKey)] {
        var key = root
        var branches: [(prefix: [Int], key: OrderKey)] = []
        for (depth, decision) in decisions.prefix(stuckAt ?? decisions.count).enumerated() {
            guard decision.options.indices.contains(decision.chosen) else { break }
            if depth >= replayed {
                for (index, option) in decision.options.enumerated() where index != decision.chosen {
                    let next = key.extended(with: option)
                    if !visited.contains(next) { branches.append((decisions[..<depth].map(\.chosen) + [index], next)) }
                }
            }
            key = key.extended(with: decision.options[decision.chosen])
        }
        return branches.reversed()
    }

    /// One simulation under an `OrderRecorder`. The simulation (and the recorder's share
    /// of `visited`) is gone when this returns, so the caller's set stays uniquely
    /// referenced and grows in place.
    private func simulateOrder(prefix: [Int], visited: Set<OrderKey>) async
        -> (outcome: RunOutcome, decisions: [OrderRecorder.Decision], fresh: [OrderKey], stuckAt: Int?) {
        let simulation = Simulation(scenario: scenario, seed: scenario.seed, apps: apps, recordTrace: false,
                                    controller: OrderRecorder(scenario: scenario, prefix: prefix, visited: visited), validated: true)
        // Validated before the first order, so a run cannot be refused.
        let outcome = (try? await simulation.run()) ?? RunOutcome.empty(scenario)
        let recorder = await simulation.scheduleController as? OrderRecorder
        return (outcome, recorder?.decisions ?? [], recorder?.fresh ?? [], recorder?.stuckAt)
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
