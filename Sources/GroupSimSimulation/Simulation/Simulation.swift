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
/// an instant, for a test that looks at the world between events.
public actor Simulation {
    /// A run stops, reported as not quiet, after this many events: an app that keeps
    /// talking to the cloud forever must not hang the tool.
    public static let eventLimit = 20_000_000

    /// The large cases are boxed so that an event, copied in and out of the queue, is as
    /// small as a delivery: the copy every message fans out into.
    enum Event: Sendable {
        /// `device`: the step's device's position in the scenario's devices (nil: none has its name).
        indirect case step(Step, conversation: String, device: Int?)
        case deliver(Envelope, to: Int)
        indirect case cloudArrive(CloudRequest)
        indirect case cloudAnswer(CloudResponse, to: Int)
    }

    public let scenario: Scenario
    public let seed: UInt64
    private let apps: AppRegistry
    /// Whoever made this simulation checked the scenario already (exploration, per run).
    private let validated: Bool
    /// What this actor runs on: a thread of its own for a controller app (`RunThread`).
    private nonisolated let executor: RunExecutor
    /// Where the run stands: a simulation runs once; later calls get the same result.
    private var progress = Progress.notStarted

    private enum Progress {
        case notStarted
        /// Built, and stepped by `step()` or `advance(to:)`; `run()` goes on from here.
        case started
        /// Callers that asked while the one run was under way, waiting for its result.
        case running(waiting: [CheckedContinuation<Result<RunOutcome, ScenarioErrors>, Never>])
        case finished(Result<RunOutcome, ScenarioErrors>)
    }

    /// The world, scheduler and recorder, stepped one event at a time: a value, so that
    /// the loop inside it reaches them without the actor's per-access exclusivity checks.
    private var engine: Engine

    /// - Parameters:
    ///   - seed: overrides the scenario's seed (`--seed`).
    ///   - apps: the registered apps the scenario may name.
    ///   - recordTrace: false skips keeping events (benchmarks); the digest is then of nothing.
    public init(scenario: Scenario, seed: UInt64? = nil, apps: AppRegistry = AppRegistry(), recordTrace: Bool = true) {
        self.init(scenario: scenario, seed: seed, apps: apps, recordTrace: recordTrace, controller: nil, validated: false)
    }

    /// A simulation whose `controller` picks which pending event runs next instead of
    /// virtual time (schedule exploration).
    package init(scenario: Scenario, seed: UInt64? = nil, apps: AppRegistry = AppRegistry(), recordTrace: Bool = true,
                 controller: (any ScheduleController)?) {
        self.init(scenario: scenario, seed: seed, apps: apps, recordTrace: recordTrace, controller: controller, validated: false)
    }

    /// - Parameter validated: true when the caller has run `scenario.validate` already
    ///   (exploration and benchmarks, which run one scenario many times).
    package init(scenario: Scenario, seed: UInt64?, apps: AppRegistry, recordTrace: Bool,
                 controller: (any ScheduleController)?, validated: Bool) {
        self.init(tables: ScenarioTables(scenario: scenario), seed: seed, apps: apps, recordTrace: recordTrace,
                  controller: controller, validated: validated)
    }

    /// A run of the scenario `tables` were made for, reusing them: what many runs of one
    /// scenario share (exploration, benchmarks) is built once.
    ///
    /// - Parameter executor: what the run runs on, for a caller that runs many on one
    ///   (`RunLoop`); by default a thread of its own for a controller app.
    package init(tables: ScenarioTables, seed: UInt64?, apps: AppRegistry, recordTrace: Bool,
                 controller: (any ScheduleController)?, validated: Bool, executor: RunExecutor? = nil) {
        let scenario = tables.scenario
        self.validated = validated
        self.executor = executor ?? RunExecutor(callsMainActor: apps.callsMainActor(scenario.app))
        self.scenario = scenario
        self.seed = seed ?? scenario.seed
        self.apps = apps
        // Sticker files are read with the tables, before the simulation is made: never while it runs.
        engine = Engine(tables: tables, seed: seed ?? scenario.seed, controller: controller, keepsTrace: recordTrace)
    }

    /// The schedule controller as it stands after `run()`: exploration reads back what it
    /// recorded (controllers are values, so the run's copy is the only one that saw it).
    package var scheduleController: (any ScheduleController)? { engine.scheduler.controller }

    /// Runs the scenario to quiescence (no message or cloud request in flight).
    ///
    /// A simulation runs once: a second call (also one made while the first is under
    /// way) returns the first call's outcome, the same in every respect.
    ///
    /// - Throws: the scenario's problems, exactly as a scenario file with them would be
    ///   refused (`Scenario.validate`); nothing runs then.
    public func run() async throws(ScenarioErrors) -> RunOutcome {
        try await runOnce()
    }

    /// A run of a controller app runs on a thread of its own (`RunThread`); any other run
    /// on the shared pool, as a plain actor does.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.unownedExecutor }

    private func runOnce() async throws(ScenarioErrors) -> RunOutcome {
        switch progress {
        case .finished(let result):
            return try result.get()
        case .running:
            let result = await withCheckedContinuation { continuation in
                if case .running(let current) = progress { progress = .running(waiting: current + [continuation]) }
            }
            return try result.get()
        case .notStarted, .started:
            let result: Result<RunOutcome, ScenarioErrors>
            do throws(ScenarioErrors) {
                try start()
                progress = .running(waiting: [])
                engine.runToEnd()
                result = .success(engine.outcome())
            } catch {
                result = .failure(error)
            }
            if case .running(let waiting) = progress {
                for continuation in waiting { continuation.resume(returning: result) }
            }
            progress = .finished(result)
            return try result.get()
        }
    }

    /// Runs the next event, building the world first if nothing has run yet.
    ///
    /// - Returns: false when nothing is in flight (or the run is over): `run()` then
    ///   returns the outcome without running anything more.
    /// - Throws: the scenario's problems, as `run()` does.
    @discardableResult
    public func step() throws(ScenarioErrors) -> Bool {
        switch progress {
        case .notStarted, .started:
            try start()
            return engine.runNextEvent()
        case .running, .finished:
            return false
        }
    }

    /// Runs every event due at or before `time` (by the clock), then moves the clock to
    /// `time` if it is behind: what a test does to look at the world at an instant.
    ///
    /// - Returns: how many events ran.
    @discardableResult
    public func advance(to time: VirtualTime) throws(ScenarioErrors) -> Int {
        switch progress {
        case .running, .finished:
            return 0
        case .notStarted, .started:
            try start()
            return engine.advance(to: time)
        }
    }

    /// The run's clock: the time of the last event run (or the instant `advance(to:)` reached).
    public var now: VirtualTime { engine.context.now }

    /// Checks the scenario (unless the caller did) and builds the world, once.
    private func start() throws(ScenarioErrors) {
        guard case .notStarted = progress else { return }
        if !validated { try scenario.validate(registeredApps: apps.names) }
        engine.start(app: apps.factory(for: scenario.app))
        progress = .started
    }
}

// The package's own code names the nested types without their prefix; users see only the
// nested names.
package typealias Trace = Simulation.Trace
package typealias TraceEvent = Simulation.Trace.Event
package typealias StepFailure = RunOutcome.StepFailure
package typealias CloudEntry = RunOutcome.CloudEntry
package typealias DrawnEntry = DeviceSnapshot.DrawnEntry
package typealias SessionView = DeviceSnapshot.SessionView
package typealias CloudWrite = AppAction.CloudWrite
package typealias CloudRecord = AppAction.CloudRecord
