import GroupSimCore
import GroupSimScenario

/// One run of a scenario with one seed: builds the world, runs the event loop on virtual
/// time until nothing is in flight, and returns what happened.
///
/// Three parts, each a value this actor owns: the `World` (devices, network, cloud store,
/// members) that events change, the `Scheduler` that holds the pending events and picks
/// the next one (by the clock, or by a schedule controller), and the `Recorder` that keeps
/// the trace, failures and counters. The loop pops events in (time, sequence) order
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
        indirect case step(Step, conversation: String)
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

    private var world: World
    private var scheduler: Scheduler
    private var recorder: Recorder
    /// The clock and the run's message and change counters, lent to each device call.
    private var context = DeviceContext(now: .zero, nextMessageID: 1, nextChangeID: 1)
    /// The one buffer every device call adds its effects to; emptied after each call.
    private var output = DeviceOutput(context: DeviceContext(now: .zero, nextMessageID: 1, nextChangeID: 1))

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
        world = World(tables: tables, seed: seed ?? scenario.seed)
        scheduler = Scheduler(controller: controller)
        recorder = Recorder(keepsTrace: recordTrace)
    }

    /// The schedule controller as it stands after `run()`: exploration reads back what it
    /// recorded (controllers are values, so the run's copy is the only one that saw it).
    package var scheduleController: (any ScheduleController)? { scheduler.controller }

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
                while runNextEvent() {}
                result = .success(outcome())
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
            return runNextEvent()
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
            var ran = 0
            while let next = scheduler.nextTime, next <= time, runNextEvent() { ran += 1 }
            context.now = max(context.now, time)
            return ran
        }
    }

    /// The run's clock: the time of the last event run (or the instant `advance(to:)` reached).
    public var now: VirtualTime { context.now }

    /// Checks the scenario (unless the caller did) and builds the world, once.
    private func start() throws(ScenarioErrors) {
        guard case .notStarted = progress else { return }
        if !validated { try scenario.validate(registeredApps: apps.names) }
        world.makeDevices(app: apps.factory(for: scenario.app), tracing: recorder.keepsTrace)
        scheduler.plan(scenario, streams: world.facts.streams)
        progress = .started
    }

    /// Runs one event; false when none is left or the event limit is reached.
    private func runNextEvent() -> Bool {
        guard recorder.eventCount <= Self.eventLimit, let entry = scheduler.next(tables: world.facts.tables, cloud: world.cloud) else {
            return false
        }
        recorder.eventCount += 1
        // One event past the limit is taken, not run: the run ends there, reported as not quiet.
        guard recorder.eventCount <= Self.eventLimit else { return false }
        context.now = max(context.now, entry.time)
        switch entry.payload {
        case .step(let step, let conversation):
            perform(step, conversation: conversation)
        case .deliver(let envelope, let receiver):
            if world.network.offline[receiver] {
                world.network.held[receiver].append(envelope)
                recorder.record(TraceEvent(time: context.now, subject: world.devices[receiver].name, kind: .held(message: envelope.id)))
            } else {
                recorder.copiesDelivered += 1
                callDevice(receiver) { $0.receive(envelope, into: &$1) }
            }
        case .cloudArrive(let request):
            guard let receiver = world.deviceIndex[request.device] else { return true }
            let response = world.cloud.handle(request)
            if response.record.conflict { recorder.cloudConflicts += 1 }
            recorder.record(TraceEvent(time: context.now, subject: "cloud",
                                       kind: .cloudHandled(.init(request.operation, conflict: response.record.conflict), key: request.key,
                                                           device: request.device, version: response.record.version),
                                       payload: .cloud(operation: request.operation, record: response.record)))
            scheduler.enqueue(.cloudAnswer(response, to: receiver), at: context.now, after: scenario.app.cloudLatency)
        case .cloudAnswer(let response, let receiver):
            callDevice(receiver) { $0.receive(response, into: &$1) }
        }
        return true
    }

    /// What the run left: every device's state, the trace, failures and counters.
    private func outcome() -> RunOutcome {
        let snapshots = world.devices.indices.map { index in
            var snapshot = world.devices[index].snapshot()
            snapshot.runIndex = index
            return snapshot
        }
        let records = world.cloud.contents().map { key, entry in
            CloudEntry(key: key, state: entry.state, version: entry.version, provenance: entry.provenance)
        }
        let quiet = recorder.eventCount <= Self.eventLimit
        var outcome = RunOutcome(scenario: scenario, seed: seed, trace: recorder.trace, devices: snapshots, failures: recorder.failures,
                                 sightings: recorder.sightings, changes: recorder.changes, cloud: records, endTime: context.now,
                                 eventCount: min(recorder.eventCount, Self.eventLimit), copiesDelivered: recorder.copiesDelivered,
                                 heldAtEnd: world.network.held.map(\.count).reduce(0, +), quiet: quiet,
                                 members: scenario.conversations.map {
                                     RunOutcome.ConversationMembers(conversation: $0.name, members: world.members[$0.name] ?? [])
                                 })
        outcome.cloudConflicts = recorder.cloudConflicts
        return outcome
    }

    // MARK: - Steps the network and membership own

    /// Traces the start of a step the simulation carries out itself; devices trace their own.
    private func recordStep(_ step: Step, on subject: String) {
        recorder.record(TraceEvent(time: context.now, subject: subject, kind: .step(number: step.number, action: step.action)))
    }

    private func perform(_ step: Step, conversation: String) {
        guard let index = world.deviceIndex[step.device] else { return }
        let subject = world.devices[index].name
        switch step.action {
        case .offline:
            recordStep(step, on: subject)
            world.network.setOffline(index, true)
            recorder.record(TraceEvent(time: context.now, subject: subject, kind: .offline))
        case .online:
            recordStep(step, on: subject)
            world.network.setOffline(index, false)
            recorder.record(TraceEvent(time: context.now, subject: subject, kind: .online))
            // Held copies arrive in their original (send) order when the device is back (M30).
            let held = world.network.held[index].sorted { $0.id < $1.id }
            world.network.held[index] = []
            for envelope in held { scheduler.enqueue(.deliver(envelope, to: index), at: context.now, after: .zero) }
            let waiting = world.network.outbox[index]
            world.network.outbox[index] = []
            for envelope in waiting { fanOut(envelope, from: index) }
        case .join(let person), .leave(let person):
            recordStep(step, on: subject)
            var list = world.members[conversation] ?? []
            let owner = scenario.devices[index].person
            guard list.contains(owner) else {
                // Only a member changes the membership; a removed one no longer can (M6).
                recorder.record(TraceEvent(time: context.now, subject: subject, kind: .failed(step: step.number, code: .notMember)))
                recorder.fail(StepFailure(step: step.number, device: subject, time: context.now, code: .notMember,
                                          reason: "\(subject) belongs to \(owner), who is not a member of conversation \(conversation) "
                                              + "now (M6)"))
                return
            }
            if case .join = step.action {
                if !list.contains(person) { list.append(person) }
                recorder.record(TraceEvent(time: context.now, subject: subject, kind: .joined(person: person)))
            } else {
                list.removeAll { $0 == person }
                recorder.record(TraceEvent(time: context.now, subject: subject, kind: .left(person: person)))
            }
            world.setMembers(list, of: conversation)
        case .send, .reply, .insert, .pressSend, .cancel, .open, .tap, .close, .text, .sticker, .reinstall:
            // The device carries these out; the network and the member list carry out the others.
            let isNew = step.action.compose.map { world.usedSessions.insert($0.session).inserted } ?? false
            callDevice(index) { $0.perform(step, conversation: conversation, sessionIsNew: isNew, into: &$1) }
        }
    }

    // MARK: - Acting on what a device asked for

    /// Makes one call into device `index` with the run's buffer and context, then takes
    /// the context back, acts on what the device asked for and empties the buffer.
    private func callDevice(_ index: Int, _ call: (inout Device, inout DeviceOutput) -> Void) {
        world.call(index, context: &context, output: &output, call)
        // Most calls (deliveries with the trace off) ask for nothing more.
        guard !output.isEmpty else { return }
        apply(output)
        output.removeAll()
    }

    private func apply(_ output: DeviceOutput) {
        recorder.keep(output)
        for envelope in output.outgoing {
            guard let sender = world.deviceIndex[envelope.senderDevice] else { continue }
            if world.network.offline[sender] {
                world.network.outbox[sender].append(envelope)
                recorder.record(TraceEvent(time: context.now, subject: envelope.senderDevice, kind: .queued(message: envelope.id)))
            } else {
                fanOut(envelope, from: sender)
            }
        }
        for request in output.cloudRequests {
            scheduler.enqueue(.cloudArrive(request), at: context.now, after: scenario.app.cloudLatency)
        }
    }

    /// Sends a copy to every other device of every member, the sender's own other devices
    /// included, each with its own delay (M30), in send order per link with `network.fifo`.
    private func fanOut(_ envelope: Envelope, from sender: Int) {
        for receiver in world.memberDevices(of: envelope.conversation) where receiver != sender {
            scheduler.deliver(envelope, from: sender, to: receiver, at: context.now, network: &world.network)
        }
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
