import GroupSimCore
import GroupSimScenario

/// What one device shows and holds at the end of a run: for checks and reports.
///
/// A value whose fields live in one box that all the snapshots of a run share, each at its
/// device's position, until a copy is changed (copy on write): a run's snapshots cost one
/// box, not one per device, and checks, pitfall detectors and exploration hand device
/// lists around for every session at one retain a copy.
public struct DeviceSnapshot: Sendable {
    /// One person as this installation identifies them (M1).
    public struct Identifier: Sendable, Hashable, Codable {
        /// The person's key in the scenario.
        public var person: String
        public var id: ParticipantID

        public init(person: String, id: ParticipantID) {
            self.person = person
            self.id = id
        }
    }

    /// One conversation's transcript as this device draws it.
    public struct DrawnTranscript: Sendable, Hashable {
        public var conversation: String
        /// The lines, oldest first.
        public var entries: [DrawnEntry]

        public init(conversation: String, entries: [DrawnEntry]) {
            self.conversation = conversation
            self.entries = entries
        }
    }

    /// The message staged in one conversation's input field (M16).
    public struct Draft: Sendable, Hashable {
        public var conversation: String
        public var message: Message

        public init(conversation: String, message: Message) {
            self.conversation = conversation
            self.message = message
        }
    }

    /// The fields of one snapshot. What drawing, listing and session views need is kept as
    /// the device left it (`map`, `owner`, `position`, `transcriptTable`; the run's facts are
    /// the box's), and each is made only when read, unless a setter
    /// replaced it (the optionals below).
    struct State {
        var name: String
        var person: String
        var platform: Scenario.DeviceSpec.Platform
        var runsApp: Bool
        var generation: Int
        var runIndex: Int
        /// The device's identifiers, owner (and the owner's position in the people) and
        /// transcripts at the end; `live`'s device `liveIndex`.
        let map: IdentifierMap
        let owner: String
        let position: Int
        let transcriptTable: Transcripts
        let liveIndex: Int
        /// Set by the setters: what they replaced, read instead of what is drawn or listed.
        var listed: [Identifier]?
        var drawn: [DrawnTranscript]?
        var views: [SessionView]?
        var maps: [IdentifierMap]?
        /// What most devices end a run without (a callback, a draft, storage, an install id,
        /// a retired map), together; nil while all are empty: a run made and freed each
        /// list and table of every device's state.
        private var extras: Extras?

        private struct Extras {
            var callbacks: [AppCallback] = []
            var drafts: [Draft] = []
            var localStorage: [String: String] = [:]
            var localSuites: [String: [String: String]] = [:]
            var installIDs: [String] = []
            var retired: [IdentifierMap] = []
        }

        /// A state with none of the extras: `setExtras` adds them.
        init(name: String, person: String, platform: Scenario.DeviceSpec.Platform, runsApp: Bool, generation: Int, runIndex: Int,
             map: IdentifierMap, owner: String, position: Int, transcriptTable: Transcripts, liveIndex: Int) {
            self.name = name
            self.person = person
            self.platform = platform
            self.runsApp = runsApp
            self.generation = generation
            self.runIndex = runIndex
            self.map = map
            self.owner = owner
            self.position = position
            self.transcriptTable = transcriptTable
            self.liveIndex = liveIndex
        }

        mutating func setExtras(callbacks: [AppCallback], drafts: [Draft], localStorage: [String: String],
                                localSuites: [String: [String: String]], installIDs: [String], retired: [IdentifierMap]) {
            extras = Extras(callbacks: callbacks, drafts: drafts, localStorage: localStorage, localSuites: localSuites, installIDs: installIDs,
                            retired: retired)
        }

        var callbacks: [AppCallback] {
            get { extras?.callbacks ?? [] }
            set { setExtra(\.callbacks, newValue) }
        }
        var drafts: [Draft] {
            get { extras?.drafts ?? [] }
            set { setExtra(\.drafts, newValue) }
        }
        var localStorage: [String: String] {
            get { extras?.localStorage ?? [:] }
            set { setExtra(\.localStorage, newValue) }
        }
        var localSuites: [String: [String: String]] {
            get { extras?.localSuites ?? [:] }
            set { setExtra(\.localSuites, newValue) }
        }
        var installIDs: [String] {
            get { extras?.installIDs ?? [] }
            set { setExtra(\.installIDs, newValue) }
        }
        /// The retired identifier maps, oldest first (M2).
        var retired: [IdentifierMap] { extras?.retired ?? [] }

        private mutating func setExtra<Value>(_ field: WritableKeyPath<Extras, Value>, _ value: Value) {
            var changed = extras ?? Extras()
            changed[keyPath: field] = value
            extras = changed
        }

        /// What the device's transcripts and sessions are drawn from, in the run of `world`.
        func drawing(_ world: WorldFacts) -> DeviceDrawing {
            DeviceDrawing(drawer: TranscriptDrawer(world: world, identifiers: map, person: owner, position: position),
                          transcriptTable: transcriptTable)
        }

        /// The owner's identifier first, then every other person's in the scenario's order,
        /// all in the first conversation.
        func identifiers(_ world: WorldFacts) -> [Identifier] {
            if let listed { return listed }
            let drawing = drawing(world)
            var list = [ownIdentifier(drawing)]
            list.reserveCapacity(world.people.count)
            for person in world.people where person.key != owner {
                if let id = map.id(for: person.key, in: drawing.firstConversation) { list.append(Identifier(person: person.key, id: id)) }
            }
            return list
        }

        /// The owner's identifier, without listing the others.
        func firstIdentifier(_ world: WorldFacts) -> Identifier? {
            if let listed { return listed.first }
            return ownIdentifier(drawing(world))
        }

        private func ownIdentifier(_ drawing: DeviceDrawing) -> Identifier {
            Identifier(person: owner, id: drawing.drawer.ownIdentifier(in: drawing.firstConversation))
        }
    }

    /// The states of a run's snapshots, one per device, shared by all of them: a run makes
    /// one box, not one per device. Changed only through `change`, which gives a snapshot
    /// a box of its own first, so no box that two snapshots share is ever changed.
    private final class Storage: @unchecked Sendable {
        let world: WorldFacts
        let live: SharedLiveBubbles
        @exclusivity(unchecked) var states: [State]

        init(world: WorldFacts, live: SharedLiveBubbles, states: [State]) {
            self.world = world
            self.live = live
            self.states = states
        }
    }

    private var storage: Storage
    private var index: Int

    /// The snapshot's state, to read one field of.
    private var fields: State {
        _read { yield storage.states[index] }
    }

    /// Changes the state, made this snapshot's own first if another snapshot shares its box.
    private mutating func change(_ body: (inout State) -> Void) {
        if !isKnownUniquelyReferenced(&storage) {
            storage = Storage(world: storage.world, live: storage.live, states: [storage.states[index]])
            index = 0
        }
        body(&storage.states[index])
    }

    public var name: String {
        get { fields.name }
        set { change { $0.name = newValue } }
    }
    public var person: String {
        get { fields.person }
        set { change { $0.person = newValue } }
    }
    public var platform: Scenario.DeviceSpec.Platform {
        get { fields.platform }
        set { change { $0.platform = newValue } }
    }
    /// Whether the extension can run here (iOS with the app installed).
    public var runsApp: Bool {
        get { fields.runsApp }
        set { change { $0.runsApp = newValue } }
    }
    /// Every callback the app received on this device, in order (M19-M24).
    public var callbacks: [AppCallback] {
        get { fields.callbacks }
        set { change { $0.callbacks = newValue } }
    }
    /// This installation's identifiers: the owner's local one first, then one per other
    /// person in the scenario's order (M1). Per-conversation mode: the first conversation's.
    /// Listed when read.
    public var identifiers: [Identifier] {
        get { fields.identifiers(storage.world) }
        set { change { $0.listed = newValue } }
    }
    /// How many times the app was reinstalled (M2).
    public var generation: Int {
        get { fields.generation }
        set { change { $0.generation = newValue } }
    }
    /// One transcript per conversation, in the scenario's order. Drawn when read (checks
    /// and exploration do not read it), each time: keep the array to read it more than once.
    public var transcripts: [DrawnTranscript] {
        get { fields.drawn ?? fields.drawing(storage.world).transcripts }
        set { change { $0.drawn = newValue } }
    }
    /// Per session with a bubble here: the live bubble and what tapping it would show.
    /// Drawn when read (checks and exploration read the live bubbles through
    /// `SessionStates` instead); a device with many sessions draws them again on each
    /// read, so keep the array to read it more than once.
    public var sessions: [SessionView] {
        get { sessionTable.views }
        set { change { $0.views = newValue } }
    }
    /// The staged draft of each conversation that has one, in the scenario's order (M16).
    public var drafts: [Draft] {
        get { fields.drafts }
        set { change { $0.drafts = newValue } }
    }
    /// The installation's local storage at the end (wiped by each reinstall): a copy
    /// of `LocalStorage`'s keys and values.
    public var localStorage: [String: String] {
        get { fields.localStorage }
        set { change { $0.localStorage = newValue } }
    }
    /// The suites of that storage that hold something at the end (`UserDefaults(suiteName:)`),
    /// by name: each a copy of its keys and values, as `localStorage` is.
    public var localSuites: [String: [String: String]] {
        get { fields.localSuites }
        set { change { $0.localSuites = newValue } }
    }
    /// Every install id this device's installations created, oldest first
    /// (`app.identity: install-id`).
    public var installIDs: [String] {
        get { fields.installIDs }
        set { change { $0.installIDs = newValue } }
    }
    /// The current installation's identifier map, then the retired ones (M2).
    package var identifierMaps: [IdentifierMap] {
        get {
            if let maps = fields.maps { return maps }
            let current = fields.map
            return fields.retired.isEmpty ? [current] : [current] + fields.retired.reversed()
        }
        set { change { $0.maps = newValue } }
    }

    /// The device's position in its run's `RunOutcome.devices` (-1: not known).
    package var runIndex: Int {
        get { fields.runIndex }
        set { change { $0.runIndex = newValue } }
    }

    /// The sessions as a table: the views set, or the live bubbles' drawn when asked for.
    private var sessionTable: SessionTable {
        if let views = fields.views { return SessionTable(views: views) }
        return SessionTable(live: storage.live, device: fields.liveIndex, drawing: fields.drawing(storage.world))
    }

    /// The local identifier (M1).
    public var localIdentifier: ParticipantID? { fields.firstIdentifier(storage.world)?.id }

    /// The first staged draft in the scenario's conversation order, if any (M16).
    public var draft: Message? { drafts.first?.message }

    /// The staged draft of `conversation`, if any (M16).
    public func draft(in conversation: String) -> Message? { drafts.first { $0.conversation == conversation }?.message }

    /// What tapping `name`'s bubble would show here; nil when no bubble of it is shown.
    public func session(_ name: String) -> SessionView? { sessionTable.view(of: name) }

    /// `session(name)?.caption` without drawing the rest of the view (its summary lines):
    /// `.some(nil)` for a live bubble with no caption, nil for no bubble of the session.
    package func caption(ofSession name: String) -> String?? { sessionTable.caption(of: name) }

    /// `session(name)?.summaries` without drawing the rest of the view (its caption).
    package func summaries(ofSession name: String) -> [String]? { sessionTable.summaries(of: name) }

    /// Whether `caption(ofSession: name) == .some(caption)`, compared without drawing it.
    package func caption(ofSession name: String, is caption: String) -> Bool { sessionTable.caption(of: name, is: caption) }

    /// Whether the session's summary lines (none without a bubble) are `count` many and
    /// read `texts` (nil: not asked), compared without drawing them.
    package func summaries(ofSession name: String, count: Int?, texts: [String]?) -> Bool {
        sessionTable.summaries(of: name, count: count, texts: texts)
    }

    /// Whether `other` is this snapshot, unchanged: both read one state of one box.
    package func isSame(as other: DeviceSnapshot) -> Bool { storage === other.storage && index == other.index }

    /// Every device of a run, each the state in `states` at its position, sharing one box.
    static func run(_ states: [State], world: WorldFacts, live: SharedLiveBubbles) -> [DeviceSnapshot] {
        let storage = Storage(world: world, live: live, states: states)
        return states.indices.map { DeviceSnapshot(storage: storage, index: $0) }
    }

    private init(storage: Storage, index: Int) {
        self.storage = storage
        self.index = index
    }
}

extension DeviceSnapshot {
    /// One line of a device's transcript as Messages draws it: tokens already turned into
    /// this device's contact names (M5).
    public struct DrawnEntry: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case bubble, summary, text, sticker, plain
    }

    public var kind: Kind
    /// The message behind the line (`m3`).
    public var message: Int
    public var session: String?
    /// Who really sent it (person key).
    public var senderPerson: String
    /// The sender's contact name as this device draws it.
    public var senderName: String
    /// The sender as this device identifies them (M3); bubbles only.
    public var senderIdentifier: ParticipantID?
    /// Drawn caption (bubbles), or the line's text (summary, text, sticker, plain).
    public var text: String?
    public var subcaption: String?
    /// Every field of the bubble's template layout as drawn here, `$UUID` tokens as contact
    /// names (M5, M9); bubbles only.
    public var layout: TemplateLayout?
    public var url: String?
    /// The app's state in the URL (bubbles only; M12).
    public var state: StateMap?
    }
}

extension DeviceSnapshot {
    /// What a device would show for a session if the user tapped it now.
    public struct SessionView: Sendable {
    public var session: String
    public var conversation: String
    /// The live bubble's message.
    public var message: Int
    public var senderPerson: String
    /// The live bubble's caption as drawn here (M5).
    public var caption: String?
    /// The state in the live bubble's URL.
    public var urlState: StateMap
    /// Summary lines drawn for the session (M14), oldest first.
    public var summaries: [String]
    /// Every summary line the session left, drawn or not.
    public var summaryCount: Int
    /// The changes the live bubble's state descends from.
    package var provenance: Provenance
    }
}
