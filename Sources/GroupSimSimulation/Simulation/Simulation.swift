import GroupSimCore
import GroupSimScenario

/// One run of a scenario with one seed: builds the world, runs the event loop on virtual
/// time until nothing is in flight, and returns what happened.
///
/// The loop pops events in (time, sequence) order (determinism rule 3, README) and hands
/// each to the one value it concerns: a device or the cloud store, both plain state
/// machines this actor owns and steps in place, with no await per event. Only one of them
/// runs at any moment, so the same seed always gives the same trace.
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
    private let recordTrace: Bool
    private var controller: (any ScheduleController)?
    /// Whether a schedule controller picks the events (asked per event: cheaper than
    /// looking into the existential).
    private let exploring: Bool
    /// Whoever made this simulation checked the scenario already (exploration, per run).
    private let validated: Bool
    /// What this actor runs on: a thread of its own for a controller app (`RunThread`).
    private nonisolated let executor: RunExecutor
    /// Where `run()` stands: a simulation runs once; later calls get the same result.
    private var progress = Progress.notStarted

    private enum Progress {
        case notStarted
        /// Callers that asked while the one run was under way, waiting for its result.
        case running(waiting: [CheckedContinuation<Result<RunOutcome, ScenarioErrors>, Never>])
        case finished(Result<RunOutcome, ScenarioErrors>)
    }

    private var queue = EventQueue<Event>()
    /// Every step in the order it runs (time, then file order); only the next one waits in
    /// the queue, under the sequence number reserved for it at the start.
    private var plannedSteps: [(time: VirtualTime, event: Event, window: TimeWindow)] = []
    /// Under a schedule controller: when each pending event could happen at the earliest
    /// and the latest, whatever the latency, jitter and race draws (by sequence number),
    /// and the window of the event being run, which the events it causes inherit.
    private var windows: [UInt64: TimeWindow] = [:]
    private var cause = TimeWindow(earliest: 0, latest: 0)
    private var nextPlannedStep = 0
    private var firstStepSequence: UInt64 = 0
    private var devices: [Device] = []
    /// Each device's position in the scenario's devices.
    private var deviceIndex: [String: Int] { world.tables.deviceIndex }
    private var network: Network
    /// What every device knows and nobody changes, with the sticker files already read.
    private let world: WorldFacts
    private var cloud = CloudStore()
    private var members: [String: [String]]
    /// `memberDevices(of:)` by conversation.
    private var memberDevicesCache: [String: [Int]] = [:]
    private var usedSessions: Set<String> = []
    private var context = DeviceContext(now: .zero, nextMessageID: 1, nextChangeID: 1)
    /// The one buffer every device call adds its effects to; emptied after each call.
    private var output = DeviceOutput(context: DeviceContext(now: .zero, nextMessageID: 1, nextChangeID: 1))
    private var trace = Trace()
    private var failures: [StepFailure] = []
    private var sightings: [PitfallSighting] = []
    private var changes: [Change] = []
    private var copiesDelivered = 0
    private var cloudConflicts = 0
    private var eventCount = 0

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
        self.controller = controller
        exploring = controller != nil
        self.scenario = scenario
        self.seed = seed ?? scenario.seed
        self.apps = apps
        self.recordTrace = recordTrace
        // Sticker files are read with the tables, before the simulation is made: never while it runs.
        world = WorldFacts(tables: tables, seed: seed ?? scenario.seed)
        network = Network(tables: tables, streams: world.streams)
        members = Dictionary(scenario.conversations.map { ($0.name, $0.members) }, uniquingKeysWith: { first, _ in first })
    }

    /// The schedule controller as it stands after `run()`: exploration reads back what it
    /// recorded (controllers are values, so the run's copy is the only one that saw it).
    package var scheduleController: (any ScheduleController)? { controller }

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
        case .notStarted:
            progress = .running(waiting: [])
            let result: Result<RunOutcome, ScenarioErrors>
            do throws(ScenarioErrors) {
                if !validated { try scenario.validate(registeredApps: apps.names) }
                result = .success(simulate())
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

    /// The one run: builds the world and steps it until nothing is in flight.
    private func simulate() -> RunOutcome {
        build()
        while let entry = nextEvent() {
            eventCount += 1
            if eventCount > Self.eventLimit { break }
            context.now = max(context.now, entry.time)
            if exploring {
                cause = windows.removeValue(forKey: entry.sequence) ?? TimeWindow(earliest: entry.time.nanoseconds,
                    latest: entry.time.nanoseconds)
            }
            switch entry.payload {
            case .step(let step, let conversation):
                perform(step, conversation: conversation)
            case .deliver(let envelope, let receiver):
                if network.offline[receiver] {
                    network.held[receiver].append(envelope)
                    record(TraceEvent(time: context.now, subject: devices[receiver].name, kind: .held(message: envelope.id)))
                } else {
                    copiesDelivered += 1
                    step(receiver) { $0.receive(envelope, into: &$1) }
                }
            case .cloudArrive(let request):
                guard let receiver = deviceIndex[request.device] else { continue }
                let response = cloud.handle(request)
                if response.record.conflict { cloudConflicts += 1 }
                record(TraceEvent(time: context.now, subject: "cloud",
                                  kind: .cloudHandled(.init(request.operation, conflict: response.record.conflict), key: request.key,
                                                      device: request.device, version: response.record.version),
                                  payload: .cloud(operation: request.operation, record: response.record)))
                enqueue(.cloudAnswer(response, to: receiver), after: scenario.app.cloudLatency)
            case .cloudAnswer(let response, let receiver):
                step(receiver) { $0.receive(response, into: &$1) }
            }
        }
        let snapshots = devices.indices.map { index in
            var snapshot = devices[index].snapshot()
            snapshot.runIndex = index
            return snapshot
        }
        let records = cloud.contents().map { key, entry in
            CloudEntry(key: key, state: entry.state, version: entry.version, provenance: entry.provenance)
        }
        let quiet = eventCount <= Self.eventLimit
        var outcome = RunOutcome(scenario: scenario, seed: seed, trace: trace, devices: snapshots, failures: failures,
                                 sightings: sightings, changes: changes, cloud: records, endTime: context.now,
                                 eventCount: min(eventCount, Self.eventLimit), copiesDelivered: copiesDelivered,
                                 heldAtEnd: network.held.map(\.count).reduce(0, +), quiet: quiet,
                                 members: scenario.conversations.map {
                                     RunOutcome.ConversationMembers(conversation: $0.name, members: members[$0.name] ?? [])
                                 })
        outcome.cloudConflicts = cloudConflicts
        return outcome
    }

    /// The next event: the earliest, or the controller's choice among the enabled ones:
    /// every pending delivery and cloud message, and the earliest pending step (user
    /// actions keep their order). Time never goes backwards: a chosen event that was due
    /// earlier runs at the current instant.
    private func nextEvent() -> EventQueue<Event>.Entry? {
        let entry = exploring ? chosenEvent() : queue.next()
        if !exploring, let entry, case .step = entry.payload { scheduleNextStep() }
        return entry
    }

    /// The controller's choice among the enabled events, removed from the queue.
    private func chosenEvent() -> EventQueue<Event>.Entry? {
        guard var chooser = controller else { return queue.next() }
        let pending = queue.pending
        let firstOnLink = scenario.network.fifo ? oldestCopyPerLink(pending) : [:]
        var candidates: [(sequence: UInt64, candidate: ScheduleCandidate)] = []
        var waiting: [ScheduleCandidate] = []
        for entry in pending {
            let window = windows[entry.sequence] ?? TimeWindow(earliest: entry.time.nanoseconds, latest: entry.time.nanoseconds)
            let earliest = VirtualTime(nanoseconds: window.earliest), latest = VirtualTime(nanoseconds: window.latest)
            switch entry.payload {
            case .step(let step, _):
                candidates.append((entry.sequence, ScheduleCandidate(kind: .step, device: step.device, message: nil, step: step.number,
                                                                      time: entry.time, earliest: earliest, latest: latest,
                                                                      deviceNumber: deviceIndex[step.device])))
            case .deliver(let envelope, let receiver):
                // FIFO links: only the oldest copy in flight on its link may arrive next.
                let copy = ScheduleCandidate(kind: .delivery, device: scenario.devices[receiver].name, message: envelope.id, step: nil,
                                             time: entry.time, earliest: earliest, latest: latest, deviceNumber: receiver)
                if let link = link(of: envelope, to: receiver), let oldest = firstOnLink[link], oldest != envelope.id {
                    waiting.append(copy)
                    continue
                }
                candidates.append((entry.sequence, copy))
            case .cloudArrive(let request):
                candidates.append((entry.sequence, ScheduleCandidate(kind: .cloudRequest, device: request.device, message: nil, step: nil,
                                                                      time: entry.time, earliest: earliest, latest: latest,
                                                                      deviceNumber: deviceIndex[request.device],
                                                                      leavesStore: !cloud.changes(by: request))))
            case .cloudAnswer(let response, _):
                candidates.append((entry.sequence, ScheduleCandidate(kind: .cloudAnswer, device: response.request.device, message: nil,
                                                                      step: nil, time: entry.time, earliest: earliest, latest: latest,
                                                                      deviceNumber: deviceIndex[response.request.device])))
            }
        }
        guard !candidates.isEmpty else { return nil }
        let choice = chooser.choose(among: candidates.map(\.candidate), waiting: waiting)
        controller = chooser
        let index = candidates.indices.contains(choice) ? choice : 0
        return queue.remove(sequence: candidates[index].sequence)
    }

    /// The link a copy travels on: sender and receiver as one index.
    private func link(of envelope: Envelope, to receiver: Int) -> Int? {
        deviceIndex[envelope.senderDevice].map { $0 * devices.count + receiver }
    }

    /// Per link, the id of the oldest copy in flight on it (message ids grow in send order).
    private func oldestCopyPerLink(_ pending: [EventQueue<Event>.Entry]) -> [Int: Int] {
        var oldest: [Int: Int] = [:]
        for entry in pending {
            guard case .deliver(let envelope, let receiver) = entry.payload, let link = link(of: envelope, to: receiver) else { continue }
            oldest[link] = min(oldest[link] ?? envelope.id, envelope.id)
        }
        return oldest
    }

    // MARK: - Building the world

    private func build() {
        let factory = apps.factory(for: scenario.app)
        devices = scenario.devices.map { Device(spec: $0, world: world, makeApp: factory, tracing: recordTrace) }
        schedule(scenario.timeline, streams: world.streams)
    }

    /// Schedules every step at its time; a race's inner steps at the race's time plus a
    /// seeded offset in [0, within), one stream per race. Steps at the same instant run in
    /// file order. Under a schedule controller every step waits in the queue from the
    /// start, with its window: its time, or for a race's step the whole race window.
    private func schedule(_ timeline: [TimelineItem], streams: RandomStreams) {
        var timed: [(time: VirtualTime, step: Step, window: TimeWindow)] = []
        var raceNumber = 0
        for item in timeline {
            switch item {
            case .step(let step):
                timed.append((step.time, step, TimeWindow(earliest: step.time.nanoseconds, latest: step.time.nanoseconds)))
            case .race(let race):
                raceNumber += 1
                var generator = streams.stream(.race, String(raceNumber))
                let within = UInt64(max(0, race.within.nanoseconds))
                let window = TimeWindow(earliest: race.time.nanoseconds, latest: race.time.nanoseconds)
                    .shifted(by: 0, spread: max(0, race.within.nanoseconds - 1))
                for step in race.steps {
                    let offset = Int64(clamping: generator.next(below: within))
                    timed.append((race.time + VirtualDuration(nanoseconds: offset), step, window))
                }
            }
        }
        let fallback = scenario.conversations.first?.name ?? ConversationSpec.defaultName
        for entry in timed.enumerated().sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }) {
            let step = entry.element.step
            plannedSteps.append((entry.element.time, .step(step, conversation: step.conversation ?? fallback), entry.element.window))
        }
        firstStepSequence = queue.reserveSequences(plannedSteps.count)
        if !exploring {
            scheduleNextStep()
        } else {
            // Exploration may run any pending step whose window allows it: all wait in the queue.
            for (index, planned) in plannedSteps.enumerated() {
                queue.schedule(planned.event, at: planned.time, reserved: firstStepSequence + UInt64(index))
                windows[firstStepSequence + UInt64(index)] = planned.window
            }
            nextPlannedStep = plannedSteps.count
        }
    }

    /// Puts the next planned step in the queue under the sequence number reserved for it.
    /// The order is that of scheduling every step at the start (the pending steps were
    /// only ever offered earliest first), with one step in the heap instead of all.
    private func scheduleNextStep() {
        guard nextPlannedStep < plannedSteps.count else { return }
        let planned = plannedSteps[nextPlannedStep]
        queue.schedule(planned.event, at: planned.time, reserved: firstStepSequence + UInt64(nextPlannedStep))
        nextPlannedStep += 1
    }

    // MARK: - Steps the network and membership own

    /// Traces the start of a step the simulation carries out itself; devices trace their own.
    private func recordStep(_ step: Step, on subject: String) {
        record(TraceEvent(time: context.now, subject: subject, kind: .step(number: step.number, action: step.action)))
    }

    private func perform(_ step: Step, conversation: String) {
        guard let index = deviceIndex[step.device] else { return }
        let subject = devices[index].name
        switch step.action {
        case .offline:
            recordStep(step, on: subject)
            network.setOffline(index, true)
            record(TraceEvent(time: context.now, subject: subject, kind: .offline))
        case .online:
            recordStep(step, on: subject)
            network.setOffline(index, false)
            record(TraceEvent(time: context.now, subject: subject, kind: .online))
            // Held copies arrive in their original (send) order when the device is back (M30).
            let held = network.held[index].sorted { $0.id < $1.id }
            network.held[index] = []
            for envelope in held { enqueue(.deliver(envelope, to: index), after: .zero) }
            let waiting = network.outbox[index]
            network.outbox[index] = []
            for envelope in waiting { fanOut(envelope, from: index) }
        case .join(let person), .leave(let person):
            recordStep(step, on: subject)
            var list = members[conversation] ?? []
            let owner = scenario.devices[index].person
            guard list.contains(owner) else {
                // Only a member changes the membership; a removed one no longer can (M6).
                record(TraceEvent(time: context.now, subject: subject, kind: .failed(step: step.number, code: .notMember)))
                failures.append(StepFailure(step: step.number, device: subject, time: context.now, code: .notMember,
                                            reason: "\(subject) belongs to \(owner), who is not a member of conversation \(conversation) "
                                                + "now (M6)"))
                return
            }
            if case .join = step.action {
                if !list.contains(person) { list.append(person) }
                record(TraceEvent(time: context.now, subject: subject, kind: .joined(person: person)))
            } else {
                list.removeAll { $0 == person }
                record(TraceEvent(time: context.now, subject: subject, kind: .left(person: person)))
            }
            members[conversation] = list
            memberDevicesCache[conversation] = nil
            for index in devices.indices { devices[index].updateMembers(list, of: conversation) }
        case .send, .reply, .insert, .pressSend, .cancel, .open, .tap, .close, .text, .sticker, .reinstall:
            // The device carries these out; the network and the member list carry out the others.
            let isNew = step.action.compose.map { usedSessions.insert($0.session).inserted } ?? false
            self.step(index) { $0.perform(step, conversation: conversation, sessionIsNew: isNew, into: &$1) }
        }
    }

    // MARK: - Acting on what a device asked for

    /// Makes one call into device `index` with the run's buffer and context, then takes
    /// the context back, acts on what the device asked for and empties the buffer.
    private func step(_ index: Int, _ call: (inout Device, inout DeviceOutput) -> Void) {
        output.context = context
        call(&devices[index], &output)
        context = output.context
        // Most calls (deliveries with the trace off) ask for nothing more.
        guard !output.isEmpty else { return }
        apply(output)
        output.removeAll()
    }

    private func apply(_ output: DeviceOutput) {
        if recordTrace { trace.append(contentsOf: output.events) }
        if !output.failures.isEmpty { failures.append(contentsOf: output.failures) }
        if !output.sightings.isEmpty { sightings.append(contentsOf: output.sightings) }
        if !output.changes.isEmpty { changes.append(contentsOf: output.changes) }
        for envelope in output.outgoing {
            guard let sender = deviceIndex[envelope.senderDevice] else { continue }
            if network.offline[sender] {
                network.outbox[sender].append(envelope)
                record(TraceEvent(time: context.now, subject: envelope.senderDevice, kind: .queued(message: envelope.id)))
            } else {
                fanOut(envelope, from: sender)
            }
        }
        for request in output.cloudRequests {
            enqueue(.cloudArrive(request), after: scenario.app.cloudLatency)
        }
    }

    /// Sends a copy to every other device of every member, the sender's own other devices
    /// included, each with its own delay (M30), in send order per link with `network.fifo`.
    private func fanOut(_ envelope: Envelope, from sender: Int) {
        for receiver in memberDevices(of: envelope.conversation) where receiver != sender {
            if !exploring {
                queue.schedule(.deliver(envelope, to: receiver), at: network.arrival(from: sender, to: receiver, sentAt: context.now))
            } else {
                // Exploration: the controller picks the order; on a FIFO network it is offered
                // only each link's oldest copy (`chosenEvent`).
                let delay = network.delay(from: sender, to: receiver)
                let bounds = network.bounds(from: sender, to: receiver)
                enqueue(.deliver(envelope, to: receiver), after: delay, earliest: bounds.earliest, latest: bounds.latest)
            }
        }
    }

    /// Schedules an event caused by the one being run, `delay` from now. Under a schedule
    /// controller it also records the event's window: the cause's, moved by the least and
    /// the most the delay could be (by default `delay` exactly).
    private func enqueue(_ event: Event, after delay: VirtualDuration, earliest: Int64? = nil, latest: Int64? = nil) {
        let sequence = queue.schedule(event, at: context.now + delay)
        guard exploring else { return }
        let low = earliest ?? delay.nanoseconds
        windows[sequence] = cause.shifted(by: low, spread: max(0, (latest ?? delay.nanoseconds) - low))
    }

    /// The devices of the conversation's members, in member order and each person's
    /// device order; worked out once per membership (a join or leave forgets it).
    private func memberDevices(of conversation: String) -> [Int] {
        if let known = memberDevicesCache[conversation] { return known }
        var found: [Int] = []
        for person in members[conversation] ?? [] {
            guard let owner = scenario.person(person) else { continue }
            found += owner.devices.compactMap { deviceIndex[$0] }
        }
        memberDevicesCache[conversation] = found
        return found
    }

    private func record(_ event: TraceEvent) {
        if recordTrace { trace.append(event) }
    }
}

/// The earliest and latest instants (nanoseconds) an event could happen at, over every
/// latency, jitter and race draw: what exhaustive exploration orders events by.
struct TimeWindow: Sendable, Hashable {
    var earliest: Int64
    var latest: Int64

    /// The window of something `delay` to `delay + spread` after this; saturates at the end of time.
    func shifted(by delay: Int64, spread: Int64) -> TimeWindow {
        let (low, lowOverflow) = earliest.addingReportingOverflow(delay)
        let (high, highOverflow) = latest.addingReportingOverflow(delay)
        let (wide, wideOverflow) = (highOverflow ? Int64.max : high).addingReportingOverflow(spread)
        return TimeWindow(earliest: lowOverflow ? Int64.max : low, latest: highOverflow || wideOverflow ? Int64.max : wide)
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
