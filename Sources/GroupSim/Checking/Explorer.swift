/// Runs one scenario under many schedules and reports what came out (`groupsim explore`):
/// random exploration draws fresh latency, jitter and race offsets per run from a
/// derived seed; exhaustive exploration enumerates every distinct delivery order of a
/// small scenario (`Explorer+Exhaustive.swift`).
///
/// Usable from a Swift Testing property test:
///
/// ```swift
/// let report = await Explorer(scenario: scenario, apps: apps).explore(runs: 200, seed: 1)
/// #expect(report.passed, "replay: seed \(report.firstFailure?.reference.seed ?? 0)")
/// ```
///
/// Determinism: run `i` depends only on the scenario and `seed(forRun: i, base:)`, and the
/// report's counts are order-free, so any number of workers and any split into shards
/// give the same report (DESIGN.md rules 2 and 4). Workers are child tasks of a task
/// group (structured concurrency, rule 5); each run is its own `Simulation` actor.
public struct Explorer: Sendable {
    public var scenario: Scenario
    public var apps: AppRegistry
    /// How many runs go on at once (at least 1).
    public var workers: Int

    /// The default refusal threshold of `exhaustive(limit:)`: distinct delivery orders.
    public static let defaultExhaustiveLimit = 100_000

    public init(scenario: Scenario, apps: AppRegistry = AppRegistry(), workers: Int = 1) {
        self.scenario = scenario
        self.apps = apps
        self.workers = max(1, workers)
    }

    /// The seed of run `run` of an exploration from `base`: a draw from the `.exploration`
    /// stream named by the run number, so each run gets fresh latency, jitter and race
    /// draws, and `groupsim run FILE --seed` with this seed replays it exactly.
    public static func seed(forRun run: Int, base: UInt64) -> UInt64 {
        var stream = RandomStreams(seed: base).stream(.exploration, String(run))
        return stream.next()
    }

    /// Runs the scenario `runs` times (run `i` with `seed(forRun: i, base: seed)`) and
    /// tallies the checks, outcomes and pitfalls.
    ///
    /// - Parameters:
    ///   - seed: the base seed; nil uses the scenario's.
    ///   - shard: only the runs `i` with `i % shard.count == shard.index`; merge the
    ///     shards' reports with `ExplorationReport.merge`.
    /// - Complexity: `runs` simulations, `workers` at a time.
    public func explore(runs: Int, seed: UInt64? = nil, shard: Shard? = nil) async -> ExplorationReport {
        let base = seed ?? scenario.seed
        let total = max(0, runs)
        var template = Self.template(for: scenario, mode: .sampled(seed: base, requested: total))
        if let shard, shard.count > 1 {
            template.shard = ExplorationReport.ShardCoverage(count: shard.count, indices: [shard.index])
        }
        let indices: [Int] = shard.map { Array($0.runs(below: total)) } ?? Array(0..<total)
        let sessions = ExploredRun.sessions(of: scenario)
        let tally: ExplorationTally
        if workers <= 1 || indices.count < 2 {
            tally = await runChunk(indices[...], base: base, sessions: sessions)
        } else {
            tally = await runConcurrently(indices, base: base, sessions: sessions)
        }
        return tally.report(template)
    }

    /// Splits the runs into chunks and keeps `workers` chunks going at once; the chunks'
    /// tallies are merged in chunk (run-number) order.
    private func runConcurrently(_ indices: [Int], base: UInt64, sessions: [String]) async -> ExplorationTally {
        let chunkSize = max(1, min(64, indices.count / (workers * 4)))
        let chunks: [ArraySlice<Int>] = stride(from: 0, to: indices.count, by: chunkSize).map {
            indices[$0..<min($0 + chunkSize, indices.count)]
        }
        var tallies = [ExplorationTally?](repeating: nil, count: chunks.count)
        // Structured concurrency only (DESIGN.md rule 5): each child runs whole, independent
        // simulations and the tallies are merged in chunk order, so the report is the same
        // for any number of workers.
        await withTaskGroup(of: (Int, ExplorationTally).self) { group in
            var next = 0
            func start() {
                let number = next
                let chunk = chunks[number]
                next += 1
                group.addTask { (number, await self.runChunk(chunk, base: base, sessions: sessions)) }
            }
            while next < min(workers, chunks.count) { start() }
            while let (number, tally) = await group.next() {
                tallies[number] = tally
                if next < chunks.count { start() }
            }
        }
        var total = ExplorationTally(checks: scenario.checks.count)
        for tally in tallies { if let tally { total.merge(tally) } }
        return total
    }

    private func runChunk(_ indices: ArraySlice<Int>, base: UInt64, sessions: [String]) async -> ExplorationTally {
        var tally = ExplorationTally(checks: scenario.checks.count)
        for index in indices {
            let seed = Self.seed(forRun: index, base: base)
            let outcome = await Simulation(scenario: scenario, seed: seed, apps: apps, recordTrace: false).run()
            tally.add(ExploredRun(reference: .init(run: index, seed: seed), report: RunReport(outcome: outcome), sessions: sessions))
        }
        return tally
    }

    /// A report with the scenario's facts and no runs: what every tally fills in.
    static func template(for scenario: Scenario, mode: ExplorationReport.Mode) -> ExplorationReport {
        ExplorationReport(
            scenario: scenario.name, file: scenario.file, mode: mode, shard: nil,
            devices: scenario.devices.map(\.name), sessions: ExploredRun.sessions(of: scenario),
            runs: 0, failedRuns: 0, stoppedRuns: 0, checks: checkTitles(scenario), outcomes: [], pitfalls: [],
            stepFailures: [], failures: [], outcomeKeys: [], app: scenario.app.name)
    }

    /// Each check's one-line text and line, as `groupsim run` prints them. The text
    /// depends only on the check as written, so an empty outcome yields it.
    static func checkTitles(_ scenario: Scenario) -> [ExplorationReport.CheckTally] {
        let empty = RunOutcome(scenario: scenario, seed: scenario.seed, trace: Trace(), devices: [], failures: [], sightings: [],
                               changes: [], cloud: [], endTime: .zero, eventCount: 0, copiesDelivered: 0, heldAtEnd: 0,
                               quiet: true, members: [])
        return CheckEvaluator.evaluate(empty, pitfalls: []).map {
            ExplorationReport.CheckTally(text: $0.text, line: $0.spec.location?.line, failedRuns: 0, firstFailure: nil)
        }
    }
}
