import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// Runs one scenario under many schedules and reports what came out (`groupsim explore`):
/// random exploration draws fresh latency, jitter and race offsets per run from a
/// derived seed; exhaustive exploration enumerates every distinct delivery order of a
/// small scenario (`Explorer+Exhaustive.swift`).
///
/// Usable from a Swift Testing property test:
///
/// ```swift
/// let report = try await Explorer(scenario: scenario, apps: apps).explore(runs: 200, seed: 1)
/// #expect(report.passed, "replay: seed \(report.firstFailure?.reference.seed ?? 0)")
/// ```
///
/// Determinism: run `i` depends only on the scenario and `seed(forRun: i, base:)`, and the
/// report's counts are order-free, so any number of workers and any split into shards
/// give the same report (determinism rules 2 and 4, README). Workers are child tasks of a task
/// group (structured concurrency, rule 5); each worker runs its runs one after another on
/// a `Simulation` of its own (`simulate(seed:controller:)`), which restarts one engine for
/// each run and gives what a new `Simulation` with the run's seed gives.
public struct Explorer: Sendable {
    public var scenario: Scenario
    public var apps: AppRegistry
    /// How many runs go on at once (at least 1).
    public var workers: Int
    /// `scenario` as the caller checked it (the command line, which has just read it from
    /// its file), so that a large scenario is not written out and read again before every
    /// exploration; nil: checked when an exploration starts.
    private var checked: ValidatedScenario?

    /// The default refusal threshold of `exhaustive(limit:)`: distinct delivery orders.
    public static let defaultExhaustiveLimit = 100_000
    /// The default memory budget of `exhaustive(limit:factor:memory:)`, in bytes: 1 GiB
    /// (`groupsim explore --max-memory` takes less under a memory limit, `SearchMemory`).
    public static let defaultSearchMemory = SearchMemory.defaultBudget(memoryLimit: nil)

    public init(scenario: Scenario, apps: AppRegistry = AppRegistry(), workers: Int = 1) {
        self.scenario = scenario
        self.apps = apps
        self.workers = max(1, workers)
    }

    /// An explorer of a scenario checked with the same registered apps.
    package init(_ scenario: ValidatedScenario, apps: AppRegistry, workers: Int) {
        self.init(scenario: scenario.scenario, apps: apps, workers: workers)
        checked = scenario
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
    /// Cancelling the calling task stops it between runs: no run starts after that, and
    /// the report (marked `interrupted`) covers the runs in run order up to the first one
    /// not finished, so it does not depend on which worker was where.
    ///
    /// - Parameter seed: the base seed; nil uses the scenario's.
    /// - Throws: `ExplorationError.invalidScenario` when the scenario is invalid
    ///   (`Scenario.validate`, checked once before any run).
    /// - Complexity: `runs` simulations, `workers` at a time.
    public func explore(runs: Int, seed: UInt64? = nil) async throws(ExplorationError) -> ExplorationReport {
        try await explore(runs: runs, seed: seed, shard: nil)
    }

    /// `explore(runs:seed:)` for one shard of the runs, with progress reports.
    ///
    /// - Parameters:
    ///   - shard: only the runs `i` with `i % shard.count == shard.index`; merge the
    ///     shards' reports with `ExplorationReport.merge`.
    ///   - progress: called as runs finish, with how many of this call's runs are done and
    ///     how many of those failed a check (for a progress line; it does not change the
    ///     report). Called from the exploring task, at most once per chunk of runs.
    /// - Throws: `ExplorationError.invalidScenario` when the scenario is invalid
    ///   (`Scenario.validate`, checked once before any run).
    /// - Complexity: `runs` simulations, `workers` at a time.
    package func explore(
        runs: Int, seed: UInt64? = nil, shard: Shard?, progress: (@Sendable (ExplorationProgress) -> Void)? = nil
    ) async throws(ExplorationError) -> ExplorationReport {
        let checked = try validateScenario()
        let base = seed ?? scenario.seed
        let total = max(0, runs)
        var template = Self.template(for: scenario, mode: .random(seed: base, requested: total))
        if let shard, shard.count > 1 {
            template.shard = ExplorationReport.ShardCoverage(count: shard.count, indices: [shard.index])
        }
        let span = RunSpan(total: total, shard: shard)
        let sessions = ExploredRun.sessions(of: scenario)
        // Built once for every run (sticker files read once), whatever the workers.
        let tables = ScenarioTables(scenario: scenario)
        let host = { Simulation(checked, tables: tables, apps: apps, recordTrace: false) }
        let tally: ExplorationTally
        if progress == nil, workers <= 1 || span.count < 2 {
            tally = await runChunk(span, 0..<span.count, base: base, sessions: sessions, on: host())
        } else {
            tally = await runConcurrently(span, base: base, sessions: sessions, host: host, progress: progress)
        }
        var report = tally.report(template)
        report.interrupted = tally.runs < ExactCount(span.count)
        return report
    }

    /// The runs of an exploration, by position: run `first + position × step` for each
    /// position below `count`. Computed, not listed, so 100,000,000 runs take no memory.
    struct RunSpan: Sendable {
        var first: Int
        var step: Int
        var count: Int

        /// The runs below `total`, or those of `shard`.
        init(total: Int, shard: Shard?) {
            first = shard?.index ?? 0
            step = max(1, shard?.count ?? 1)
            count = total > first ? (total - first - 1) / step + 1 : 0
        }

        func run(at position: Int) -> Int { first + position * step }
    }

    /// Splits the runs into chunks and keeps `workers` chunks going at once. A chunk's
    /// tally is merged as soon as every chunk before it is, so the total is built in run
    /// order and only the chunks in flight are held. A chunk runs on a simulation no other
    /// chunk in flight has (`host` makes one), handed on to a later chunk when it is done:
    /// a worker's runs restart one engine however many chunks it takes.
    private func runConcurrently(
        _ span: RunSpan, base: UInt64, sessions: [String], host: () -> Simulation,
        progress: (@Sendable (ExplorationProgress) -> Void)? = nil
    ) async -> ExplorationTally {
        let chunkSize = max(1, min(64, span.count / (workers * 4)))
        let chunkCount = (span.count + chunkSize - 1) / chunkSize
        func positions(_ chunk: Int) -> Range<Int> { chunk * chunkSize..<min((chunk + 1) * chunkSize, span.count) }
        var total = ExplorationTally(checks: scenario.checks.count)
        // Structured concurrency only (determinism rule 5, README): each child runs whole, independent
        // simulations and the tallies are merged in chunk order, so the report is the same
        // for any number of workers.
        await withTaskGroup(of: (Int, Simulation, ExplorationTally).self) { group in
            var next = 0
            var idle: [Simulation] = []
            var finished: [Int: ExplorationTally] = [:]
            var merged = 0
            // After a cancellation, only the runs before the first unfinished one count: a
            // chunk cut short ends the merging, and chunks after it are left out.
            var cut = false
            func start() {
                let number = next
                next += 1
                let loop = idle.popLast() ?? host()
                group.addTask { (number, loop, await self.runChunk(span, positions(number), base: base, sessions: sessions, on: loop)) }
            }
            while next < min(workers, chunkCount) { start() }
            var done = ExplorationProgress(runsDone: 0, runs: span.count, failedRuns: 0)
            while let (number, loop, tally) = await group.next() {
                idle.append(loop)
                done.runsDone += tally.runs.clampedInt
                done.failedRuns += tally.failedRuns.clampedInt
                progress?(done)
                finished[number] = tally
                while !cut, let ready = finished.removeValue(forKey: merged) {
                    total.merge(ready)
                    if ready.runs < ExactCount(positions(merged).count) { cut = true }
                    merged += 1
                }
                if next < chunkCount, !Task.isCancelled { start() }
            }
        }
        return total
    }

    /// The runs of `positions` one after another on `loop` (the scenario's, validated):
    /// they share its executor (for a controller app, one thread instead of one wake-up
    /// per run) and restart its engine rather than building a world each.
    private func runChunk(_ span: RunSpan, _ positions: Range<Int>, base: UInt64, sessions: [String], on loop: Simulation) async
        -> ExplorationTally {
        let scenario = scenario
        return await loop.withIsolation { loop in
            var tally = ExplorationTally(checks: scenario.checks.count)
            // Every run of the chunk runs the same scenario: named once, from the first.
            var naming: ExploredRun.Naming?
            for position in positions {
                if Task.isCancelled { break }
                let index = span.run(at: position)
                let seed = Self.seed(forRun: index, base: base)
                let outcome = loop.simulate(seed: seed).outcome
                let report = RunReport(outcome: outcome, explainingPitfalls: false)
                let named = naming ?? ExploredRun.Naming(sessions: sessions, scenario: outcome.scenario)
                naming = named
                tally.add(ExploredRun(reference: .init(run: index, seed: seed), report: report, naming: named))
            }
            return tally
        }
    }

    /// Refuses an invalid scenario, exactly as its file would be refused.
    package func validateScenario() throws(ExplorationError) -> ValidatedScenario {
        if let checked { return checked }
        do {
            return try ValidatedScenario(scenario, registeredApps: apps.names)
        } catch {
            throw .invalidScenario(error)
        }
    }

    /// A report with the scenario's facts and no runs: what every tally fills in.
    static func template(for scenario: Scenario, mode: ExplorationReport.Mode) -> ExplorationReport {
        ExplorationReport(
            scenario: scenario.name, file: scenario.file, fingerprint: scenario.fingerprint, toolVersion: GroupSimVersion.current,
            mode: mode, shard: nil,
            devices: scenario.devices.map(\.name), sessions: ExploredRun.sessions(of: scenario),
            runs: 0, failedRuns: 0, stoppedRuns: 0, checks: checkTitles(scenario), outcomes: [], pitfalls: [],
            stepFailures: [], failures: [], app: scenario.app.name)
    }

    /// Each check's one-line text and line, as `groupsim run` prints them: the title
    /// `CheckEvaluator.title` writes from the check as written.
    static func checkTitles(_ scenario: Scenario) -> [ExplorationReport.CheckTally] {
        scenario.checks.map {
            ExplorationReport.CheckTally(text: CheckEvaluator.title($0.check), line: $0.location?.line, failedRuns: 0, firstFailure: nil)
        }
    }
}
