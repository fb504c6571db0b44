import GroupSim
import GroupSimBench
import GroupSimMessages

/// `groupsim bench --scale`'s vote in a full group: the exhaustive verdict over every
/// order (factored) and random exploration's runs per second, on one core.
extension BenchCommand {
    /// The vote's lines: `quick` uses 8 people instead of 32.
    func voteLines(quick: Bool, thresholds: BenchThresholds) async throws -> [String] {
        let people = quick ? 8 : 32
        let scenario = BenchWorkload.groupVote(people: people)
        let explorer = try BenchWorkload.explorer(for: scenario, apps: apps)
        var report: ExplorationReport?
        let exhaustive = try await BenchMeasurement.measure(repeats: 1) { () async throws(ExplorationError) -> Int in
            let found = try await explorer.exhaustive()
            report = found
            return 1
        }
        let runs = quick ? 200 : 2_000
        let random = try await BenchMeasurement.measure(repeats: 1) { () async throws(ExplorationError) -> Int in
            try await explorer.explore(runs: runs, seed: 1).runs.clampedInt
        }
        let orders = report?.runs.readable ?? "?"
        let failing = report.map { $0.checks.map { "\($0.failedRuns.readable)" }.joined(separator: " and ") } ?? "?"
        let rate = random.seconds > 0 ? Double(runs) / random.seconds : 0
        let factored = report?.factoring.map { "\($0.dependentOrders) dependent order(s)" } ?? "not factored"
        // The same vote with a registered controller in place of the built-in app.
        var custom = scenario
        custom.app.name = StoreVoteController.name
        var registered = apps
        registered.register(StoreVoteController.name) { StoreVoteController() }
        let controllerExplorer = try BenchWorkload.explorer(for: custom, apps: registered)
        let controller = try await BenchMeasurement.measure(repeats: 1) { () async throws(ExplorationError) -> Int in
            try await controllerExplorer.explore(runs: runs, seed: 1).runs.clampedInt
        }
        let cpuRate = random.cpuSeconds > 0 ? Double(runs) / random.cpuSeconds : 0
        let controllerCPURate = controller.cpuSeconds > 0 ? controller.work / controller.cpuSeconds : 0
        return try await [
            "vote: \(people) people x 3 devices, 5 votes within 5 ms: exhaustive \(orders) orders (failing the checks: \(failing))"
                + " in \(Self.seconds(exhaustive.seconds)) (\(thresholds.verdict("vote-exhaustive-seconds", exhaustive.seconds) ?? "no target")), \(factored);"
                + " on CPU time \(Self.seconds(exhaustive.cpuSeconds))",
            "vote: random exploration \(Self.count(rate)) runs/s (\(runs) runs in \(Self.seconds(random.seconds)); \(thresholds.verdict("vote-random-runs", rate) ?? "no target"));"
                + " on CPU time \(Self.count(cpuRate)) runs/s",
            "vote: random exploration with a registered controller (\(StoreVoteController.name): async store, UserDefaults)"
                + " \(Self.count(controller.rate)) runs/s (\(Self.count(controller.work)) runs in \(Self.seconds(controller.seconds)));"
                + " on CPU time \(Self.count(controllerCPURate)) runs/s,"
                + " \(thresholds.text("vote-controller-over-vote", Self.ratio(controllerCPURate, cpuRate))) of the built-in app's",
            controllerVoteLine(scenario, thresholds: thresholds),
        ]
    }

    /// The same vote run by a registered controller that reads only on tap (the built-in
    /// app's `message` mode written against the Messages API, `URLPollController`): its
    /// arrival orders are factored as the built-in app's are, so the counts are the same.
    func controllerVoteLine(_ scenario: Scenario, thresholds: BenchThresholds) async throws -> String {
        var controlled = scenario
        controlled.app.name = URLPollController.name
        var registered = apps
        registered.register(URLPollController.name) { URLPollController() }
        let explorer = try BenchWorkload.explorer(for: controlled, apps: registered)
        var report: ExplorationReport?
        let measured = try await BenchMeasurement.measure(repeats: 1) { () async throws(ExplorationError) -> Int in
            report = try await explorer.exhaustive()
            return 1
        }
        let orders = report?.runs.readable ?? "?"
        let failing = report.map { $0.checks.map { "\($0.failedRuns.readable)" }.joined(separator: " and ") } ?? "?"
        let factoring = report?.factoring.map { $0.fallback == nil ? "\($0.dependentOrders) dependent order(s)" : "not factored" }
            ?? "not factored"
        return "vote with a registered controller (\(URLPollController.name), reads on tap): exhaustive \(orders) orders"
            + " (failing the checks: \(failing)) in \(Self.seconds(measured.seconds))"
            + " (\(thresholds.verdict("vote-controller-exhaustive-seconds", measured.seconds) ?? "no target")), \(factoring);"
            + " on CPU time \(Self.seconds(measured.cpuSeconds))"
    }
}
