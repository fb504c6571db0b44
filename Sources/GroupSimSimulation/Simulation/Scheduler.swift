import GroupSimCore
import GroupSimScenario

/// The events waiting to run and which one runs next: a strategy in place of a flag.
///
/// - `timeOrdered`: the earliest (time, then sequence: determinism rule 3, README). Only
///   the next user step waits in the queue; the others wait in `plannedSteps`.
/// - `controlled`: a `ScheduleController` picks among every enabled event (schedule
///   exploration). Each pending event carries the window in which it could happen
///   whatever the latency, jitter and race draws, and the events it causes inherit it.
struct Scheduler {
    enum Strategy {
        case timeOrdered
        case controlled(any ScheduleController)

        var isControlled: Bool {
            if case .controlled = self { return true }
            return false
        }
    }

    private(set) var strategy = Strategy.timeOrdered {
        didSet { isControlled = strategy.isControlled }
    }
    /// Whether a controller picks the events, kept beside the strategy: asked for every
    /// event and every copy scheduled, where matching the strategy's case copied it (its
    /// existential) and destroyed the copy, about 3% of a delivered copy's cost.
    private(set) var isControlled = false
    private var queue = EventQueue<Simulation.Event>()
    /// The scenario's steps (their events and windows, made once per scenario) and the
    /// order this run takes them in (time, then file order), each under the sequence
    /// number reserved for it at the start.
    private var steps: StepPlan?
    private var plannedSteps: [StepPlan.Planned] = []
    private var nextPlannedStep = 0
    private var firstStepSequence: UInt64 = 0
    /// Under a controller: each pending event's window by sequence number, and the window
    /// of the event being run.
    private var windows: [UInt64: TimeWindow] = [:]
    private var cause = TimeWindow(earliest: 0, latest: 0)
    /// The lists `chosenEvent` fills for each event, kept for their storage.
    private var offered: [ScheduleCandidate] = []
    private var offeredSequences: [UInt64] = []
    private var waitingCopies: [ScheduleCandidate] = []
    /// Every message a copy in the queue may name (`CopyInFlight`), held once per fan-out
    /// (and per held copy sent on) until the next run: the copies name it unretained.
    private var carried: [Envelope] = []
    /// By the clock on a network whose every link has one delay: each fan-out's copies,
    /// waiting as one run outside the heap (`CopyRun`), earliest first, from `firstRun` on.
    private var runs: [CopyRun] = []
    private var firstRun = 0

    init(controller: (any ScheduleController)?) {
        reset(controller: controller)
    }

    /// Makes the scheduler what `init(controller:)` makes, for another run of the same
    /// scenario (`plan` comes next), keeping the room its queue and lists took.
    mutating func reset(controller: (any ScheduleController)?) {
        strategy = controller.map { .controlled($0) } ?? .timeOrdered
        queue.reset(seed: 0)
        // The queue holds no copy any more: the messages they named may go.
        carried.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        firstRun = 0
        // A controller is offered every pending event in order, for every event.
        queue.keepsOrder = isControlled
        steps = nil
        plannedSteps.removeAll(keepingCapacity: true)
        nextPlannedStep = 0
        firstStepSequence = 0
        windows.removeAll(keepingCapacity: true)
        cause = TimeWindow(earliest: 0, latest: 0)
    }

    /// Takes the controller out, leaving the scheduler time-ordered: what a run that is
    /// over hands back, so that nothing else holds the controller (and what it shares).
    mutating func takeController() -> (any ScheduleController)? {
        let taken = controller
        strategy = .timeOrdered
        return taken
    }

    /// Tells the controller what the app of `device` did on the copy that just reached it.
    mutating func note(_ effects: [ScheduleEffect], on device: Int) {
        guard case .controlled(var controller) = strategy else { return }
        controller.noted(effects, on: device)
        strategy = .controlled(controller)
    }

    /// The controller as it stands now (controllers are values: the run's copy is the one that saw it).
    var controller: (any ScheduleController)? {
        if case .controlled(let controller) = strategy { return controller }
        return nil
    }

    /// The time of the next event by the clock, if any (what `advance(to:)` compares).
    var nextTime: VirtualTime? {
        guard firstRun < runs.count else { return queue.peekTime }
        let run = runs[firstRun].time
        return VirtualTime(nanoseconds: queue.first.map { min($0.time, run) } ?? run)
    }

    /// The events in the queue and the copies waiting in runs, in the order the clock would
    /// run them (`Simulation.pending`).
    var queued: [EventQueue<Simulation.Event>.Entry] {
        guard firstRun < runs.count else { return queue.pending }
        var all = queue.pending
        for run in runs[firstRun...] { all.append(contentsOf: run.remaining) }
        all.sort { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
        return all
    }

    // MARK: - Planning the steps

    /// Schedules every step at its time; a race's inner steps at the race's time plus a
    /// seeded offset in [0, within), one stream per race. Steps at the same instant run in
    /// file order. Under a controller every step waits in the queue from the start, with
    /// its window: its time, or for a race's step the whole race window.
    mutating func plan(_ steps: StepPlan, streams: RandomStreams) {
        self.steps = steps
        plannedSteps = steps.order(streams: streams)
        firstStepSequence = queue.reserveSequences(plannedSteps.count)
        guard isControlled else {
            scheduleNextStep()
            return
        }
        // Exploration may run any pending step whose window allows it: all wait in the queue.
        for (index, planned) in plannedSteps.enumerated() {
            let entry = steps.entries[planned.entry]
            queue.schedule(entry.event, at: planned.time, reserved: firstStepSequence + UInt64(index))
            windows[firstStepSequence + UInt64(index)] = entry.window
        }
        nextPlannedStep = plannedSteps.count
    }

    /// Puts the next planned step in the queue under the sequence number reserved for it.
    /// The order is that of scheduling every step at the start (the pending steps were
    /// only ever offered earliest first), with one step in the heap instead of all.
    private mutating func scheduleNextStep() {
        // The step's event is read where it lies: binding the plan copied (and retained and
        // released) its tables on every step.
        guard nextPlannedStep < plannedSteps.count, let event = steps?.entries[plannedSteps[nextPlannedStep].entry].event else { return }
        let planned = plannedSteps[nextPlannedStep]
        queue.schedule(event, at: planned.time, reserved: firstStepSequence + UInt64(nextPlannedStep))
        nextPlannedStep += 1
    }

    // MARK: - Adding events

    /// Schedules an event caused by the one being run, `delay` after `now`. Under a
    /// controller it also records the event's window: the cause's, moved by the least and
    /// the most the delay could be (by default `delay` exactly).
    mutating func enqueue(_ event: Simulation.Event, at now: VirtualTime, after delay: VirtualDuration,
                          earliest: Int64? = nil, latest: Int64? = nil) {
        let sequence = queue.schedule(event, at: now + delay)
        guard isControlled else { return }
        let low = earliest ?? delay.nanoseconds
        windows[sequence] = cause.shifted(by: low, spread: max(0, (latest ?? delay.nanoseconds) - low))
    }

    /// Schedules a copy of `envelope` from `sender` to each of `receivers` but the sender,
    /// as `deliver` does one by one.
    ///
    /// By the clock on a network whose every link has one delay (no jitter, no FIFO order
    /// to keep), every copy arrives at one instant, worked out once, under consecutive
    /// sequence numbers in the receivers' order: what scheduling them one by one gives.
    /// They wait as one run (`CopyRun`) instead of one heap event each. The delay is the
    /// run's and the clock never goes back, so each run is due no earlier than the one
    /// before it, with later sequence numbers: the runs stay in order in a list, and the
    /// next event is the earlier of the heap's first and the first run's next copy.
    mutating func fanOut(_ envelope: Envelope, from sender: Int, to receivers: [Int], at now: VirtualTime, network: inout Network) {
        let copy = carry(envelope)
        if !isControlled, !network.fifo, let delay = network.fixedDelay {
            let arrival = (now + delay).nanoseconds
            guard runs.last.map({ $0.time <= arrival }) ?? true else {
                // Not reached while the delay is fixed; one by one keeps the order if it were.
                for receiver in receivers where receiver != sender { queue.schedule(.deliver(copy, to: receiver), at: VirtualTime(nanoseconds: arrival)) }
                return
            }
            let count = receivers.reduce(0) { $1 == sender ? $0 : $0 + 1 }
            guard count > 0 else { return }
            runs.append(CopyRun(time: arrival, sequence: queue.reserveSequences(count), copy: copy, receivers: receivers, sender: sender))
            return
        }
        for receiver in receivers where receiver != sender { deliver(copy, from: sender, to: receiver, at: now, network: &network) }
    }

    /// Schedules a copy of `envelope`, held for an offline device that is back, `after`
    /// `now` (M30).
    mutating func deliverHeld(_ envelope: Envelope, to receiver: Int, at now: VirtualTime) {
        enqueue(.deliver(carry(envelope), to: receiver), at: now, after: .zero)
    }

    /// Holds `envelope` for the copies about to name it.
    private mutating func carry(_ envelope: Envelope) -> CopyInFlight {
        carried.append(envelope)
        return CopyInFlight(envelope)
    }

    /// Schedules the copy from `sender` to `receiver`: by the clock, at its arrival (in
    /// send order per link with `network.fifo`); under a controller, with the window of
    /// every delay the link allows (`next` offers only each FIFO link's oldest).
    private mutating func deliver(_ copy: CopyInFlight, from sender: Int, to receiver: Int, at now: VirtualTime, network: inout Network) {
        guard isControlled else {
            queue.schedule(.deliver(copy, to: receiver), at: network.arrival(from: sender, to: receiver, sentAt: now))
            return
        }
        let delay = network.delay(from: sender, to: receiver)
        let bounds = network.bounds(from: sender, to: receiver)
        enqueue(.deliver(copy, to: receiver), at: now, after: delay, earliest: bounds.earliest, latest: bounds.latest)
    }

    // MARK: - Taking the next event

    /// The next event, removed from the queue: the earliest, or the controller's choice
    /// among the enabled ones (every pending delivery and cloud message, and the earliest
    /// pending step: user actions keep their order). Under a controller the event's
    /// window becomes the cause of the events it adds.
    ///
    /// Takes the tables and the cloud store rather than the whole world: passing the world
    /// by value would copy it for every event.
    mutating func next(tables: ScenarioTables, cloud: CloudStore) -> EventQueue<Simulation.Event>.Entry? {
        guard case .controlled(var chooser) = strategy else { return nextByTime() }
        // The chooser is the only copy while it records its choice: what it keeps is not copied.
        strategy = .timeOrdered
        let entry = chosenEvent(by: &chooser, tables: tables, cloud: cloud)
        strategy = .controlled(chooser)
        if let entry {
            cause = windows.removeValue(forKey: entry.sequence) ?? TimeWindow(earliest: entry.time.nanoseconds,
                                                                             latest: entry.time.nanoseconds)
        }
        return entry
    }

    /// The earliest event, removed from the queue or its run (the time-ordered strategy).
    mutating func nextByTime() -> EventQueue<Simulation.Event>.Entry? {
        if firstRunIsNext { return nextCopyOfRun() }
        let entry = queue.next()
        if let entry, case .step = entry.payload { scheduleNextStep() }
        return entry
    }

    /// Whether the first run's next copy comes before every event in the heap.
    private var firstRunIsNext: Bool {
        firstRun < runs.count && (queue.first.map { runs[firstRun].precedes($0) } ?? true)
    }

    /// The first run's next copy, taken from it; the run is done after its last.
    private mutating func nextCopyOfRun() -> EventQueue<Simulation.Event>.Entry {
        let entry = runs[firstRun].take()
        if runs[firstRun].isDone { passFirstRun() }
        return entry
    }

    /// By the clock, when the first run's next copy is the next event: the run, taken
    /// whole. Its copies are the next events, one after another, whatever they cause:
    /// every pending event that is not one of them comes after the last (a later time, or
    /// the same time and a later sequence number), and so does every event they add,
    /// which is scheduled no earlier than now and numbered after them.
    mutating func takeRunIfNext() -> CopyRun? {
        guard firstRunIsNext else { return nil }
        let run = runs[firstRun]
        passFirstRun()
        return run
    }

    /// Puts back, first, what is left of a run `takeRunIfNext` gave (a run stopped at the event limit).
    mutating func putBack(_ run: CopyRun) {
        guard !run.isDone else { return }
        runs.insert(run, at: firstRun)
    }

    /// Moves past the first run, which is done; the runs before the first are done, and
    /// their room is reused once they are half the list, or all of it: a list with no run
    /// left to take is empty, so a new run is appended to an empty list.
    private mutating func passFirstRun() {
        firstRun += 1
        if firstRun == runs.count || (firstRun >= 64 && 2 * firstRun >= runs.count) {
            runs.removeSubrange(0..<firstRun)
            firstRun = 0
        }
    }

    /// The controller's choice among the enabled events, removed from the queue.
    private mutating func chosenEvent(by chooser: inout any ScheduleController, tables: ScenarioTables,
                                      cloud: CloudStore) -> EventQueue<Simulation.Event>.Entry? {
        let scenario = tables.scenario
        let deviceIndex = tables.deviceIndex
        let pending = queue.pending
        let firstOnLink = scenario.network.fifo ? Self.oldestCopyPerLink(pending, tables: tables) : [:]
        // The lists are kept between events and emptied, not made anew for each one.
        var candidates = offered, sequences = offeredSequences, waiting = waitingCopies
        offered = []
        offeredSequences = []
        waitingCopies = []
        candidates.removeAll(keepingCapacity: true)
        sequences.removeAll(keepingCapacity: true)
        waiting.removeAll(keepingCapacity: true)
        defer {
            offered = candidates
            offeredSequences = sequences
            waitingCopies = waiting
        }
        for entry in pending {
            let window = windows[entry.sequence] ?? TimeWindow(earliest: entry.time.nanoseconds, latest: entry.time.nanoseconds)
            let earliest = VirtualTime(nanoseconds: window.earliest), latest = VirtualTime(nanoseconds: window.latest)
            let candidate: ScheduleCandidate
            switch entry.payload {
            case .step(let step, _, let device):
                candidate = ScheduleCandidate(kind: .step, device: step.device, message: nil, step: step.number, time: entry.time,
                                              earliest: earliest, latest: latest, deviceNumber: device)
            case .deliver(let copy, let receiver):
                let envelope = copy.envelope
                candidate = ScheduleCandidate(kind: .delivery, device: scenario.devices[receiver].name, message: envelope.id, step: nil,
                                              time: entry.time, earliest: earliest, latest: latest, deviceNumber: receiver)
                // FIFO links: only the oldest copy in flight on its link may arrive next; the
                // others are told to the controller as waiting.
                if let link = tables.link(of: envelope, to: receiver), let oldest = firstOnLink[link], oldest != envelope.id {
                    waiting.append(candidate)
                    continue
                }
            case .cloudArrive(let request):
                candidate = ScheduleCandidate(kind: .cloudRequest, device: request.device, message: nil, step: nil, time: entry.time,
                                              earliest: earliest, latest: latest, deviceNumber: deviceIndex[request.device],
                                              leavesStore: !cloud.changes(by: request))
            case .cloudAnswer(let response, _):
                candidate = ScheduleCandidate(kind: .cloudAnswer, device: response.request.device, message: nil, step: nil,
                                              time: entry.time, earliest: earliest, latest: latest,
                                              deviceNumber: deviceIndex[response.request.device])
            }
            candidates.append(candidate)
            sequences.append(entry.sequence)
        }
        guard !candidates.isEmpty else { return nil }
        let choice = chooser.choose(among: candidates, waiting: waiting)
        let index = candidates.indices.contains(choice) ? choice : 0
        return queue.remove(sequence: sequences[index])
    }

    /// Per link, the id of the oldest copy in flight on it (message ids grow in send order).
    private static func oldestCopyPerLink(_ pending: [EventQueue<Simulation.Event>.Entry], tables: ScenarioTables) -> [Int: Int] {
        var oldest: [Int: Int] = [:]
        for entry in pending {
            guard case .deliver(let copy, let receiver) = entry.payload, let link = tables.link(of: copy.envelope, to: receiver) else {
                continue
            }
            let id = copy.envelope.id
            oldest[link] = min(oldest[link] ?? id, id)
        }
        return oldest
    }
}

/// When an event could happen at the earliest and the latest, in nanoseconds.
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

/// A fan-out's copies by the clock on a network with one delay: every copy to `receivers`
/// but the sender, all due at `time`, under consecutive sequence numbers from the first
/// one's, in the receivers' order. The copies still to come are those from `next` on.
struct CopyRun {
    let time: Int64
    private(set) var sequence: UInt64
    let copy: CopyInFlight
    let receivers: [Int]
    let sender: Int
    private(set) var next: Int

    init(time: Int64, sequence: UInt64, copy: CopyInFlight, receivers: [Int], sender: Int) {
        self.time = time
        self.sequence = sequence
        self.copy = copy
        self.receivers = receivers
        self.sender = sender
        next = 0
        skipSender()
    }

    var isDone: Bool { next >= receivers.count }

    /// Whether the next copy comes before the heap event with key `key`, by (time, sequence)
    /// as the heap orders its keys.
    func precedes(_ key: EventQueue<Simulation.Event>.Key) -> Bool { (time, sequence) < (key.time, key.sequence) }

    /// The next copy as the queue's entry, and the run moved past it.
    mutating func take() -> EventQueue<Simulation.Event>.Entry {
        let sequence = sequence
        return EventQueue<Simulation.Event>.Entry(time: VirtualTime(nanoseconds: time), sequence: sequence,
                                                  payload: .deliver(copy, to: takeReceiver()))
    }

    /// The next copy's receiver, and the run moved past it.
    mutating func takeReceiver() -> Int {
        let receiver = receivers[next]
        sequence += 1
        next += 1
        skipSender()
        return receiver
    }

    private mutating func skipSender() {
        while next < receivers.count, receivers[next] == sender { next += 1 }
    }

    /// The copies still to come, as the queue's entries.
    var remaining: [EventQueue<Simulation.Event>.Entry] {
        var rest = self
        var entries: [EventQueue<Simulation.Event>.Entry] = []
        while !rest.isDone { entries.append(rest.take()) }
        return entries
    }
}

/// A copy of a message in the queue: the message, unretained. Every copy went through the
/// scheduler, which holds its message (`Scheduler.carried`) until its queue is emptied for
/// the next run, so the message outlives the copy; what the queue moves is then a plain
/// value, where a reference retained the message when each copy was scheduled and released
/// it when it was delivered (two atomic counts per copy).
struct CopyInFlight: @unchecked Sendable {
    private let message: Unmanaged<Envelope>

    fileprivate init(_ envelope: Envelope) { message = .passUnretained(envelope) }

    /// The message, as a reference of its own.
    var envelope: Envelope { message.takeUnretainedValue() }

    /// Lends the message to `body` without counting a reference: the path every copy takes.
    func withEnvelope<Result>(_ body: (Envelope) -> Result) -> Result {
        message._withUnsafeGuaranteedRef(body)
    }
}
