import GroupSimCore
import GroupSimScenario

/// One run of a scenario with one seed: builds the world, runs the event loop on virtual
/// time until nothing is in flight, and returns what happened.
///
/// Three parts, held together in one value this actor owns (the `Engine`, in which the
/// event loop runs): the `World` (devices, network, cloud store, members) that events
/// change, the `Scheduler` that holds the pending events and picks the next one (by the
/// clock, or by a schedule controller), and the `Recorder` that keeps the trace,
/// failures and counters. The loop pops events in (time, sequence) order
/// (determinism rule 3, README) and hands each to the one value it concerns, a device or
/// the cloud store, stepped in place with no await per event. Only one of them runs at
/// any moment, so the same seed always gives the same trace.
///
/// `run()` runs to the end; `step()` runs one event and `advance(to:)` every event due by
/// an instant, and `snapshot(of:)`, `pending` and `traceSoFar` show the run between
/// events (`Simulation+Stepping.swift`).
public actor Simulation {
    /// A run stops, reported as not quiet, after this many events: an app that keeps
    /// talking to the cloud forever must not hang the tool.
    public static let eventLimit = 20_000_000

    /// The large cases are boxed so that an event, copied in and out of the queue, is as
    /// small as a delivery: the copy every message fans out into.
    enum Event: Sendable {
        /// `device`: the step's device's position in the scenario's devices (nil: none has its name).
        indirect case step(Scenario.Step, conversation: String, device: Int?)
        /// A copy of a message on its way to device `to`; the scheduler holds the message.
        case deliver(CopyInFlight, to: Int)
        indirect case cloudArrive(CloudRequest)
        indirect case cloudAnswer(CloudResponse, to: Int)
    }

    public nonisolated let scenario: Scenario
    private let apps: AppRegistry
    /// What was wrong with the scenario, thrown by the first call that would run it.
    private let problems: ScenarioErrors?
    /// What this actor runs on: a thread of its own for a controller app (`RunThread`).
    private nonisolated let executor: RunExecutor
    /// Where the run stands: a simulation runs once; later calls get the same result.
    private var progress = Progress.notStarted

    private enum Progress {
        case notStarted
        /// Built, and stepped by `step()` or `advance(to:)`; `run()` goes on from here.
        case started
        case finished(Result<RunOutcome, ScenarioErrors>)
    }

    /// The world, scheduler and recorder, stepped one event at a time: a value, so that
    /// the loop inside it reaches them without the actor's per-access exclusivity checks.
    var engine: Engine

    /// - Parameters:
    ///   - seed: overrides the scenario's seed (`--seed`).
    ///   - apps: the registered apps the scenario may name.
    ///   - recordTrace: false skips keeping events (benchmarks); the digest is then of nothing.
    public init(scenario: Scenario, seed: UInt64? = nil, apps: AppRegistry = AppRegistry(), recordTrace: Bool = true) {
        var problems: ScenarioErrors?
        do { try scenario.validate(registeredApps: apps.names) } catch { problems = error }
        self.init(scenario, problems: problems, tables: nil, seed: seed, apps: apps, recordTrace: recordTrace, controller: nil)
    }

    /// A run of a scenario checked already, which nothing checks again.
    ///
    /// - Parameters:
    ///   - tables: the scenario's, when many runs share them (exploration); nil builds them.
    ///   - controller: picks which pending event runs next instead of virtual time
    ///     (schedule exploration).
    package init(_ scenario: ValidatedScenario, tables: ScenarioTables? = nil, seed: UInt64? = nil, apps: AppRegistry = AppRegistry(),
                 recordTrace: Bool = true, controller: (any ScheduleController)? = nil) {
        self.init(scenario.scenario, problems: nil, tables: tables, seed: seed, apps: apps, recordTrace: recordTrace, controller: controller)
    }

    private init(_ scenario: Scenario, problems: ScenarioErrors?, tables: ScenarioTables?, seed: UInt64?, apps: AppRegistry,
                 recordTrace: Bool, controller: (any ScheduleController)?) {
        self.scenario = scenario
        self.apps = apps
        self.problems = problems
        executor = RunExecutor(callsMainActor: apps.callsMainActor(scenario.app))
        // Sticker files are read with the tables, before the simulation is made: never while it runs.
        engine = Engine(tables: tables ?? ScenarioTables(scenario: scenario), seed: seed ?? scenario.seed, controller: controller,
                        keepsTrace: recordTrace)
    }

    /// Runs the scenario to quiescence (no message or cloud request in flight), from
    /// wherever `step()` or `advance(to:)` left it, and returns what the run left.
    ///
    /// A simulation runs once: a later call returns the first call's outcome, the same in
    /// every respect, and `step()` runs nothing more.
    ///
    /// - Throws: the scenario's problems, exactly as a scenario file with them would be
    ///   refused (`Scenario.validate`); nothing runs then.
    public func run() throws(ScenarioErrors) -> RunOutcome {
        if case .finished(let result) = progress { return try result.get() }
        let result = Result { () throws(ScenarioErrors) -> RunOutcome in
            _ = try start()
            engine.runToEnd()
            return engine.outcome()
        }
        progress = .finished(result)
        return try result.get()
    }

    /// A run of a controller app runs on a thread of its own (`RunThread`); any other run
    /// on the shared pool, as a plain actor does.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.unownedExecutor }

    /// Throws the scenario's problems, or builds the world, once; then says whether the
    /// run goes on (false once `run()` has ended it).
    func start() throws(ScenarioErrors) -> Bool {
        if let problems { throw problems }
        build()
        if case .finished = progress { return false }
        return true
    }

    func build() {
        guard case .notStarted = progress else { return }
        engine.start(app: apps.factory(for: scenario.app))
        progress = .started
    }

    // MARK: - Many runs of one scenario

    /// Runs `body` on this simulation's executor: a caller that runs the scenario many
    /// times (`simulate(seed:controller:)`) stays on one thread instead of waking another
    /// twice per run.
    package func withIsolation<T: Sendable>(_ body: @Sendable (isolated Simulation) -> T) -> T {
        body(self)
    }

    /// One run of the scenario with `seed`, the events picked by `controller` if there is
    /// one (by the clock otherwise): the outcome a new simulation of the scenario with
    /// that seed and controller gives, made by restarting this one's engine. Each run
    /// resets the last run's world, queue and records instead of building them again, so a
    /// run pays for what its seed changes, not for the room a large group takes. What
    /// exploration and benchmarks use, on a simulation of a `ValidatedScenario`.
    ///
    /// - Returns: the outcome, and the controller as the run left it (controllers are
    ///   values: this is the copy that saw the run). The simulation keeps no copy of it, so
    ///   what it shares with the caller stays the caller's alone.
    package func simulate(seed: UInt64, controller: (any ScheduleController)? = nil)
        -> (outcome: RunOutcome, controller: (any ScheduleController)?) {
        build()
        engine.restart(seed: seed, controller: controller)
        engine.runToEnd()
        return (engine.outcome(), engine.scheduler.takeController())
    }
}
