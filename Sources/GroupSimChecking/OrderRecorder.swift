import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// The schedule controller of exhaustive exploration: replays a prefix of choices, then
/// keeps taking the first allowed event that leads to an order not explored yet, and
/// records every choice with the events it could have taken instead, each named
/// canonically so that equivalent orders get equal names.
///
/// Which events are allowed, from each candidate's window (the earliest and latest instant
/// it could happen at over every latency, jitter and race draw): an event may run unless
/// another pending one certainly happens before it. Copies, cloud requests and answers in
/// flight run in every order among themselves. A step waits for every event that
/// certainly arrives before it (latest before the step's earliest), and an event waits
/// for every step that certainly comes first (latest at or before the event's earliest).
/// Steps keep their order unless their windows overlap: a step outside a race has one
/// instant, so such steps keep their time order; the steps of a race may each run
/// anywhere in the race's window, so they run in every order among themselves and
/// relative to the events in flight. Every order a random run can take is allowed.
///
/// Canonical names: a message is `sender#n` (the sender's n-th message), not its run-wide
/// number, which depends on how sends on different devices interleave; a cloud request
/// is the asking device's n-th. Each event belongs to one entity (the device it happens
/// on, or the cloud store); events of different entities commute (M11: arrival order on
/// each device alone decides what it shows), so two orders with equal per-entity
/// sequences are the same order. `join`/`leave` steps change every device's member list
/// and belong to every entity. Copies held for an offline device arrive, once it is
/// back, in the order they were sent (M30), so only the oldest of them is allowed; and
/// the order in which they were held cannot matter, so a held copy belongs to the
/// device's held store, an entity whose events all commute. The order in which they were
/// sent does matter, though sends on different devices commute: a prefix's key carries it
/// (`Option.heldOrder`) while the device can still see it.
struct OrderRecorder: ScheduleController {
    /// One event the run could take at a decision point.
    ///
    /// Made for every event pending at every decision of every schedule, so it holds its
    /// name's hashes worked out once (`identity`, `code`) and the words for people as
    /// parts (`Words`): the text is only spelled out where a report needs it.
    struct Option: Sendable, Hashable {
        /// Entities it belongs to: a device's index, the store's (`cloud`), a held store's,
        /// or, for a `join` or `leave` step, every device and the store (always a range).
        let entities: Range<Int>
        /// Canonical name, equal for the same event in equivalent orders.
        let label: String
        /// Its name's hash, folded into an `OrderKey` when it runs.
        let code: UInt64
        /// The same event in every run that reaches it: its name and entity.
        let identity: UInt64
        /// What `text` and `chain` say, in parts.
        let words: Words
        var kind: ScheduleCandidate.Kind
        /// The latest instant it could happen at (nanoseconds).
        var latest: Int64
        /// Its position in the simulation's candidate list (this run only).
        var position: Int
        /// A cloud request that leaves the store as it is (`ScheduleCandidate.leavesStore`):
        /// such requests commute with each other at the store.
        var leavesStore = false
        /// The decision after which it could first run (the event that made it, released
        /// it on a FIFO link, or let it run); -1 when it could from the start.
        var since = -1
        /// The decision whose event made it (after which it was first pending, allowed or
        /// not); -1 for a step, pending from the start.
        var madeBy = -1
        /// The earliest instant it could happen at (nanoseconds).
        var earliest: Int64 = 0
        /// A step's number (-1 for an event): steps of equal windows keep file order.
        var stepNumber = -1
        /// After it runs, the send order of the copies that decides what a device whose
        /// connectivity changes will show (`OrderKey.heldOrder`); 0 when none does.
        var heldOrder: UInt64 = 0
        var isStep: Bool { kind == .step }

        /// An event as the recorder names it: `labelHash` is `StableHash.fnv1a64(label)`.
        init(entities: Range<Int>, label: String, labelHash: UInt64, words: Words, kind: ScheduleCandidate.Kind, latest: Int64,
             position: Int, leavesStore: Bool = false) {
            self.entities = entities
            self.label = label
            code = SplitMix64.mix(labelHash)
            identity = Self.identity(labelHash: labelHash, entity: entities.first ?? -1)
            self.words = words
            self.kind = kind
            self.latest = latest
            self.position = position
            self.leavesStore = leavesStore
        }

        /// An event with its words given whole (tests).
        init(entities: [Int], label: String, text: String, chain: String, kind: ScheduleCandidate.Kind, latest: Int64, position: Int,
             leavesStore: Bool = false) {
            self.init(entities: (entities.min() ?? 0)..<((entities.max() ?? -1) + 1), label: label, labelHash: StableHash.fnv1a64(label),
                      words: .given(text: text, chain: chain), kind: kind, latest: latest, position: position, leavesStore: leavesStore)
        }

        /// For people: `m3 to alice-phone`.
        var text: String {
            switch words {
            case .given(let text, _): text
            case .step(let number, let device): "step \(number) on \(device)"
            case .copy(let message, let device, let held): held ? "m\(message) held for \(device)" : "m\(message) to \(device)"
            case .request(let ordinal, let device, _): "\(device)'s cloud request \(ordinal + 1) to the store"
            case .answer(let ordinal, let device): "the store's answer \(ordinal + 1) to \(device)"
            }
        }

        /// Events of one chain keep their order at their entity (for the estimate): a
        /// device's requests at the store, the store's answers at a device. A copy is a
        /// chain of its own: copies may arrive in any order.
        var chain: String {
            switch words {
            case .given(_, let chain): chain
            case .step: "step"
            case .copy: label
            case .request(_, _, let number): "q\(number)"
            case .answer: "a"
            }
        }

        /// The parts of an event's words: its number (a step's, a message's, a request's
        /// or answer's ordinal from 0) and its device's name (and index, for a request).
        enum Words: Sendable, Hashable {
            case given(text: String, chain: String)
            case step(Int, device: String)
            case copy(Int, device: String, held: Bool)
            case request(Int, device: String, number: Int)
            case answer(Int, device: String)
        }

        static func identity(label: String, entity: Int) -> UInt64 { identity(labelHash: StableHash.fnv1a64(label), entity: entity) }

        static func identity(labelHash: UInt64, entity: Int) -> UInt64 { SplitMix64.mix(labelHash ^ UInt64(truncatingIfNeeded: entity)) }
    }

    /// One decision: the allowed events and which one ran.
    struct Decision: Sendable {
        var options: [Option]
        var chosen: Int
    }

    /// One decision of a device's own arrivals once it is counted apart (factoring): the
    /// texts of the copies that could arrive next, and which did.
    struct LocalDecision: Sendable, Hashable {
        var options: [String]
        var chosen: Int
        /// The chosen copy's place among the steps (`CopyBounds`): it ran before the step
        /// of run index `before` (Int.max: no such step) and after the one of index `after`.
        var before = Int.max
        var after = -1
    }

    /// Where a copy sits among the steps, from when it was first pending (a run's steps
    /// are numbered 0, 1, ... in the order they ran): `created`, how many steps had run;
    /// `forcedBefore`, the pending steps it must arrive before (its latest instant before
    /// their earliest); `waitsFor`, those it must arrive after (their latest at or before
    /// its earliest). Copies of one device deferred to the tail keep exactly the order
    /// these force on them (`chooseInTail`).
    struct CopyBounds: Sendable {
        var created: Int
        var forcedBefore: [Int]
        var waitsFor: [Int]
    }

    struct CopyKey: Sendable, Hashable {
        var message: Int
        var device: Int
    }

    /// Choices to replay (indices into each decision's options).
    let prefix: [Int]
    /// After the prefix, the events to take next while they lead somewhere new, by
    /// `Option.identity`: the rest of the order that reverses a race (`Explorer.branches`).
    private let guide: [UInt64]
    /// Whether the run still follows `guide`.
    private var guided = true
    /// Searching by races (`Explorer.branches`): the events not to take now, each explored
    /// from an equivalent point already (Godefroid's sleep set); nil: `visited` decides.
    private var sleep: [Option]?
    /// From the prefix's end on, the sleep set at each decision.
    private(set) var sleeps: [[Option]] = []
    /// An order to replay by the texts of its events (`ExplorationReport.FailingRun.schedule`).
    private let replaying: [String]?
    private(set) var decisions: [Decision] = []
    /// The most bytes this run's decisions may hold (`SearchMemory`): past it the recorder
    /// sets `overBudget`, keeps that decision's chosen event only and records nothing more
    /// (the explorer drops the run), so one schedule of a huge scenario cannot exhaust
    /// memory before the search checks its budget.
    private let memory: Int
    /// What the decisions held, in `SearchMemory`'s bytes, up to the one that passed `memory`.
    private(set) var recordedBytes = 0
    /// The decisions passed `memory`: the search stops at its memory budget.
    private(set) var overBudget = false
    /// Prefix keys explored before this run (read only: shared, never copied).
    private let visited: Set<OrderKey>
    /// Prefix keys this run reached first, in order: the explorer adds them to `visited`.
    private(set) var fresh: [OrderKey] = []
    private var freshSet: Set<OrderKey> = []
    /// The key of the events run so far.
    private var key: OrderKey
    /// The depth at which every way on led to an explored order: from there on the run
    /// only repeats explored orders (it still runs to the end, taking the first event).
    private(set) var stuckAt: Int?

    private let deviceIndex: [String: Int]
    private let deviceNames: [String]
    /// Step numbers whose action touches every device (`StepDescriptor.Independence.everyDevice`: join, leave).
    private let globalSteps: Set<Int>
    /// True for the built-in app, which never acts on a message it receives (M23).
    private let deliveriesCreateNothing: Bool
    /// Step number -> (device, goes offline) for the steps that switch a device's
    /// connectivity (`offline`, `online`: M30).
    private let connectivitySteps: [Int: (device: Int, offline: Bool)]
    /// The devices that have such steps, in device order.
    private let switching: [Int]
    private var offline: [Bool]
    /// Per device, the message ids of copies that reached it while offline and have not
    /// been delivered since (M30).
    private var held: [[Int]]
    /// The cloud store's entity number (after every device).
    let cloud: Int

    /// Factoring (`Explorer+Factored.swift`): per device, whether its arrivals may be
    /// counted apart once nothing can read them (all false: plain enumeration).
    private let factorable: [Bool]
    /// Per device, the choices among its own arrivals to replay in the tail.
    private let localPrefix: [[Int]]
    /// How many decisions the run took before its tail: the point from which only copies
    /// to devices counted apart were left. nil when it never got there.
    private(set) var tailStart: Int?
    /// Per device, its decisions in the tail, in order.
    private(set) var local: [[LocalDecision]]
    /// A device that broke factoring's condition in this run: its arrivals that no step
    /// can read any more were pending beside one that must come before a step, so
    /// counting it apart would lose orders. The explorer then enumerates it.
    private(set) var violation: Int?
    /// The devices whose apps did something on an arrival in the tail that another
    /// device or the store could see (`ScheduleEffect`), each with the first such thing
    /// in words: their arrivals are not independent, and the explorer enumerates them.
    private(set) var acted: [Int: String] = [:]
    /// The text of the last copy taken in the tail (what `acted` names).
    private var lastTailCopy = ""
    /// Steps run so far, and each one's run index by step number.
    private var stepsRun = 0
    private var stepRunIndex: [Int: Int] = [:]
    /// The bounds of every copy first pending while a step was (others have none).
    private var bounds: [CopyKey: CopyBounds] = [:]

    /// Each named message's canonical name (`sender#n`) and labels as a copy.
    private var messageNames = MessageNames()
    /// The labels of steps by number, of each device's cloud requests and of the store's
    /// answers by ordinal (+1: -1 is an unknown one): made once per run, not at every decision.
    private var stepLabels = LabelCache()
    private var requestLabels: [LabelCache]
    private var answerLabels = LabelCache()
    /// Per device, the cloud requests and answers named so far at the decision being made
    /// (kept between decisions, emptied for each).
    private var requestSeen: [Int]
    private var answerSeen: [Int]

    /// Each event's `Option.since`, by `Option.identity`.
    private var firstPending = IdentityTable()
    /// Each event's `Option.madeBy`, by `Option.identity`.
    private var firstSeen = IdentityTable()
    private var sent: [Int]
    /// The device of the last event that ran: the sender of any new message id.
    private var lastDevice: Int?
    private var pendingRequests: [[Int]]
    private var requestsIssued: [Int]
    private var pendingAnswers: [[Int]]

    /// - Parameter reducing: false offers every allowed event at every point (tests
    ///   compare the pruned search with that brute force).
    /// - Parameter schedule: an order to follow event by event, by the texts a failing
    ///   run's `schedule` lists (replay); nil explores.
    /// - Parameters:
    ///   - factorable: per device, whether its copies may be deferred to the tail and
    ///     ordered by `localPrefix` (factoring); nil or all false enumerates everything.
    ///   - localPrefix: per device, the choices among its own copies in the tail.
    /// - Parameter guide: after the prefix, the events to take while they lead somewhere new.
    /// - Parameter sleep: search by races: the sleep set after the prefix (`visited` is then
    ///   not read); nil prunes by `visited`.
    init(scenario: Scenario, prefix: [Int], guide: [UInt64] = [], sleep: [Option]? = nil, visited: Set<OrderKey>, reducing: Bool = true,
         schedule: [String]? = nil,
         factorable: [Bool]? = nil, localPrefix: [[Int]] = [], memory: Int = .max) {
        self.memory = memory
        self.factorable = factorable ?? Array(repeating: false, count: scenario.devices.count)
        self.localPrefix = localPrefix
        local = Array(repeating: [], count: scenario.devices.count)
        self.prefix = prefix
        self.guide = guide
        self.sleep = sleep
        replaying = schedule
        self.visited = visited
        key = OrderKey(for: scenario)
        deviceNames = scenario.devices.map(\.name)
        deviceIndex = Dictionary(scenario.devices.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first,
            _ in first })
        var global: Set<Int> = []
        var connectivity: [Int: (device: Int, offline: Bool)] = [:]
        for step in scenario.steps {
            let device = deviceIndex[step.device] ?? 0
            // Which entities a step belongs to is its kind's independence class.
            switch step.action.kind.built.independence {
            case .ownDevice: break
            case .everyDevice: global.insert(step.number)
            case .connectivity(let goesOffline): connectivity[step.number] = (device, goesOffline)
            }
        }
        connectivitySteps = connectivity
        switching = Set(connectivity.values.map(\.device)).sorted()
        offline = Array(repeating: false, count: scenario.devices.count)
        held = Array(repeating: [], count: scenario.devices.count)
        globalSteps = global
        deliveriesCreateNothing = reducing && scenario.app.name == nil
        cloud = scenario.devices.count
        sent = Array(repeating: 0, count: scenario.devices.count)
        pendingRequests = Array(repeating: [], count: scenario.devices.count)
        requestLabels = Array(repeating: LabelCache(), count: scenario.devices.count)
        requestSeen = Array(repeating: 0, count: scenario.devices.count)
        answerSeen = Array(repeating: 0, count: scenario.devices.count)
        requestsIssued = Array(repeating: 0, count: scenario.devices.count)
        pendingAnswers = Array(repeating: [], count: scenario.devices.count)
    }

    mutating func choose(among candidates: [ScheduleCandidate]) -> Int { choose(among: candidates, waiting: []) }

    mutating func choose(among candidates: [ScheduleCandidate], waiting: [ScheduleCandidate]) -> Int {
        // Past the budget the explorer stops and drops this run: what is left of it needs
        // no choice worked out, and naming every event in flight at every step was most of
        // its cost (1.1 of 1.4 s of CPU for a lesson repeated a hundred times, debug build).
        if overBudget { return 0 }
        learnNewEvents(candidates, waiting)
        // A copy waiting behind an older one on its FIFO link was made by the event that sent it.
        for copy in waiting where copy.kind == .delivery {
            guard let device = number(copy), let message = copy.message else { continue }
            let copyName = deliveryName(message: message, to: device)
            let identity = Option.identity(labelHash: copyName.hash, entity: copyName.entity)
            _ = firstSeen.first(identity, else: decisions.count - 1)
        }
        let deferred = deferredCopies(candidates)
        if let deferred, deferred.allSatisfy({ $0 }) { return chooseInTail(candidates) }
        var allowed = Self.allowed(candidates, ignoring: deferred)
        keepHeldCopiesInOrder(candidates, &allowed)
        if deferred != nil, !allowed.contains(true) {
            // Cannot happen (a step waits only for copies no longer deferred); should it,
            // the explorer enumerates instead.
            violation = violation ?? 0
            allowed = Self.allowed(candidates)
        }
        var options: [Option] = []
        for device in requestSeen.indices {
            requestSeen[device] = 0
            answerSeen[device] = 0
        }
        for (position, candidate) in candidates.enumerated() {
            let device = number(candidate) ?? 0
            let option: Option
            let latest = candidate.latest.nanoseconds
            switch candidate.kind {
            case .step:
                let number = candidate.step ?? 0
                let entities = globalSteps.contains(number) ? 0..<(cloud + 1) : device..<(device + 1)
                let (label, hash) = stepLabels.label(number) { "s\(number)" }
                option = Option(entities: entities, label: label, labelHash: hash,
                                words: .step(number, device: candidate.device), kind: .step, latest: latest, position: position)
            case .delivery:
                let message = candidate.message ?? 0
                let copyName = deliveryName(message: message, to: device)
                option = Option(entities: copyName.entity..<(copyName.entity + 1), label: copyName.label, labelHash: copyName.hash,
                                words: .copy(message, device: candidate.device, held: offline[device]), kind: .delivery, latest: latest,
                                position: position)
            case .cloudRequest:
                let ordinal = pendingRequests[device].indices.contains(requestSeen[device])
                    ? pendingRequests[device][requestSeen[device]] : -1
                requestSeen[device] += 1
                let (label, hash) = requestLabels[device].label(ordinal + 1) { "q\(device)#\(ordinal)" }
                option = Option(entities: cloud..<(cloud + 1), label: label, labelHash: hash,
                                words: .request(ordinal, device: candidate.device, number: device), kind: .cloudRequest, latest: latest,
                                position: position, leavesStore: candidate.leavesStore)
            case .cloudAnswer:
                let ordinal = pendingAnswers[device].indices.contains(answerSeen[device]) ? pendingAnswers[device][answerSeen[device]] : -1
                answerSeen[device] += 1
                let (label, hash) = answerLabels.label(ordinal + 1) { "a\(ordinal)" }
                option = Option(entities: device..<(device + 1), label: label, labelHash: hash,
                                words: .answer(ordinal, device: candidate.device), kind: .cloudAnswer, latest: latest, position: position)
            }
            let identity = option.identity
            let madeBy = firstSeen.first(identity, else: decisions.count - 1)
            guard allowed[position] else { continue }
            var named = option
            named.earliest = candidate.earliest.nanoseconds
            named.madeBy = madeBy
            if candidate.kind == .step { named.stepNumber = candidate.step ?? 0 }
            if !switching.isEmpty { named.heldOrder = heldOrder(after: candidate, among: candidates, waiting: waiting) }
            named.since = firstPending.first(identity, else: decisions.count - 1)
            options.append(named)
        }
        var firstStep = Int64.max
        for candidate in candidates where candidate.kind == .step { firstStep = min(firstStep, candidate.earliest.nanoseconds) }
        options = reduced(options, firstStep: firstStep)

        let depth = decisions.count
        var pick = 0
        if let replaying {
            if depth < replaying.count { pick = options.firstIndex { $0.text == replaying[depth] } ?? 0 }
        } else if depth < prefix.count {
            pick = options.indices.contains(prefix[depth]) ? prefix[depth] : 0
            if options.indices.contains(pick) { key = key.extended(with: options[pick]) }
        } else if stuckAt == nil, !options.isEmpty, let asleep = sleep {
            // Searching by races: take the guide's event, else the first one not asleep;
            // the events asleep stay so until one that does not commute with them runs.
            sleeps.append(asleep)
            let awake = options.indices.filter { index in !asleep.contains { $0.identity == options[index].identity } }
            let step = depth - prefix.count
            var next: Int?
            if guided, guide.indices.contains(step) {
                next = awake.first { options[$0].identity == guide[step] }
                guided = next != nil
            }
            if let index = next ?? awake.first {
                pick = index
                sleep = asleep.filter { !Explorer.dependent($0, options[index], store: cloud) }
            } else {
                stuckAt = depth
            }
        } else if stuckAt == nil, !options.isEmpty {
            let step = depth - prefix.count
            var next: Int?
            if guided, guide.indices.contains(step) {
                next = options.indices.first { options[$0].identity == guide[step] && !isExplored(key.extended(with: options[$0])) }
                guided = next != nil
            }
            if let index = next ?? options.indices.first(where: { !isExplored(key.extended(with: options[$0])) }) {
                pick = index
                key = key.extended(with: options[index])
                fresh.append(key)
                freshSet.insert(key)
            } else {
                stuckAt = depth
            }
        }
        let (bytes, overflow) = recordedBytes.addingReportingOverflow(SearchMemory.arrayHeader + options.count * SearchMemory.option)
        recordedBytes = overflow ? .max : bytes
        if recordedBytes > memory { overBudget = true }
        if overBudget, options.indices.contains(pick) {
            decisions.append(Decision(options: [options[pick]], chosen: 0))
        } else {
            decisions.append(Decision(options: options, chosen: pick))
        }
        let position = options.indices.contains(pick) ? options[pick].position : 0
        ran(candidates[position], at: position, in: candidates)
        return position
    }

    /// Which candidates are copies to a device counted apart (factoring) that nothing
    /// left can read, by position; nil when none is (or factoring is off).
    ///
    /// A device is idle when no step of its own (or a `join`/`leave`, which touches every
    /// device) is pending and it waits for no cloud answer: the built-in app acts on
    /// nothing it receives (M23), so from then on the order of its arrivals changes what it
    /// shows and nothing else, and each of its copies commutes with every event of other
    /// devices and of the store (M11). Its copies are deferred to the tail. A copy that
    /// must arrive before a pending step (of another device) is deferred too: the step
    /// runs first, which changes no device's sequence, and the copy's `CopyBounds` keep
    /// its order against the device's copies that come after that step.
    private mutating func deferredCopies(_ candidates: [ScheduleCandidate]) -> [Bool]? {
        guard factorable.contains(true) else { return nil }
        var busy = Array(repeating: false, count: cloud)
        var steps: [ScheduleCandidate] = []
        for candidate in candidates where candidate.kind == .step {
            if globalSteps.contains(candidate.step ?? 0) { return nil }
            if let device = number(candidate) { busy[device] = true }
            steps.append(candidate)
        }
        for device in 0..<cloud where !pendingRequests[device].isEmpty || !pendingAnswers[device].isEmpty { busy[device] = true }
        var deferred = Array(repeating: false, count: candidates.count)
        for (position, candidate) in candidates.enumerated() where candidate.kind == .delivery {
            guard let device = number(candidate) else { continue }
            if !steps.isEmpty, let message = candidate.message, bounds[CopyKey(message: message, device: device)] == nil {
                let earliest = candidate.earliest.nanoseconds, latest = candidate.latest.nanoseconds
                bounds[CopyKey(message: message, device: device)] = CopyBounds(
                    created: stepsRun,
                    forcedBefore: steps.filter { latest < $0.earliest.nanoseconds }.compactMap(\.step),
                    waitsFor: steps.filter { $0.latest.nanoseconds <= earliest }.compactMap(\.step))
            }
            if factorable[device], !busy[device] { deferred[position] = true }
        }
        return deferred.contains(true) ? deferred : nil
    }

    /// A deferred copy's place among the steps, as run indices: it ran before the step of
    /// index `before` and after the one of index `after` (`CopyBounds`); a copy first
    /// pending after every step has none before, and came after them all.
    private func place(_ candidate: ScheduleCandidate) -> (before: Int, after: Int) {
        guard let message = candidate.message, let device = number(candidate),
              let known = bounds[CopyKey(message: message, device: device)] else { return (Int.max, stepsRun - 1) }
        let before = known.forcedBefore.compactMap { stepRunIndex[$0] }.min() ?? Int.max
        let after = max(known.created - 1, known.waitsFor.compactMap { stepRunIndex[$0] }.max() ?? -1)
        return (before, after)
    }

    /// The tail: only deferred copies are left. One device at a time (the lowest index
    /// with copies pending, as `reduced` orders them), its next arrival by `localPrefix`,
    /// recorded in `local`. A copy may come next unless another of the device's pending
    /// copies had to arrive before a step that this one came after (`place`). A device
    /// that is offline holds what arrives, in any order (M30): it has one order.
    private mutating func chooseInTail(_ candidates: [ScheduleCandidate]) -> Int {
        if tailStart == nil { tailStart = decisions.count }
        var allowed = Self.allowed(candidates)
        keepHeldCopiesInOrder(candidates, &allowed)
        let devices = candidates.map { number($0) ?? 0 }
        let device = devices.min() ?? 0
        let mine = candidates.indices.filter { devices[$0] == device }
        let places = mine.map { place(candidates[$0]) }
        var positions: [Int] = []
        var placed: [(before: Int, after: Int)] = []
        for (index, position) in mine.enumerated() where allowed[position] {
            let after = places[index].after
            guard !places.indices.contains(where: { $0 != index && places[$0].before <= after }) else { continue }
            positions.append(position)
            placed.append(places[index])
        }
        if positions.isEmpty {
            positions = [mine.first ?? 0]
            placed = [places.first ?? (Int.max, -1)]
        }
        let held = offline.indices.contains(device) && offline[device]
        if held {
            positions = Array(positions.prefix(1))
            placed = Array(placed.prefix(1))
        }
        let depth = local[device].count
        let planned = localPrefix.indices.contains(device) && localPrefix[device].indices.contains(depth) ? localPrefix[device][depth] : 0
        let pick = positions.indices.contains(planned) ? planned : 0
        let texts = positions.map { "m\(candidates[$0].message ?? 0) \(held ? "held for" : "to") \(candidates[$0].device)" }
        local[device].append(LocalDecision(options: texts, chosen: pick, before: placed[pick].before, after: placed[pick].after))
        let position = positions[pick]
        lastTailCopy = texts[pick]
        ran(candidates[position], at: position, in: candidates)
        return position
    }

    /// What a device's app did on the copy that just reached it. In the tail, where its
    /// arrivals are counted apart, anything another device, the store or the checks of
    /// the whole run could see breaks the condition: the device is enumerated instead.
    mutating func noted(_ effects: [ScheduleEffect], on device: Int) {
        guard tailStart != nil, factorable.indices.contains(device), factorable[device], acted[device] == nil,
              let first = effects.first else { return }
        let what = effects.map(\.text)
        let list = what.count > 1 ? what.dropLast().joined(separator: ", ") + " and " + (what.last ?? "") : first.text
        acted[device] = "\(deviceNames[device])'s app \(list) on an arrival (\(lastTailCopy))"
        violation = violation ?? device
    }

    /// A persistent set (Godefroid): when every allowed event is a copy arriving, each
    /// certainly before any pending step (`firstStep`, the earliest a pending step could
    /// run), and copies make nothing happen (the built-in app does not answer what it
    /// receives), nothing outside one device can add an event on it before they have all
    /// arrived, so trying only that device's copies here (the first such device) still
    /// reaches every distinct order: the other devices' copies commute with them and are
    /// ordered when their turn comes.
    private func reduced(_ options: [Option], firstStep: Int64) -> [Option] {
        guard deliveriesCreateNothing, let first = options.first,
              options.allSatisfy({ $0.kind == .delivery && $0.latest < firstStep }) else { return options }
        let device = options.map { $0.entities.first ?? 0 }.min() ?? first.entities.first ?? 0
        return options.filter { $0.entities.first == device }
    }

    /// A copy of `message` to `device` as an option names it: held for the device while it
    /// is offline (its own entity after the store's), else delivered.
    private func deliveryName(message: Int, to device: Int) -> (label: String, hash: UInt64, entity: Int) {
        let labels = messageNames[message] ?? CopyLabels("m\(message)")
        return offline[device] ? (labels.held, labels.heldHash, cloud + 1 + device) : (labels.delivered, labels.deliveredHash, device)
    }

    /// The candidate's device by position, without a name look-up where the simulation
    /// gave it.
    private func number(_ candidate: ScheduleCandidate) -> Int? { candidate.deviceNumber ?? deviceIndex[candidate.device] }

    private func isExplored(_ key: OrderKey) -> Bool { visited.contains(key) || freshSet.contains(key) }

    /// Which candidates may run next (see the type's comment), by position: those that no
    /// other pending candidate certainly precedes. Linear in the candidates.
    /// - Parameter ignoring: candidates left out (copies deferred to the tail): they
    ///   hold back no step and are never allowed.
    static func allowed(_ candidates: [ScheduleCandidate], ignoring: [Bool]? = nil) -> [Bool] {
        var eventLatest = Int64.max
        var stepLatest = Int64.max
        // The two steps that come first by (latest, number): a step is compared with the
        // first of the others.
        var firstSteps: [(latest: Int64, number: Int, position: Int)] = []
        for (position, candidate) in candidates.enumerated() {
            let latest = candidate.latest.nanoseconds
            guard candidate.kind == .step else {
                if ignoring?[position] != true { eventLatest = min(eventLatest, latest) }
                continue
            }
            stepLatest = min(stepLatest, latest)
            firstSteps.append((latest, candidate.step ?? 0, position))
            firstSteps.sort { ($0.latest, $0.number) < ($1.latest, $1.number) }
            if firstSteps.count > 2 { firstSteps.removeLast() }
        }
        var allowed = candidates.enumerated().map { position, candidate -> Bool in
            if ignoring?[position] == true { return false }
            let earliest = candidate.earliest.nanoseconds
            guard candidate.kind == .step else { return stepLatest > earliest }
            let number = candidate.step ?? 0
            let other = firstSteps.first { !($0.latest == candidate.latest.nanoseconds && $0.number == number) }
            let stepFirst = other.map { ($0.latest, $0.number) < (earliest, number) } ?? false
            return eventLatest >= earliest && !stepFirst
        }
        if !allowed.contains(true), let first = candidates.indices.first(where: { ignoring?[$0] != true }) { allowed[first] = true }
        return allowed
    }

    /// M30: of the held copies re-delivered to a device that is back online, only the
    /// oldest (lowest message id, the send order) may arrive next.
    private func keepHeldCopiesInOrder(_ candidates: [ScheduleCandidate], _ allowed: inout [Bool]) {
        for device in held.indices where !held[device].isEmpty && !offline[device] {
            let positions = candidates.indices.filter {
                allowed[$0] && candidates[$0].kind == .delivery && number(candidates[$0]) == device
                    && candidates[$0].message.map(held[device].contains) == true
            }
            let oldest = positions.min { (candidates[$0].message ?? 0) < (candidates[$1].message ?? 0) }
            for position in positions where position != oldest { allowed[position] = false }
        }
    }

    /// M30 makes the send order of copies matter across devices: a device that comes back
    /// online gets what it held in send order, so two orders that swap two sends on
    /// different devices (equal per-entity sequences) can still differ in what it shows.
    /// So that a prefix's key (`OrderKey.heldOrder`) decides everything that can follow
    /// it, this hashes, after `candidate` runs, per device whose connectivity changes, the
    /// names in send order of the copies whose order it may still see: while a switch of
    /// its connectivity is pending, every copy to it in flight or held; after its last
    /// switch, online, the held copies not yet delivered again; offline for good, none.
    /// The copies a device receives when nothing is left pending decide nothing, so a
    /// whole order's key has 0 here and orders are still counted by their sequences.
    private func heldOrder(after candidate: ScheduleCandidate, among candidates: [ScheduleCandidate],
                           waiting: [ScheduleCandidate]) -> UInt64 {
        var hash: UInt64 = 0
        let ran = candidate.kind == .step ? candidate.step : nil
        for device in switching {
            var isOffline = offline[device]
            if let ran, let change = connectivitySteps[ran], change.device == device { isOffline = change.offline }
            let switchPending = connectivitySteps.contains { step, change in
                change.device == device && step != ran && stepRunIndex[step] == nil && change.offline != isOffline
            }
            // A copy delivered now to a device online leaves; offline, it is held.
            let delivered = candidate.kind == .delivery && number(candidate) == device && !offline[device] ? candidate.message : nil
            var messages: [Int]
            if switchPending {
                messages = held[device]
                for copy in candidates + waiting where copy.kind == .delivery && number(copy) == device {
                    if let message = copy.message, !messages.contains(message) { messages.append(message) }
                }
            } else {
                messages = isOffline ? [] : held[device]
            }
            messages.removeAll { $0 == delivered }
            guard !messages.isEmpty else { continue }
            var sequence = SplitMix64.mix(UInt64(truncatingIfNeeded: device) &+ 0x9E37_79B9_7F4A_7C15)
            for message in messages.sorted() {
                sequence = SplitMix64.mix(sequence ^ StableHash.fnv1a64(messageNames[message]?.name ?? "m\(message)"))
            }
            hash = hash &+ sequence
        }
        return hash
    }

    /// Names new message ids after the device whose event ran last, and counts new
    /// cloud requests (in issue order, which is their order in the list).
    private mutating func learnNewEvents(_ candidates: [ScheduleCandidate], _ waiting: [ScheduleCandidate]) {
        var unnamed: [Int] = []
        // Counted in a buffer kept between decisions (`requestSeen` is emptied after this).
        var requests = requestSeen
        requestSeen = []
        for device in requests.indices { requests[device] = 0 }
        defer { requestSeen = requests }
        func learn(_ candidate: ScheduleCandidate) {
            switch candidate.kind {
            case .delivery:
                if let message = candidate.message, messageNames[message] == nil, !unnamed.contains(message) { unnamed.append(message) }
            case .cloudRequest:
                if let device = number(candidate) { requests[device] += 1 }
            default:
                break
            }
        }
        // Two lists, not one joined: this runs at every decision.
        candidates.forEach(learn)
        waiting.forEach(learn)
        for message in unnamed.isEmpty ? [] : unnamed.sorted() {
            guard let sender = lastDevice else {
                messageNames[message] = CopyLabels("?#\(message)")
                continue
            }
            sent[sender] += 1
            messageNames[message] = CopyLabels("\(deviceNames[sender])#\(sent[sender])")
        }
        for device in 0..<cloud where requests[device] > pendingRequests[device].count {
            for _ in pendingRequests[device].count..<requests[device] {
                pendingRequests[device].append(requestsIssued[device])
                requestsIssued[device] += 1
            }
        }
    }

    /// Bookkeeping after `candidate` was chosen to run.
    private mutating func ran(_ candidate: ScheduleCandidate, at position: Int, in candidates: [ScheduleCandidate]) {
        let device = number(candidate)
        lastDevice = device
        guard let device else { return }
        switch candidate.kind {
        case .step:
            if let change = candidate.step.flatMap({ connectivitySteps[$0] }) { offline[change.device] = change.offline }
            if let step = candidate.step, stepRunIndex[step] == nil { stepRunIndex[step] = stepsRun }
            stepsRun += 1
        case .delivery:
            guard let message = candidate.message else { break }
            if offline[device] {
                if !held[device].contains(message) { held[device].append(message) }
                // Held, it comes again when the device is back (M30): a new copy, whose
                // place among the steps is where it is pending then.
                bounds[CopyKey(message: message, device: device)] = nil
            } else {
                held[device].removeAll { $0 == message }
            }
        case .cloudRequest:
            let rank = candidates[..<position].count { $0.kind == .cloudRequest && $0.device == candidate.device }
            if pendingRequests[device].indices.contains(rank) {
                let ordinal = pendingRequests[device].remove(at: rank)
                pendingAnswers[device].append(ordinal)
            }
            lastDevice = nil
        case .cloudAnswer:
            let rank = candidates[..<position].count { $0.kind == .cloudAnswer && $0.device == candidate.device }
            if pendingAnswers[device].indices.contains(rank) { pendingAnswers[device].remove(at: rank) }
        }
    }
}

/// What a prefix of an order has run, up to commuting events: per entity (each device,
/// the cloud store, then each device's held store), a 64-bit hash of the canonical names
/// of the events it ran: in order for devices, in any order for a held store (M30
/// re-delivers in send order whatever the holding order), and for the store in order
/// except that the requests that left it as it was (reads) between two that changed it
/// are taken in any order: the store answers each of them the same either way. Equal
/// keys mean equal sequences up to those swaps (up to a 2^-64 chance of a hash collision
/// per pair of sequences). A prefix's key also holds the send order that a device whose
/// connectivity changes may still see (`OrderRecorder.Option.heldOrder`, M30), so that
/// equal keys leave the same orders to follow; a whole order's has none.
struct OrderKey: Sendable, Hashable {
    private(set) var entities: [UInt64]
    /// After the last event folded in, its `Option.heldOrder`.
    private(set) var heldOrder: UInt64 = 0
    /// The store's reads since its last write, as an order-free sum.
    private var reads: UInt64 = 0
    /// The cloud store's entity number.
    let store: Int
    /// Entities from this index on are held stores (order-free).
    private let firstSet: Int

    /// The empty key of `scenario`: every device, the cloud store, every held store.
    init(for scenario: Scenario) {
        store = scenario.devices.count
        firstSet = scenario.devices.count + 1
        entities = Array(repeating: 0, count: 2 * scenario.devices.count + 1)
    }

    /// The key after `option` ran: its name folded into each of its entities' hashes.
    func extended(with option: OrderRecorder.Option) -> OrderKey {
        var next = self
        next.heldOrder = option.heldOrder
        let code = option.code
        for entity in option.entities where next.entities.indices.contains(entity) {
            if entity >= firstSet {
                next.entities[entity] = next.entities[entity] &+ code
            } else if entity == store, option.leavesStore {
                next.reads = next.reads &+ code
            } else {
                // A write closes the block of reads before it: fold their sum in first.
                let before = entity == store ? SplitMix64.mix(next.entities[entity] ^ next.reads) : next.entities[entity]
                next.reads = entity == store ? 0 : next.reads
                next.entities[entity] = SplitMix64.mix((before &+ 0x9E37_79B9_7F4A_7C15) ^ code)
            }
        }
        return next
    }
}

/// A message's canonical name (`sender#n`, `OrderRecorder`) and its labels as a copy
/// delivered and held, with their hashes: worked out once, not at every decision it is
/// pending at.
struct CopyLabels {
    var name: String
    var delivered: String
    var deliveredHash: UInt64
    var held: String
    var heldHash: UInt64

    init(_ name: String) {
        self.name = name
        delivered = "d" + name
        deliveredHash = StableHash.fnv1a64(delivered)
        held = "h" + name
        heldHash = StableHash.fnv1a64(held)
    }
}

/// A run's messages' names by id: ids count a run's messages from 0, so they are kept in an
/// array (looked up for every copy pending at every decision); any id past it, in a dictionary.
struct MessageNames {
    private var byID: [CopyLabels?] = []
    private var others: [Int: CopyLabels] = [:]
    private static let arrayLimit = 1 << 16

    subscript(message: Int) -> CopyLabels? {
        get {
            if message >= 0, message < Self.arrayLimit { return message < byID.count ? byID[message] : nil }
            return others[message]
        }
        set {
            guard message >= 0, message < Self.arrayLimit else {
                others[message] = newValue
                return
            }
            if message >= byID.count { byID += Array(repeating: nil, count: max(message + 1 - byID.count, byID.count)) }
            byID[message] = newValue
        }
    }
}

/// Labels by a number from 0, each with its hash (`StableHash.fnv1a64`), made on first use.
struct LabelCache {
    private var labels: [(text: String, hash: UInt64)?] = []

    mutating func label(_ number: Int, make: () -> String) -> (text: String, hash: UInt64) {
        guard number >= 0 else {
            let text = make()
            return (text, StableHash.fnv1a64(text))
        }
        if number >= labels.count { labels += Array(repeating: nil, count: max(number + 1 - labels.count, labels.count)) }
        if let known = labels[number] { return known }
        let text = make()
        let made = (text: text, hash: StableHash.fnv1a64(text))
        labels[number] = made
        return made
    }
}

/// Each event's first decision by `OrderRecorder.Option.identity`, for `since` and
/// `madeBy`: looked up for every pending event at every decision, so kept in an open
/// table of the identities themselves (already mixed), not a `Dictionary` that hashes
/// them again.
struct IdentityTable {
    private var keys: [UInt64]
    private var values: [Int]
    private var count = 0
    private static let empty = Int.min

    init() {
        keys = Array(repeating: 0, count: 64)
        values = Array(repeating: Self.empty, count: 64)
    }

    /// The decision noted for `identity`, noting `decision` first if there is none.
    mutating func first(_ identity: UInt64, else decision: Int) -> Int {
        var slot = Int(truncatingIfNeeded: identity & UInt64(keys.count - 1))
        while values[slot] != Self.empty {
            if keys[slot] == identity { return values[slot] }
            slot = (slot + 1) & (keys.count - 1)
        }
        keys[slot] = identity
        values[slot] = decision
        count += 1
        if 2 * count > keys.count { grow() }
        return decision
    }

    private mutating func grow() {
        let (oldKeys, oldValues) = (keys, values)
        keys = Array(repeating: 0, count: 2 * oldKeys.count)
        values = Array(repeating: Self.empty, count: 2 * oldKeys.count)
        for (key, value) in zip(oldKeys, oldValues) where value != Self.empty {
            var slot = Int(truncatingIfNeeded: key & UInt64(keys.count - 1))
            while values[slot] != Self.empty { slot = (slot + 1) & (keys.count - 1) }
            keys[slot] = key
            values[slot] = value
        }
    }
}
