import GroupSimCore
import GroupSimScenario

/// What one device shows and holds at the end of a run: for checks and reports.
///
/// A value whose fields live in one shared box until a copy is changed (copy on write):
/// checks, pitfall detectors and exploration hand device lists around for every session,
/// and a copy costs one retain instead of one per field.
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

    /// Where `identifiers` comes from: a list, or the installation's map, listed each time
    /// it is read, so that a run of a large group does not list every person on every
    /// device for readers that never ask.
    enum IdentifierListing {
        case listed([Identifier])
        /// The owner's identifier first, then every other person's in the scenario's order,
        /// all in `conversation`.
        case minted(IdentifierMap, owner: String, ownerPosition: Int, people: [Scenario.Person], conversation: String)

        /// The owner's identifier, without listing the others.
        var first: Identifier? {
            switch self {
            case .listed(let list):
                return list.first
            case .minted(let map, let owner, let position, _, let conversation):
                // Every person of the scenario has an identifier in every map.
                let own = map.id(forPersonAt: position, person: owner, in: conversation) ?? ParticipantID(bits: 0, 0)
                return Identifier(person: owner, id: own)
            }
        }

        var list: [Identifier] {
            switch self {
            case .listed(let list):
                return list
            case .minted(let map, let owner, _, let people, let conversation):
                var list = first.map { [$0] } ?? []
                list.reserveCapacity(people.count)
                for person in people where person.key != owner {
                    if let id = map.id(for: person.key, in: conversation) { list.append(Identifier(person: person.key, id: id)) }
                }
                return list
            }
        }
    }

    /// The fields. Changed only through `writable`, which gives a copy its own box first,
    /// so no box that two snapshots share is ever changed.
    private final class Fields: @unchecked Sendable {
        var name: String
        var person: String
        var platform: Scenario.DeviceSpec.Platform
        var runsApp: Bool
        var callbacks: [AppCallback]
        var identifiers: IdentifierListing
        var generation: Int
        var drawnTranscripts: DrawnTranscripts
        var sessions: SessionTable
        var drafts: [Draft]
        var localStorage: [String: String] = [:]
        var localSuites: [String: [String: String]] = [:]
        var installIDs: [String] = []
        var identifierMaps: [IdentifierMap] = []
        var runIndex = -1

        init(name: String, person: String, platform: Scenario.DeviceSpec.Platform, runsApp: Bool, callbacks: [AppCallback],
             identifiers: IdentifierListing, generation: Int, drawnTranscripts: DrawnTranscripts,
             sessions: SessionTable, drafts: [Draft]) {
            self.name = name
            self.person = person
            self.platform = platform
            self.runsApp = runsApp
            self.callbacks = callbacks
            self.identifiers = identifiers
            self.generation = generation
            self.drawnTranscripts = drawnTranscripts
            self.sessions = sessions
            self.drafts = drafts
        }

        func copy() -> Fields {
            let copy = Fields(name: name, person: person, platform: platform, runsApp: runsApp, callbacks: callbacks,
                              identifiers: identifiers, generation: generation, drawnTranscripts: drawnTranscripts,
                              sessions: sessions, drafts: drafts)
            copy.localStorage = localStorage
            copy.localSuites = localSuites
            copy.installIDs = installIDs
            copy.identifierMaps = identifierMaps
            copy.runIndex = runIndex
            return copy
        }
    }

    private var fields: Fields

    /// The fields, made this snapshot's own first if another copy shares them.
    private var writable: Fields {
        mutating get {
            if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
            return fields
        }
    }

    public var name: String {
        get { fields.name }
        set { writable.name = newValue }
    }
    public var person: String {
        get { fields.person }
        set { writable.person = newValue }
    }
    public var platform: Scenario.DeviceSpec.Platform {
        get { fields.platform }
        set { writable.platform = newValue }
    }
    /// Whether the extension can run here (iOS with the app installed).
    public var runsApp: Bool {
        get { fields.runsApp }
        set { writable.runsApp = newValue }
    }
    /// Every callback the app received on this device, in order (M19-M24).
    public var callbacks: [AppCallback] {
        get { fields.callbacks }
        set { writable.callbacks = newValue }
    }
    /// This installation's identifiers: the owner's local one first, then one per other
    /// person in the scenario's order (M1). Per-conversation mode: the first conversation's.
    public var identifiers: [Identifier] {
        get { fields.identifiers.list }
        set { writable.identifiers = .listed(newValue) }
    }
    /// How many times the app was reinstalled (M2).
    public var generation: Int {
        get { fields.generation }
        set { writable.generation = newValue }
    }
    /// One transcript per conversation, in the scenario's order. Drawn when read (checks
    /// and exploration do not read it), each time: keep the array to read it more than once.
    public var transcripts: [DrawnTranscript] {
        get { fields.drawnTranscripts.transcripts }
        set { writable.drawnTranscripts = .drawn(newValue) }
    }
    /// Per session with a bubble here: the live bubble and what tapping it would show.
    /// Drawn when read (checks and exploration read the live bubbles through
    /// `SessionStates` instead); a device with many sessions draws them again on each
    /// read, so keep the array to read it more than once.
    public var sessions: [SessionView] {
        get { fields.sessions.views }
        // `session(_:)` is a dictionary look-up, not a scan, so checking every session
        // on every device stays linear.
        set { writable.sessions = SessionTable(views: newValue) }
    }
    /// The staged draft of each conversation that has one, in the scenario's order (M16).
    public var drafts: [Draft] {
        get { fields.drafts }
        set { writable.drafts = newValue }
    }
    /// The installation's local storage at the end (wiped by each reinstall): a copy
    /// of `LocalStorage`'s keys and values.
    public var localStorage: [String: String] {
        get { fields.localStorage }
        set { writable.localStorage = newValue }
    }
    /// The suites of that storage that hold something at the end (`UserDefaults(suiteName:)`),
    /// by name: each a copy of its keys and values, as `localStorage` is.
    public var localSuites: [String: [String: String]] {
        get { fields.localSuites }
        set { writable.localSuites = newValue }
    }
    /// Every install id this device's installations created, oldest first
    /// (`app.identity: install-id`).
    public var installIDs: [String] {
        get { fields.installIDs }
        set { writable.installIDs = newValue }
    }
    /// The current installation's identifier map, then the retired ones (M2).
    package var identifierMaps: [IdentifierMap] {
        get { fields.identifierMaps }
        set { writable.identifierMaps = newValue }
    }

    /// The device's position in its run's `RunOutcome.devices` (-1: not known).
    package var runIndex: Int {
        get { fields.runIndex }
        set { writable.runIndex = newValue }
    }

    /// The local identifier (M1).
    public var localIdentifier: ParticipantID? { fields.identifiers.first?.id }

    /// The first staged draft in the scenario's conversation order, if any (M16).
    public var draft: Message? { drafts.first?.message }

    /// The staged draft of `conversation`, if any (M16).
    public func draft(in conversation: String) -> Message? { drafts.first { $0.conversation == conversation }?.message }

    /// What tapping `name`'s bubble would show here; nil when no bubble of it is shown.
    public func session(_ name: String) -> SessionView? { fields.sessions.view(of: name) }

    /// `session(name)?.caption` without drawing the rest of the view (its summary lines):
    /// `.some(nil)` for a live bubble with no caption, nil for no bubble of the session.
    package func caption(ofSession name: String) -> String?? { fields.sessions.caption(of: name) }

    /// `session(name)?.summaries` without drawing the rest of the view (its caption).
    package func summaries(ofSession name: String) -> [String]? { fields.sessions.summaries(of: name) }

    /// Whether `other` is this snapshot, unchanged: both share one box of fields.
    package func isSame(as other: DeviceSnapshot) -> Bool { fields === other.fields }

    init(name: String, person: String, platform: Scenario.DeviceSpec.Platform, runsApp: Bool, callbacks: [AppCallback],
         identifiers: IdentifierListing, generation: Int,
         transcripts: DrawnTranscripts, sessions: SessionTable,
         drafts: [Draft]) {
        fields = Fields(name: name, person: person, platform: platform, runsApp: runsApp, callbacks: callbacks,
                        identifiers: identifiers, generation: generation, drawnTranscripts: transcripts,
                        sessions: sessions, drafts: drafts)
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
