import GroupSimCore
import GroupSimScenario

/// One simulated device: its own identifiers, transcripts and extension (M1, M19).
///
/// A device is a value-type state machine that the `Simulation` actor owns and steps in
/// place (determinism rule 5, README): each entry point takes one input (a step, a
/// delivered copy, a cloud answer) with a `DeviceContext`, and returns a `DeviceOutput`
/// of everything it wants done (copies to send, cloud requests, trace events, failures,
/// sightings). It never awaits, schedules or reads a file itself.
package struct Device {
    let spec: DeviceSpec
    var name: String { spec.name }
    var person: String { spec.person }

    let world: WorldFacts
    /// The owner's position in the scenario's people (-1 if not listed).
    let position: Int
    /// This device's position in the scenario's devices (-1 if not listed).
    let deviceNumber: Int
    let makeApp: AppRegistry.Factory?

    // Identifiers (M1, M2, M6).
    var identifiers: IdentifierMap { didSet { lastView = nil } }
    var retired: [IdentifierMap] = []
    var members: [String: [String]] { didSet { lastView = nil } }
    /// The conversations the owner is a member of now, kept with `members` (`updateMembers`):
    /// every step asks, and looking through a member list compares names.
    private(set) var memberOf: Set<String>
    var remoteOrderCache: [String: [ParticipantID]] = [:] { didSet { lastView = nil } }
    /// `localIdentifier(in:)`'s last answer and the map it came from.
    var lastLocalIdentifier: (map: IdentifierMap, conversation: String, id: ParticipantID)?

    /// The installation's own storage, wiped by a reinstall (M2): the one its app gets.
    var localStorage: LocalStorage { environment.storage }
    /// Every install id this device's installations created, oldest first.
    var installIDs: [String] = []

    // What the device shows.
    var transcripts: Transcripts

    // The extension (M19-M24).
    /// Set only with `isRunning` beside it.
    package internal(set) var app: (any MessagesApp)?
    /// Whether the extension is running (`app != nil`), kept beside `app`: comparing the
    /// optional existential with nil copies the app's box, which every delivered copy paid.
    private(set) var isRunning = false
    /// The running app's `wantsReceivedMessages`, kept beside it for the same reason.
    private(set) var appWantsReceivedMessages = false

    /// Starts or ends the extension.
    mutating func setApp(_ instance: (any MessagesApp)?) {
        isRunning = instance != nil
        appWantsReceivedMessages = instance?.wantsReceivedMessages ?? false
        app = instance
    }
    var style: PresentationStyle = .compact { didSet { lastView = nil } }
    var activeConversation: String? { didSet { lastView = nil } }
    var selected: Envelope? { didSet { lastView = nil } }
    /// The staged draft of each conversation: the input field belongs to a conversation,
    /// so staging in one leaves another's draft alone (M16).
    var drafts: [String: Draft] = [:] { didSet { lastView = nil } }
    /// `conversationViewBox()` as last built, kept until something it shows changes (the
    /// observers above forget it): apps are called on every delivery while they run. In
    /// a box, so that a callback lends it to the app instead of copying all of it.
    var lastView: ConversationBox?
    package var callbacks: [AppCallback] = []
    /// A user interaction that a direct send may still use (M18).
    var interactionAvailable = false
    /// When the user last interacted with the extension here; nil once it was closed (M18).
    var lastInteraction: VirtualTime?
    /// The `send`/`reply` step whose draft the user will send as soon as it is staged.
    var sendWhenStaged = false
    var currentStep: Int?
    /// The user's step the input being handled follows from: the step itself while it
    /// runs, the step a cloud answer's request came from, nil for a delivered copy.
    var origin: RunOutcome.StepFailure.Origin?
    /// What the user's current compose intent changes, until a message or write carries it.
    var composing: PendingChange?
    /// The provenance of the state the app last read, per session.
    var readProvenance: [String: Provenance] = [:]
    var actionDepth = 0
    /// Whether the session of the step being performed has never been used before.
    var sessionIsNew = false
    /// This installation's storage and tokens, handed to every app instance (M2, M22).
    var environment: AppEnvironment

    /// The effects of the one input being handled, in the buffer its caller lent for the
    /// call: swapped in when the call begins and back out when it ends, so between calls
    /// the device holds no output, and a caller reuses one buffer for a whole run.
    var effects = DeviceOutput(context: DeviceContext(now: .zero, nextMessageID: 1, nextChangeID: 1))

    /// Whether `trace` keeps events: false when the run keeps no trace (benchmarks).
    let tracing: Bool

    package init(spec: DeviceSpec, world: WorldFacts, makeApp: AppRegistry.Factory?, tracing: Bool = true) {
        self.spec = spec
        self.tracing = tracing
        self.world = world
        self.position = world.personIndex[spec.person] ?? -1
        self.deviceNumber = world.tables.deviceIndex[spec.name] ?? -1
        self.makeApp = makeApp
        self.identifiers = world.mintIdentifiers(device: spec.name, generation: 0)
        self.members = world.tables.initialMembers
        self.memberOf = world.tables.initialConversations[spec.person] ?? []
        self.environment = AppEnvironment(device: spec.name, installation: 0, streams: world.streams)
        // With one conversation its transcript holds every numbered session; with several,
        // each holds some, and its table stays as long as the highest it holds.
        self.transcripts = Transcripts(numbers: world.conversationNumbers,
                                       sessions: world.conversations.count == 1 ? world.sessionNumbers.count : 0)
    }

    /// The key-value storage of the app's current installation on this device.
    package func storageContents() -> [DataEntry] { environment.storage.contents }

    // MARK: - Entry points called by the scheduler

    /// Runs one user action (docs/scenario-format.md, "Steps"), adding its effects to `output`.
    package mutating func perform(_ step: Step, conversation: String, sessionIsNew: Bool, into output: inout DeviceOutput) {
        begin(&output)
        defer { finish(&output) }
        currentStep = step.number
        origin = RunOutcome.StepFailure.Origin(step: step.number, stepTime: now)
        self.sessionIsNew = sessionIsNew
        trace(.step(number: step.number, action: step.action))
        if Self.postsTo(step.action), !isMember(of: conversation) {
            // A removed member's devices no longer take part: nothing they do reaches the group (M6).
            fail(.notMember, "\(name) belongs to \(spec.person), who is not a member of conversation \(conversation) now (M6)", rule: "M6")
            return
        }
        if Self.interactsWithExtension(step.action) {
            interactionAvailable = true
            lastInteraction = now
        }
        performAction(step, conversation: conversation)
    }

    /// A copy of a message reaches this device (M11, M23); its effects go to `output`.
    package mutating func receive(_ envelope: Envelope, into output: inout DeviceOutput) {
        begin(&output)
        defer { finish(&output) }
        if tracing { trace(.delivered(message: envelope.id, from: envelope.senderDevice)) }
        add(envelope)
    }

    /// The cloud store answered one of this device's requests (M13); effects go to `output`.
    package mutating func receive(_ response: CloudResponse, into output: inout DeviceOutput) {
        begin(&output)
        defer { finish(&output) }
        let record = response.record
        switch response.request.operation {
        case .fetch:
            origin = response.request.origin?.then(.cloudFetch)
            trace(.cloudAnswer(.fetched, key: record.key, version: record.version), .cloud(operation: nil, record: record))
            readProvenance[record.key] = response.provenance
            callback(.didFetch) { app, conversation in app.didFetch(record, conversation: conversation) }
        case .store:
            origin = response.request.origin?.then(.cloudStore)
            trace(.cloudAnswer(record.conflict ? .conflict : .stored, key: record.key, version: record.version),
                  .cloud(operation: nil, record: record))
            readProvenance[record.key] = response.provenance
            if !record.conflict, let change = response.request.change, composing?.allocated?.id == change.id { composing = nil }
            callback(.didStore) { app, conversation in app.didStore(record, conversation: conversation) }
        }
    }

    /// The members of `conversation` changed (M6: the list changes while the extension runs).
    mutating func updateMembers(_ newMembers: [String], of conversation: String) {
        members[conversation] = newMembers
        if newMembers.contains(spec.person) { memberOf.insert(conversation) } else { memberOf.remove(conversation) }
        remoteOrderCache[conversation] = nil
    }

    /// Whether the device's owner is a member of `conversation` now (M6).
    func isMember(of conversation: String) -> Bool {
        memberOf.contains(conversation)
    }

    /// What the device shows and holds now, for checks and reports.
    package func snapshot() -> DeviceSnapshot { makeSnapshot() }

    // MARK: - Plumbing

    /// Takes the caller's buffer for the call (its context says the instant and the counters).
    private mutating func begin(_ output: inout DeviceOutput) {
        swap(&effects, &output)
        actionDepth = 0
        // A failure belongs to the running step only while that step runs; what the app
        // does on a cloud answer later follows from the step its request came from
        // (`origin`), what it does on a delivered copy from none.
        currentStep = nil
        origin = nil
    }

    /// Hands the buffer back, with the call's effects added.
    private mutating func finish(_ output: inout DeviceOutput) {
        swap(&effects, &output)
    }

    var now: VirtualTime { effects.context.now }

    /// Adds an event to the call's effects (nothing with the trace off: callers on the
    /// paths every copy takes ask `tracing` first, so as not to build the event's fields).
    mutating func trace(_ kind: TraceEvent.Kind, _ payload: TraceEvent.Payload? = nil) {
        guard tracing else { return }
        effects.events.append(TraceEvent(time: effects.context.now, subject: spec.name, kind: kind, payload: payload))
    }

    /// Fails the running step (or the app's action) with `code`, saying why; `rule` is the
    /// rule of docs/behaviour.md the failure follows from, which the reason cites too.
    mutating func fail(_ code: MessageErrorCode, _ reason: String, rule: Rule?) {
        let later = currentStep == nil ? origin : nil
        trace(.failed(step: currentStep, code: code, origin: later), .failure(reason: reason, rule: rule))
        effects.failures.append(StepFailure(step: currentStep, device: spec.name, time: now, code: code, reason: reason, rule: rule,
                                            origin: later))
    }

    mutating func sighting(_ kind: PitfallKind, message: Int?, _ detail: String, mintedOn: String? = nil) {
        trace(.pitfall(kind, detail: detail))
        effects.sightings.append(PitfallSighting(kind: kind, device: spec.name, time: now, message: message, detail: detail,
            mintedOn: mintedOn))
    }
}

/// A device's transcripts, one per conversation: those of the scenario's conversations
/// by position, so that the path every delivered copy takes reads an array instead of
/// hashing the conversation's name; any other by name.
struct Transcripts {
    private let numbers: [String: Int]
    private var known: [Transcript]
    private var others: [String: Transcript] = [:]

    /// `numbers`: each conversation of the scenario and its position; `sessions`: how
    /// many sessions the run numbers, which each transcript's live table is made to hold.
    init(numbers: [String: Int], sessions: Int = 0) {
        self.numbers = numbers
        var empty = Transcript()
        empty.sessionCapacity = sessions
        known = Array(repeating: empty, count: numbers.values.max().map { $0 + 1 } ?? 0)
    }

    /// The conversation's transcript; nil for one that is not the scenario's and has none.
    subscript(conversation: String) -> Transcript? {
        if let number = numbers[conversation], known.indices.contains(number) { return known[number] }
        return others[conversation]
    }

    /// The transcript of the scenario's conversation at `position`, named `conversation`:
    /// read by position, without hashing the name.
    func scenarioTranscript(at position: Int, named conversation: String) -> Transcript {
        known.indices.contains(position) ? known[position] : self[conversation] ?? Transcript()
    }

    /// The conversation's transcript to change; `number` is its position in the scenario
    /// (-1 when not known), the same conversation as `conversation`.
    subscript(number: Int, conversation: String) -> Transcript {
        get { self[conversation] ?? Transcript() }
        _modify {
            if known.indices.contains(number) {
                yield &known[number]
            } else if let position = numbers[conversation], known.indices.contains(position) {
                yield &known[position]
            } else {
                yield &others[conversation, default: Transcript()]
            }
        }
    }
}

/// A conversation view shared, not copied, between the device's cache and its callbacks.
final class ConversationBox: Sendable {
    let view: Conversation

    init(_ view: Conversation) { self.view = view }
}

/// A message staged in the input field (M16) and the state change it will carry.
struct Draft: Sendable {
    /// What the input field holds: an app message, text, a sticker or an attachment line.
    var content: Envelope.Content
    var conversation: String
    var change: PendingChange?
    /// The provenance of the state it was built on.
    var base: Provenance

    /// The staged app message, if the draft is one.
    var message: Message? {
        if case .app(let message) = content { return message }
        return nil
    }
}

/// The entries a compose intent changes, until a sent message or a cloud write carries them.
struct PendingChange: Sendable {
    var step: Int?
    var session: String
    var entries: [DataEntry]
    /// Set once a change number is given, so a cloud write and its message share it.
    var allocated: Change?
}
