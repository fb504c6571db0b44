import GroupSimCore
import GroupSimScenario

/// A part of a run that an engine restarts instead of making anew: `init` sizes its storage
/// and calls `reset(seed:)`, the one definition of a fresh run, which a restart calls alone,
/// keeping the room the last run took.
protocol RunPart {
    mutating func reset(seed: UInt64)
}

/// One run's moving parts, stepped one event at a time: the `World` events change, the
/// `Scheduler` that picks the next event, the `Recorder` that keeps what happened, and the
/// clock with the run's counters, lent to each device call.
///
/// A value the `Simulation` actor owns: the event loop runs inside it as a mutating
/// method, so that reaching the world or the queue on every event is a static access,
/// not the dynamic exclusivity check each access to an actor's stored property makes.
struct Engine {
    typealias Event = Simulation.Event

    var world: World
    var scheduler: Scheduler
    var recorder: Recorder
    private(set) var seed: UInt64
    /// The clock and the run's message and change counters, lent to each device call.
    var context = DeviceContext(now: .zero, nextMessageID: 1, nextChangeID: 1)
    /// The one buffer every device call adds its effects to; emptied after each call.
    private var output = DeviceOutput()
    /// Each scenario conversation's member devices by its position (`World.memberDevices(of:)`),
    /// kept while its members stay: a send reads an array where the world hashes the
    /// conversation's name. Forgotten at a restart and at a join or a leave.
    private var membersByNumber: [[Int]?] = []
    /// The events a run may run (`Simulation.eventLimit`); lower in tests that reach it.
    var eventLimit = Simulation.eventLimit

    /// A run of the scenario `tables` were made for, with `seed`; `controller` picks the
    /// events if there is one, the clock otherwise; `keepsTrace` false keeps no trace.
    init(tables: ScenarioTables, seed: UInt64, controller: (any ScheduleController)?, keepsTrace: Bool) {
        world = World(tables: tables, seed: seed)
        scheduler = Scheduler(controller: controller)
        recorder = Recorder(keepsTrace: keepsTrace, tables: tables)
        self.seed = seed
    }

    var scenario: Scenario { world.scenario }

    /// Builds the devices with the app `factory` makes and plans the steps.
    mutating func start(app factory: AppRegistry.Factory?) {
        world.makeDevices(app: factory, tracing: recorder.keepsTrace)
        scheduler.plan(world.facts.tables.steps, streams: world.facts.streams)
    }

    /// Makes a started engine ready for another run of its scenario, with `seed` and
    /// `controller`: what a new engine with the same tables, app and trace setting is
    /// after `start`, except for the room its last run's devices, queue, network and
    /// records took, which the next run fills again instead of allocating it.
    mutating func restart(seed: UInt64, controller: (any ScheduleController)?) {
        self.seed = seed
        world.reset(seed: seed)
        recorder.reset(seed: seed)
        scheduler.reset(controller: controller)
        context = DeviceContext(now: .zero, nextMessageID: 1, nextChangeID: 1)
        output.removeAll()
        membersByNumber.removeAll(keepingCapacity: true)
        scheduler.plan(world.facts.tables.steps, streams: world.facts.streams)
    }

    /// Runs events until none is left or the event limit is reached.
    mutating func runToEnd() {
        while true {
            // A fan-out's copies on a network with one delay, delivered one after another
            // without asking the queue between them (`Scheduler.takeRunIfNext`).
            if !scheduler.isControlled, var run = scheduler.takeRunIfNext() {
                guard deliverAll(&run) else {
                    scheduler.putBack(run)
                    return
                }
            } else if !runNextEvent() {
                return
            }
        }
    }

    /// Delivers every copy of `run`, each an event as `runNextEvent` runs it; false, with
    /// the rest of the run left in it, when the event limit is reached.
    private mutating func deliverAll(_ run: inout CopyRun) -> Bool {
        context.now = max(context.now, VirtualTime(nanoseconds: run.time))
        while !run.isDone {
            guard recorder.eventCount <= eventLimit else { return false }
            recorder.eventCount += 1
            // One event past the limit is taken, not run, as `runNextEvent` takes it.
            guard recorder.eventCount <= eventLimit else {
                _ = run.takeReceiver()
                return false
            }
            let receiver = run.takeReceiver()
            run.copy.withEnvelope { deliver($0, to: receiver) }
        }
        return true
    }

    /// Runs every event due at or before `time`, then moves the clock to `time` if it is
    /// behind; returns how many events ran.
    mutating func advance(to time: VirtualTime) -> Int {
        var ran = 0
        while let next = scheduler.nextTime, next <= time, runNextEvent() { ran += 1 }
        context.now = max(context.now, time)
        return ran
    }

    /// Runs one event; false when none is left or the event limit is reached.
    mutating func runNextEvent() -> Bool {
        // By the clock, the scheduler needs nothing of the world (passing the tables and the
        // cloud store cost a retain and release per event).
        guard recorder.eventCount <= eventLimit,
              let entry = scheduler.isControlled ? scheduler.next(tables: world.facts.tables, cloud: world.cloud) : scheduler.nextByTime()
        else { return false }
        recorder.eventCount += 1
        // One event past the limit is taken, not run: the run ends there, reported as not quiet.
        guard recorder.eventCount <= eventLimit else { return false }
        context.now = max(context.now, entry.time)
        switch entry.payload {
        case .step(let step, let conversation, let device):
            if let device { perform(step, conversation: conversation, on: device) }
        case .deliver(let copy, let receiver):
            copy.withEnvelope { deliver($0, to: receiver) }
        case .cloudArrive(let request):
            guard let receiver = world.deviceIndex[request.device] else { return true }
            let response = world.cloud.handle(request)
            if response.record.conflict { recorder.cloudConflicts += 1 }
            recorder.record(Simulation.Trace.Event(time: context.now, subject: "cloud",
                                       kind: .cloudHandled(.init(request.operation, conflict: response.record.conflict), key: request.key,
                                                           device: request.device, version: response.record.version),
                                       payload: .cloud(operation: request.operation, record: response.record)))
            scheduler.enqueue(.cloudAnswer(response, to: receiver), at: context.now, after: scenario.app.cloudLatency)
        case .cloudAnswer(let response, let receiver):
            // Before the call: what the app shows is what it read, whatever it does next.
            if case .fetch = response.request.operation, let selected = world.devices[receiver].selectedMessage(naming: response.record.key) {
                recorder.ledger.fetched(response, by: receiver, selected: selected)
            }
            callDevice(receiver) { $0.receive(response) }
        }
        return true
    }

    /// A copy of `envelope` reaches device `receiver`, or waits for it while it is offline (M30).
    private mutating func deliver(_ envelope: Envelope, to receiver: Int) {
        if world.network.offline[receiver] {
            world.network.held[receiver].append(envelope)
            recorder.record(Simulation.Trace.Event(time: context.now, subject: world.devices[receiver].name, kind: .held(message: envelope.id)))
            return
        }
        recorder.copiesDelivered += 1
        // Before the call: what the app does on it (a reply) comes after it.
        recorder.ledger.delivered(envelope, to: receiver, at: context.now)
        if scheduler.isControlled {
            deliverNotingEffects(envelope, to: receiver)
        } else {
            callDevice(receiver) { $0.receive(envelope) }
        }
    }

    /// What the run left: every device's state, the trace, failures and counters.
    mutating func outcome() -> RunOutcome {
        let snapshots = world.snapshots()
        let records = world.cloud.contents().map { key, entry in
            RunOutcome.CloudEntry(key: key, state: entry.state, version: entry.version, provenance: entry.provenance)
        }
        let quiet = recorder.eventCount <= eventLimit
        var outcome = RunOutcome(scenario: scenario, seed: seed, trace: recorder.trace, devices: snapshots, failures: recorder.failures,
                                 sightings: recorder.sightings, changes: recorder.changes, ledger: recorder.ledger, cloud: records,
                                 endTime: context.now,
                                 eventCount: min(recorder.eventCount, eventLimit), copiesDelivered: recorder.copiesDelivered,
                                 heldAtEnd: world.network.held.reduce(0) { $0 + $1.count }, quiet: quiet,
                                 members: scenario.conversations.map {
                                     RunOutcome.ConversationMembers(conversation: $0.name, members: world.members[$0.name] ?? [])
                                 })
        outcome.cloudConflicts = recorder.cloudConflicts
        outcome.live = world.live
        return outcome
    }

    // MARK: - Steps the network and membership own

    /// Traces the start of a step the simulation carries out itself; devices trace their own.
    private mutating func recordStep(_ step: Scenario.Step, on subject: String) {
        recorder.record(Simulation.Trace.Event(time: context.now, subject: subject, kind: .step(number: step.number, action: step.action)))
    }

    private mutating func perform(_ step: Scenario.Step, conversation: String, on index: Int) {
        recorder.ledger.began(step: step.number, on: index, at: context.now)
        switch step.action {
        case .send(let compose), .reply(let compose), .insert(let compose):
            // The device carries these out. The session's name alone is read here: the
            // action's `compose` copied the whole compose step (each text retained and released).
            let isNew = world.usedSessions.insert(compose.session).inserted
            callDevice(index) { $0.perform(step, conversation: conversation, sessionIsNew: isNew) }
        case .pressSend, .cancel, .open, .tap, .close, .text, .sticker, .reinstall:
            callDevice(index) { $0.perform(step, conversation: conversation, sessionIsNew: false) }
        case .offline, .online, .join, .leave:
            performOnNetwork(step, conversation: conversation, on: index)
        }
    }

    /// The steps the network and the member list carry out: they trace their own start.
    private mutating func performOnNetwork(_ step: Scenario.Step, conversation: String, on index: Int) {
        let subject = world.devices[index].name
        switch step.action {
        case .offline:
            recordStep(step, on: subject)
            world.network.setOffline(index, true)
            recorder.record(Simulation.Trace.Event(time: context.now, subject: subject, kind: .offline))
        case .online:
            recordStep(step, on: subject)
            world.network.setOffline(index, false)
            recorder.record(Simulation.Trace.Event(time: context.now, subject: subject, kind: .online))
            // Held copies arrive in their original (send) order when the device is back (M30).
            let held = world.network.held[index].sorted { $0.id < $1.id }
            world.network.held[index] = []
            for envelope in held { scheduler.deliverHeld(envelope, to: index, at: context.now) }
            let waiting = world.network.outbox[index]
            world.network.outbox[index] = []
            for envelope in waiting { fanOut(envelope, from: index) }
        case .join(let person), .leave(let person):
            recordStep(step, on: subject)
            var list = world.members[conversation] ?? []
            let owner = scenario.devices[index].person
            guard list.contains(owner) else {
                // Only a member changes the membership; a removed one no longer can (M6).
                recorder.record(Simulation.Trace.Event(time: context.now, subject: subject, kind: .failed(step: step.number, code: .notMember)))
                recorder.fail(RunOutcome.StepFailure(step: step.number, device: subject, time: context.now, code: .notMember,
                                          reason: RunOutcome.StepFailure.notMemberReason(device: subject, person: owner, conversation: conversation),
                                          rule: "M6"))
                return
            }
            if case .join = step.action {
                if !list.contains(person) { list.append(person) }
                recorder.record(Simulation.Trace.Event(time: context.now, subject: subject, kind: .joined(person: person)))
            } else {
                list.removeAll { $0 == person }
                recorder.record(Simulation.Trace.Event(time: context.now, subject: subject, kind: .left(person: person)))
            }
            world.setMembers(list, of: conversation)
            membersByNumber.removeAll(keepingCapacity: true)
        case .send, .reply, .insert, .pressSend, .cancel, .open, .tap, .close, .text, .sticker, .reinstall:
            break // The device's (`perform`).
        }
    }

    // MARK: - Acting on what a device asked for

    /// Makes one call into device `index` with the run's buffer and context, then takes
    /// the context back, acts on what the device asked for and empties the buffer.
    private mutating func callDevice(_ index: Int, _ call: (inout DeviceCall) -> Void) {
        world.call(index, context: &context, output: &output, call)
        // Most calls (deliveries with the trace off) ask for nothing more.
        if !output.isEmpty { applyAndEmptyOutput() }
    }

    /// A copy reaching a device under a controller, which is told what the device's app
    /// did on it (`ScheduleEffect`): what it sent, staged, asked of the cloud store or
    /// wrote to its storage, and what failed.
    private mutating func deliverNotingEffects(_ envelope: Envelope, to receiver: Int) {
        let drafts = world.devices[receiver].draftChanges
        let writes = world.devices[receiver].environment.storage.writeCount
        world.call(receiver, context: &context, output: &output) { $0.receive(envelope) }
        var effects: [ScheduleEffect] = []
        if !output.outgoing.isEmpty { effects.append(.send) }
        if world.devices[receiver].draftChanges != drafts { effects.append(.insert) }
        for request in output.cloudRequests {
            let effect: ScheduleEffect = if case .fetch = request.operation { .cloudRead } else { .cloudWrite }
            if !effects.contains(effect) { effects.append(effect) }
        }
        if world.devices[receiver].environment.storage.writeCount != writes { effects.append(.storageWrite) }
        for failure in output.failures where !effects.contains(.failure(failure.code)) { effects.append(.failure(failure.code)) }
        if !effects.isEmpty { scheduler.note(effects, on: receiver) }
        if !output.isEmpty { applyAndEmptyOutput() }
    }

    private mutating func applyAndEmptyOutput() {
        apply(output)
        output.removeAll()
    }

    private mutating func apply(_ output: DeviceOutput) {
        recorder.keep(output)
        for envelope in output.outgoing {
            guard let sender = world.facts.tables.sender(of: envelope) else { continue }
            recorder.ledger.sent(envelope, by: sender, at: context.now)
            if world.network.offline[sender] {
                world.network.outbox[sender].append(envelope)
                recorder.record(Simulation.Trace.Event(time: context.now, subject: envelope.senderDevice, kind: .queued(message: envelope.id)))
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
    private mutating func fanOut(_ envelope: Envelope, from sender: Int) {
        scheduler.fanOut(envelope, from: sender, to: memberDevices(of: envelope), at: context.now, network: &world.network)
    }

    /// The devices of the members of the envelope's conversation, as `World.memberDevices(of:)`
    /// gives them: kept by the conversation's position for the next send.
    private mutating func memberDevices(of envelope: Envelope) -> [Int] {
        let number = envelope.conversationNumber
        if number >= 0, number < membersByNumber.count, let known = membersByNumber[number] { return known }
        let devices = world.memberDevices(of: envelope.conversation)
        guard number >= 0 else { return devices }
        membersByNumber.grow(toInclude: number, with: nil)
        membersByNumber[number] = devices
        return devices
    }
}
