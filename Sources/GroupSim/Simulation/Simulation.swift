/// One run of a scenario with one seed: builds the world, runs the event loop on virtual
/// time until nothing is in flight, and returns what happened.
///
/// The loop pops events in (time, sequence) order (DESIGN.md rule 3) and awaits one
/// device call at a time; devices and the cloud store share this actor's executor, so
/// only one of them runs at any moment and the same seed always gives the same trace.
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

    private var queue = EventQueue<Event>()
    /// Every step in the order it runs (time, then file order); only the next one waits in
    /// the queue, under the sequence number reserved for it at the start.
    private var plannedSteps: [(time: VirtualTime, event: Event)] = []
    private var nextPlannedStep = 0
    private var firstStepSequence: UInt64 = 0
    private var devices: [Device] = []
    private var deviceIndex: [String: Int] = [:]
    private var network: Network
    private var cloud: CloudStore?
    private var members: [String: [String]]
    /// `memberDevices(of:)` by conversation.
    private var memberDevicesCache: [String: [Int]] = [:]
    private var usedSessions: Set<String> = []
    private var context = DeviceContext(now: .zero, nextMessageID: 1, nextChangeID: 1)
    private var trace = Trace()
    private var failures: [StepFailure] = []
    private var sightings: [PitfallSighting] = []
    private var changes: [Change] = []
    private var copiesDelivered = 0
    private var eventCount = 0

    /// - Parameters:
    ///   - seed: overrides the scenario's seed (`--seed`).
    ///   - apps: the registered apps the scenario may name.
    ///   - recordTrace: false skips keeping events (benchmarks); the digest is then of nothing.
    ///   - controller: picks which pending event runs next instead of virtual time
    ///     (schedule exploration); nil runs in (time, sequence) order.
    public init(scenario: Scenario, seed: UInt64? = nil, apps: AppRegistry = AppRegistry(), recordTrace: Bool = true,
                controller: (any ScheduleController)? = nil) {
        self.controller = controller
        self.scenario = scenario
        self.seed = seed ?? scenario.seed
        self.apps = apps
        self.recordTrace = recordTrace
        let streams = RandomStreams(seed: seed ?? scenario.seed)
        network = Network(spec: scenario.network, devices: scenario.devices, streams: streams)
        members = Dictionary(scenario.conversations.map { ($0.name, $0.members) }, uniquingKeysWith: { first, _ in first })
    }

    /// The schedule controller as it stands after `run()`: exploration reads back what it
    /// recorded (controllers are values, so the run's copy is the only one that saw it).
    public var scheduleController: (any ScheduleController)? { controller }

    /// Runs the scenario to quiescence (no message or cloud request in flight).
    public func run() async -> RunOutcome {
        build()
        while let entry = nextEvent() {
            eventCount += 1
            if eventCount > Self.eventLimit { break }
            context.now = max(context.now, entry.time)
            switch entry.payload {
            case .step(let step, let conversation):
                await perform(step, conversation: conversation)
            case .deliver(let envelope, let receiver):
                if network.offline[receiver] {
                    network.held[receiver].append(envelope)
                    record(TraceEvent(time: context.now, subject: devices[receiver].name, kind: .held(message: envelope.id)))
                } else {
                    copiesDelivered += 1
                    apply(await devices[receiver].receive(envelope, context: context))
                }
            case .cloudArrive(let request):
                guard let cloud, let receiver = deviceIndex[request.device] else { continue }
                let response = await cloud.handle(request)
                let operation = if case .store = request.operation { response.record.conflict ? "refused store" : "store" } else { "fetch" }
                record(TraceEvent(time: context.now, subject: "cloud",
                                  kind: .cloud("\(operation) \(request.key) from \(request.device) -> v\(response.record.version)")))
                queue.schedule(.cloudAnswer(response, to: receiver), at: context.now + scenario.app.cloudLatency)
            case .cloudAnswer(let response, let receiver):
                apply(await devices[receiver].receive(response, context: context))
            }
        }
        var snapshots: [DeviceSnapshot] = []
        for device in devices { snapshots.append(await device.snapshot()) }
        var records: [CloudEntry] = []
        if let cloud {
            for (key, entry) in await cloud.contents() {
                records.append(CloudEntry(key: key, state: entry.state, version: entry.version, provenance: entry.provenance))
            }
        }
        let quiet = eventCount <= Self.eventLimit
        return RunOutcome(scenario: scenario, seed: seed, trace: trace, devices: snapshots, failures: failures,
                          sightings: sightings, changes: changes, cloud: records, endTime: context.now,
                          eventCount: min(eventCount, Self.eventLimit), copiesDelivered: copiesDelivered,
                          heldAtEnd: network.held.map(\.count).reduce(0, +), quiet: quiet,
                          members: scenario.conversations.map { ($0.name, members[$0.name] ?? []) })
    }

    /// The next event: the earliest, or the controller's choice among the enabled ones:
    /// every pending delivery and cloud message, and the earliest pending step (user
    /// actions keep their order). Time never goes backwards: a chosen event that was due
    /// earlier runs at the current instant.
    private func nextEvent() -> EventQueue<Event>.Entry? {
        let entry = controller == nil ? queue.next() : chosenEvent()
        if let entry, case .step = entry.payload { scheduleNextStep() }
        return entry
    }

    /// The controller's choice among the enabled events, removed from the queue.
    private func chosenEvent() -> EventQueue<Event>.Entry? {
        guard var chooser = controller else { return queue.next() }
        let pending = queue.pending
        var candidates: [(sequence: UInt64, candidate: ScheduleCandidate)] = []
        var stepOffered = false
        for entry in pending {
            switch entry.payload {
            case .step(let step, _):
                guard !stepOffered else { continue }
                stepOffered = true
                candidates.append((entry.sequence, ScheduleCandidate(kind: .step, device: step.device, message: nil, step: step.number, time: entry.time)))
            case .deliver(let envelope, let receiver):
                candidates.append((entry.sequence, ScheduleCandidate(kind: .delivery, device: scenario.devices[receiver].name,
                                                                      message: envelope.id, step: nil, time: entry.time)))
            case .cloudArrive(let request):
                candidates.append((entry.sequence, ScheduleCandidate(kind: .cloudRequest, device: request.device, message: nil, step: nil, time: entry.time)))
            case .cloudAnswer(let response, _):
                candidates.append((entry.sequence, ScheduleCandidate(kind: .cloudAnswer, device: response.request.device, message: nil, step: nil, time: entry.time)))
            }
        }
        guard !candidates.isEmpty else { return nil }
        let choice = chooser.choose(among: candidates.map(\.candidate))
        controller = chooser
        let index = candidates.indices.contains(choice) ? choice : 0
        return queue.remove(sequence: candidates[index].sequence)
    }

    // MARK: - Building the world

    private func build() {
        let world = WorldFacts(scenario: scenario, seed: seed)
        let factory = apps.factory(for: scenario.app)
        for (index, spec) in scenario.devices.enumerated() {
            devices.append(Device(spec: spec, world: world, makeApp: factory, host: self, tracing: recordTrace))
            deviceIndex[spec.name] = index
        }
        cloud = CloudStore(host: self)
        schedule(scenario.timeline, streams: world.streams)
    }

    /// Schedules every step at its time; a race's inner steps at the race's time plus a
    /// seeded offset in [0, within), one stream per race. Steps at the same instant run in
    /// file order (SCENARIO-FORMAT.md).
    private func schedule(_ timeline: [TimelineItem], streams: RandomStreams) {
        var timed: [(time: VirtualTime, step: Step)] = []
        var raceNumber = 0
        for item in timeline {
            switch item {
            case .step(let step):
                timed.append((step.time, step))
            case .race(let race):
                raceNumber += 1
                var generator = streams.stream(.race, String(raceNumber))
                let within = UInt64(max(0, race.within.nanoseconds))
                for step in race.steps {
                    let offset = Int64(clamping: generator.next(below: within))
                    timed.append((race.time + VirtualDuration(nanoseconds: offset), step))
                }
            }
        }
        let fallback = scenario.conversations.first?.name ?? ConversationSpec.defaultName
        for entry in timed.enumerated().sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }) {
            plannedSteps.append((entry.element.time, .step(entry.element.step, conversation: entry.element.step.conversation ?? fallback)))
        }
        firstStepSequence = queue.reserveSequences(plannedSteps.count)
        scheduleNextStep()
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
        record(TraceEvent(time: context.now, subject: subject, kind: .step(number: step.number, action: step.summary)))
    }

    private func perform(_ step: Step, conversation: String) async {
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
            for envelope in held { queue.schedule(.deliver(envelope, to: index), at: context.now) }
            let waiting = network.outbox[index]
            network.outbox[index] = []
            for envelope in waiting { fanOut(envelope, from: index) }
        case .join(let person), .leave(let person):
            recordStep(step, on: subject)
            var list = members[conversation] ?? []
            if case .join = step.action {
                if !list.contains(person) { list.append(person) }
                record(TraceEvent(time: context.now, subject: subject, kind: .joined(person: person)))
            } else {
                list.removeAll { $0 == person }
                record(TraceEvent(time: context.now, subject: subject, kind: .left(person: person)))
            }
            members[conversation] = list
            memberDevicesCache[conversation] = nil
            for device in devices { await device.updateMembers(list, of: conversation) }
        default:
            var isNew = false
            switch step.action {
            case .send(let compose), .insert(let compose), .reply(let compose):
                isNew = usedSessions.insert(compose.session).inserted
            default:
                break
            }
            apply(await devices[index].perform(step, conversation: conversation, sessionIsNew: isNew, context: context))
        }
    }

    // MARK: - Acting on what a device asked for

    private func apply(_ output: DeviceOutput) {
        context = output.context
        if recordTrace { trace.append(contentsOf: output.events) }
        // Most calls (deliveries) bring none of these: skip the stored properties' access.
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
            queue.schedule(.cloudArrive(request), at: context.now + scenario.app.cloudLatency)
        }
    }

    /// Sends a copy to every other device of every member, the sender's own other devices
    /// included, each with its own delay (M30).
    private func fanOut(_ envelope: Envelope, from sender: Int) {
        for receiver in memberDevices(of: envelope.conversation) where receiver != sender {
            let delay = network.delay(from: sender, to: receiver)
            queue.schedule(.deliver(envelope, to: receiver), at: context.now + delay)
        }
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

extension Step {
    /// A short form of the step for the timeline: `send poll`, `reply poll`, `reinstall`.
    public var summary: String {
        switch action {
        case .send(let compose): "send \(compose.session)\(compose.direct ? " (direct)" : "")"
        case .reply(let compose): "reply \(compose.session)\(compose.direct ? " (direct)" : "")"
        case .insert(let compose): "insert \(compose.session)"
        case .pressSend: "press-send"
        case .cancel: "cancel"
        case .open(let style): "open \(style.rawValue)"
        case .tap(let session): "tap \(session)"
        case .close: "close"
        case .text: "text"
        case .sticker: "sticker"
        case .reinstall: "reinstall"
        case .offline: "offline"
        case .online: "online"
        case .join(let person): "join \(person)"
        case .leave(let person): "leave \(person)"
        }
    }
}
