import GroupSimCore
import GroupSimScenario

/// One simulated device: its own identifiers, transcripts and extension (M1, M19).
///
/// A device is a value-type state machine that the `Simulation` actor owns and steps in
/// place (determinism rule 5, README). At rest it is its state alone; each input (a step,
/// a delivered copy, a cloud answer) is handled by a `DeviceCall`, which pairs the device
/// with the instant, the run's counters and the buffer for what it wants done (copies to
/// send, cloud requests, trace events, failures, sightings) for the length of the call.
/// It never awaits, schedules or reads a file itself.
package struct Device {
    let spec: Scenario.DeviceSpec
    var name: String { spec.name }

    private(set) var world: WorldFacts
    /// The owner's position in the scenario's people (-1 if not listed).
    let position: Int
    /// This device's position in the scenario's devices (-1 if not listed).
    let deviceNumber: Int

    // What every delivered copy reads or writes of the device, declared together so that
    // they lie together (a struct's fields lie in the order declared): spread over the
    // device, they were six or seven cache lines a copy, each likely cold again after the
    // other devices' copies in between.
    /// Whether `trace` keeps events: false when the run keeps no trace (benchmarks).
    let tracing: Bool
    /// Whether the extension runs, and whether it wants `didReceive` (`setApp` keeps both).
    private(set) var isRunning = false
    private(set) var appWantsReceivedMessages = false
    var style: Scenario.PresentationStyle = .compact { didSet { keepViewButDraftAndStyle() } }
    var actionDepth = 0
    var currentStep: Int?
    /// The user's step the input being handled follows from: the step itself while it
    /// runs, the step a cloud answer's request came from, nil for a delivered copy.
    var origin: RunOutcome.StepFailure.Origin?
    var activeConversation: String? { didSet { forgetView() } }
    /// The callbacks the running app was called with, oldest first; a copy's `didReceive`
    /// is counted, not appended (`noteCallback`).
    private var callbackLog = CallbackLog()
    // What the device shows.
    var transcripts: Transcripts
    let makeApp: AppRegistry.Factory?

    // Identifiers (M1, M2, M6).
    var identifiers: IdentifierMap {
        get { currentIdentifiers }
        set {
            currentIdentifiers = newValue
            forgetView()
        }
    }
    /// `identifiers`, stored without an observer, so that a restart can hand it on in place.
    private var currentIdentifiers: IdentifierMap
    var retired: [IdentifierMap] = []
    var members: [String: [String]] { didSet { forgetView() } }
    /// The conversations the owner is a member of now, kept with `members` (`updateMembers`):
    /// every step asks, and looking through a member list compares names.
    private(set) var memberOf: Set<String>
    /// The conversation the owner was last found a member of in `memberOf`, until the
    /// members change: each of a device's sends asks for the same one as its step starts
    /// and again as its message leaves, and hashing the name was a look-up per send.
    var lastMemberOf: String?
    /// The conversation and the session whose numbers (`WorldFacts`) a call last looked
    /// up, with them: the numbers are the scenario's and stay for the run, and a device's
    /// sends name the same ones again and again (each hashed a name per send).
    var lastConversationNumber: (name: String, number: Int)?
    var lastSessionNumber: (name: String, number: Int)?
    // The empty dictionaries below are `.init()`, not `[:]`: a literal is built through a
    // call per dictionary, and every restart sets each device's anew (`reset(world:)`).
    var remoteOrderCache: [String: RemoteIdentifiers] = .init() { didSet { forgetView() } }
    /// `localIdentifier(in:)`'s last answer and the map it came from.
    var lastLocalIdentifier: (map: IdentifierMap, conversation: String, id: ParticipantID)?

    /// Every install id this device's installations created, oldest first.
    var installIDs: [String] = []

    // The extension (M19-M24).
    /// The running extension. `setApp` keeps the two flags below beside it, which the path
    /// every delivered copy takes reads instead of the existential (asking it copies its box).
    package internal(set) var app: (any MessagesApp)?
    /// The running app's state mode when it is the built-in app, whose callbacks that do
    /// nothing are recorded, not made (`BuiltInApp.ignores`); nil for any other app.
    private(set) var builtInAppMode: Scenario.AppSpec.StateMode?

    /// Starts or ends the extension. Taken, not copied: every callback hands its instance
    /// back here, and comparing it with nil and storing it each copied the app's box.
    mutating func setApp(_ instance: consuming (any MessagesApp)?) {
        guard let running = instance else {
            builtInAppMode = nil
            isRunning = false
            appWantsReceivedMessages = false
            app = nil
            return
        }
        // Asked as the app starts: an app's type and mode stay while it runs.
        if !isRunning { builtInAppMode = (running as? BuiltInApp)?.mode }
        isRunning = true
        appWantsReceivedMessages = running.wantsReceivedMessages
        app = running
    }
    var selected: Envelope? { didSet { forgetView() } }
    /// The staged draft of each conversation: the input field belongs to a conversation,
    /// so staging in one leaves another's draft alone (M16).
    var drafts: [String: Draft] = .init() {
        didSet {
            keepViewButDraftAndStyle()
            draftChanges &+= 1
        }
    }
    /// How many times a draft was staged or cleared: exploration compares it around an
    /// arrival to see whether the app staged something on it (`ScheduleEffect.insert`).
    var draftChanges = 0
    /// `conversationViewBox()` as last built, kept until something it shows changes (the
    /// observers above forget it): apps are called on every delivery while they run. In
    /// a box, so that a callback lends it to the app instead of copying all of it.
    var lastView: ConversationBox?
    /// The last view built, kept when only a draft or the style changed since (each
    /// staged message and each send changes a draft, a reply's tap and staging the style):
    /// everything in it but those is still what the app sees, so the next view copies it
    /// with the draft and style replaced instead of building it.
    var viewButDraft: ConversationBox?

    /// Only a draft or the style changed: the view but those still holds, kept to build
    /// the next one from.
    mutating func keepViewButDraftAndStyle() {
        if let view = lastView { viewButDraft = view }
        lastView = nil
    }

    /// Something the view shows besides the drafts changed: both views are built anew.
    mutating func forgetView() {
        lastView = nil
        viewButDraft = nil
    }
    /// Every callback the running app was called with, oldest first.
    package var callbacks: [AppCallback] { callbackLog.all }

    /// Notes a call to the running app.
    mutating func noteCallback(_ name: AppCallback) { callbackLog.append(name) }
    /// A user interaction that a direct send may still use (M18).
    var interactionAvailable = false
    /// When the user last interacted with the extension here; nil once it was closed (M18).
    var lastInteraction: VirtualTime?
    /// The `send`/`reply` step whose draft the user will send as soon as it is staged.
    var sendWhenStaged = false
    /// What the user's current compose intent changes, until a message or write carries it.
    var composing: PendingChange?
    /// Per session, the change the app wrote to the cloud before any message of it was
    /// sent (`app.push: on-compose`): removing the draft then leaves it in the record (M17).
    var written: [String: Change] = .init()
    /// The provenance of the state the app last read, per session.
    var readProvenance: [String: Provenance] = .init()
    /// Whether the session of the step being performed has never been used before.
    var sessionIsNew = false
    /// This installation's storage and tokens, handed to every app instance (M2, M22).
    var environment: AppEnvironment

    /// `position` and `number`, the owner's position in the scenario's people and the
    /// device's in its devices (-1: not listed), find the device's tables without hashing a name.
    package init(spec: Scenario.DeviceSpec, world: WorldFacts, makeApp: AppRegistry.Factory?, tracing: Bool = true) {
        let position = world.personIndex[spec.person] ?? -1, number = world.tables.deviceIndex[spec.name] ?? -1
        self.spec = spec
        self.tracing = tracing
        self.world = world
        self.position = position
        self.deviceNumber = number
        self.makeApp = makeApp
        let tables = world.tables
        self.currentIdentifiers = Self.firstIdentifiers(of: spec, number: number, world: world)
        self.members = tables.initialMembers
        self.memberOf = Self.initialConversations(of: spec.person, at: position, tables: tables)
        self.environment = AppEnvironment(device: spec.name, installation: 0, world: world)
        // With one conversation its transcript holds every numbered session; with several,
        // each holds some, and its table stays as long as the highest it holds.
        self.transcripts = Transcripts(numbers: world.conversationNumbers, sessions: world.conversations.count == 1 ? world.sessionNumbers.count : 0)
    }

    /// The first installation's identifiers, minted from `world`'s seed (M1).
    private static func firstIdentifiers(of spec: Scenario.DeviceSpec, number: Int, world: WorldFacts) -> IdentifierMap {
        world.mintIdentifiers(device: spec.name, at: number >= 0 ? number : nil, generation: 0)
    }

    /// The conversations `person` (at `position` in the scenario's people, -1 if not
    /// listed) is a member of when a run starts.
    private static func initialConversations(of person: String, at position: Int, tables: ScenarioTables) -> Set<String> {
        tables.initialConversationsByPerson.indices.contains(position)
            ? tables.initialConversationsByPerson[position] : tables.initialConversations[person] ?? []
    }

    /// Makes the device what `init` makes for another run of the same scenario (`world`:
    /// that run's facts, with its seed), keeping the room its transcripts took. Everything
    /// else is set as `init` sets it, so nothing of the last run can leak into the next: its
    /// app, its identifiers (minted from the new seed), drafts, callbacks and storage. Set in
    /// place, field by field, instead of making a whole device and assigning it over this
    /// one, which every restart did for each device: a stored property added to `Device`
    /// must be set here too (`RunPartResetTests` compares each property of a restarted
    /// device with a new device's, and a restarted run's digest with a fresh one's).
    mutating func reset(world: WorldFacts) {
        // Emptied first, as `init` finds them: a message of the last run they hold keeps
        // the identifier map below from being reused.
        transcripts.reset(seed: world.streams.seed)
        // An environment of a later installation, or one an app used, is made anew.
        let unused = environment.installation == 0 ? AppEnvironment.reused(&environment, world: world) : nil
        // The first installation's map, if no message of the last run holds it (the two
        // caches and the views did: a view's remote identifiers that no app read hold it).
        if lastLocalIdentifier != nil { lastLocalIdentifier = nil }
        if !remoteOrderCache.isEmpty { remoteOrderCache = .init() }
        forgetView()
        let map = currentIdentifiers.generation == 0 ? IdentifierMap.reused(&currentIdentifiers, streams: world.streams) : nil
        self.world = world
        let tables = world.tables
        currentIdentifiers = map ?? Self.firstIdentifiers(of: spec, number: deviceNumber, world: world)
        // What most devices of a run never changed is left as it is: an empty collection
        // or a nil assigned again released and retained it, and ran its observer.
        if !retired.isEmpty { retired = [] }
        members = tables.initialMembers
        memberOf = Self.initialConversations(of: spec.person, at: position, tables: tables)
        if lastMemberOf != nil { lastMemberOf = nil }
        if lastConversationNumber != nil { lastConversationNumber = nil }
        if lastSessionNumber != nil { lastSessionNumber = nil }
        if !installIDs.isEmpty { installIDs = [] }
        // `setApp` keeps the flags with the app: no flag, no app (reading the app copied it).
        if isRunning || appWantsReceivedMessages { setApp(nil) }
        if style != .compact { style = .compact }
        if activeConversation != nil { activeConversation = nil }
        if selected != nil { selected = nil }
        if !drafts.isEmpty { drafts = .init() }
        draftChanges = 0
        if !callbackLog.isEmpty { callbackLog = CallbackLog() }
        interactionAvailable = false
        lastInteraction = nil
        sendWhenStaged = false
        currentStep = nil
        origin = nil
        composing = nil
        if !written.isEmpty { written = .init() }
        if !readProvenance.isEmpty { readProvenance = .init() }
        actionDepth = 0
        sessionIsNew = false
        environment = unused ?? AppEnvironment(device: spec.name, installation: 0, world: world)
    }

    /// The key-value storage of the app's current installation on this device.
    package func storageContents() -> [Scenario.DataEntry] { environment.storage.contents }

    /// The extension's process ends (closed, M22, or uninstalled, M2): the app, what it
    /// had open and selected, what it was composing and had read are gone, and an
    /// interaction with it no longer counts for a direct send (M18).
    mutating func endAppProcess() {
        setApp(nil)
        activeConversation = nil
        selected = nil
        composing = nil
        readProvenance = [:]
        interactionAvailable = false
        lastInteraction = nil
    }

    /// The number of the bubble selected in the running app when its URL names the cloud
    /// record `key` (`app.record-key`, M13): a fetch answered then is what the app shows
    /// for the session (M21). Nil while the app is closed, nothing is selected, or the
    /// state travels in the message. Mutating for the reason `snapshotState(index:)` is.
    mutating func selectedMessage(naming key: String) -> Int? {
        guard isRunning, world.app.state != .message, let selected, selected.state[world.app.recordKey] == key else { return nil }
        return selected.id
    }

    /// The members of `conversation` changed (M6: the list changes while the extension runs).
    mutating func updateMembers(_ newMembers: [String], of conversation: String) {
        members[conversation] = newMembers
        if newMembers.contains(spec.person) { memberOf.insert(conversation) } else { memberOf.remove(conversation) }
        lastMemberOf = nil
        remoteOrderCache[conversation] = nil
    }

    /// What the device shows and holds now, for checks and reports. It changes nothing;
    /// it is mutating so that a caller reaches the device where it lies in the world: a
    /// non-mutating call on an element of the world's array copied the whole device first.
    mutating func snapshotState(index: Int) -> DeviceSnapshot.State { makeSnapshotState(index: index) }

    /// Whether the action acts in the conversation (opens the app there, stages, sends or
    /// taps), which a person who is no longer a member cannot do (M6). Closing the app,
    /// reinstalling and the network are the device's own business.
    static func postsTo(_ action: Scenario.Action) -> Bool {
        classifiers[action.kind.rawValue].posts
    }

    /// Whether the action is a touch in the extension's own view, the interaction a direct
    /// send needs (M18): the user composing in it (`send`, `reply`, `insert`). Opening it
    /// from the drawer, tapping a bubble in the transcript, Send and cancel in the input
    /// field, texts and stickers are touches in Messages, not in the extension.
    static func interactsWithExtension(_ action: Scenario.Action) -> Bool {
        classifiers[action.kind.rawValue].interacts
    }

    /// The two classifiers above for each kind, by raw value, read from its descriptor
    /// once: every step asks both, and reading a descriptor copied its strings and lists.
    private static let classifiers = Scenario.Action.Kind.allCases.map {
        (posts: $0.built.postsToConversation, interacts: $0.built.interactsWithExtension)
    }
}

/// A device's transcripts, one per conversation: those of the scenario's conversations
/// by position, so that the path every delivered copy takes reads an array instead of
/// hashing the conversation's name; any other by name. The first conversation's lies in
/// the device itself: a copy reaches it without reading an array's storage (and checking
/// that the array is unique) first.
struct Transcripts: RunPart {
    /// The scenario's first conversation's transcript, when it has conversations.
    private var first: Transcript
    /// How many conversations the scenario numbers (`first` and `rest`).
    private let count: Int
    /// The scenario's other conversations' transcripts, the second at 0.
    private var rest: [Transcript]
    private let numbers: [String: Int]
    private var others: [String: Transcript] = .init()

    /// `numbers`: each conversation of the scenario and its position; `sessions`: how
    /// many sessions the run numbers, which each transcript's live table is made to hold.
    init(numbers: [String: Int], sessions: Int = 0) {
        self.numbers = numbers
        count = numbers.values.max().map { $0 + 1 } ?? 0
        first = Transcript(sessionCapacity: sessions)
        rest = Array(repeating: Transcript(sessionCapacity: sessions), count: max(count - 1, 0))
        reset(seed: 0)
    }

    /// Empties every transcript, keeping their room.
    mutating func reset(seed: UInt64) {
        first.reset(seed: seed)
        for index in rest.indices { rest[index].reset(seed: seed) }
        others.removeAll()
    }

    /// The conversation's transcript; nil for one that is not the scenario's and has none.
    subscript(conversation: String) -> Transcript? {
        if let number = numbers[conversation], number >= 0, number < count { return scenarioTranscript(at: number) }
        return others[conversation]
    }

    /// The transcript of the scenario's conversation at `position`, named `conversation`:
    /// read by position, without hashing the name.
    func scenarioTranscript(at position: Int, named conversation: String) -> Transcript {
        position >= 0 && position < count ? scenarioTranscript(at: position) : self[conversation] ?? Transcript()
    }

    private func scenarioTranscript(at position: Int) -> Transcript { position == 0 ? first : rest[position - 1] }

    /// Changes the conversation's transcript where it lies; `number` is its position in
    /// the scenario (-1 when not known), the same conversation as `conversation`.
    mutating func change<Result>(_ number: Int, _ conversation: String, _ body: (inout Transcript) -> Result) -> Result {
        if number == 0, count > 0 { return body(&first) }
        let position = number > 0 && number < count ? number : numbers[conversation] ?? -1
        if position == 0, count > 0 { return body(&first) }
        if position > 0, position < count { return body(&rest[position - 1]) }
        return body(&others[conversation, default: Transcript()])
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
    /// An app message's URL state, read when it was staged: the sent message's (nil: not read).
    var state: StateMap? = nil
    /// An app message's session number (`WorldFacts.sessionNumber`), looked up when it was
    /// staged: the sent message's (nil: not looked up).
    var sessionNumber: Int? = nil

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
    var entries: [Scenario.DataEntry]
    /// Set once a change number is given, so a cloud write and its message share it.
    var allocated: Change?
}
