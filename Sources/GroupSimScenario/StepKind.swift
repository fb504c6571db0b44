import GroupSimCore

extension Scenario.Action {
    /// The kind of an action without its payload: one case per step keyword, in the order
    /// docs/scenario-format.md lists them (the order of the keyword tables, the schema and
    /// "did you mean" suggestions).
    ///
    /// To add a step kind, add a case here and to `Action`, then follow the compiler: the
    /// two exhaustive switches below (`kind`, `descriptor`) and the places that carry the
    /// step out each ask for it, and every table (parser, writer, schema, help, exhaustive
    /// exploration's independence relation, the device's classifiers, the timeline's
    /// session and member checks, the run's preloads, the screen and the cited rule) is
    /// derived from the descriptor.
    public enum Kind: Int, Sendable, Hashable, CaseIterable {
        case send, reply, insert, pressSend, cancel, open, tap, close, text, sticker, reinstall, offline, online, join, leave

        /// Everything the tables need to know about this kind of step.
        package var descriptor: StepDescriptor {
            switch self {
            case .send: StepDescriptor(
                keyword: "send", value: .object(ScenarioVocabulary.send), about: "compose a message in a session and tap Send",
                scope: .conversation, sends: true, postsToConversation: true, interactsWithExtension: true,
                composesWithoutSelection: true, independence: .ownDevice, timeline: .createsSession, preload: .none, screen: .other,
                rules: ["M16", "M17", "M20"])
            case .reply: StepDescriptor(
                keyword: "reply", value: .object(ScenarioVocabulary.reply),
                about: "tap the session's live bubble, change the state, tap Send", scope: .conversation, sends: true,
                postsToConversation: true, interactsWithExtension: true, composesWithoutSelection: false, independence: .ownDevice,
                timeline: .usesSession, preload: .none, screen: .other, rules: ["M21", "M15"])
            case .insert: StepDescriptor(
                keyword: "insert", value: .object(ScenarioVocabulary.insert), about: "stage a message without sending it (M16)",
                scope: .conversation, sends: false, postsToConversation: true, interactsWithExtension: true,
                composesWithoutSelection: true, independence: .ownDevice, timeline: .createsSession, preload: .none, screen: .other,
                rules: ["M16"])
            case .pressSend: StepDescriptor(
                keyword: "press-send", value: .onlyTrue, about: "the user taps Send on the staged draft", scope: .conversation,
                sends: true, postsToConversation: true, interactsWithExtension: false, composesWithoutSelection: false,
                independence: .ownDevice, timeline: .none, preload: .none, screen: .other, rules: ["M17"])
            case .cancel: StepDescriptor(
                keyword: "cancel", value: .onlyTrue, about: "the user removes the staged draft", scope: .conversation, sends: false,
                postsToConversation: true, interactsWithExtension: false, composesWithoutSelection: false, independence: .ownDevice,
                timeline: .none, preload: .none, screen: .other, rules: ["M17"])
            case .open: StepDescriptor(
                keyword: "open", value: .choice(ScenarioVocabulary.openStyles), about: "open the app from the drawer (M20)",
                scope: .conversation, sends: false, postsToConversation: true, interactsWithExtension: false,
                composesWithoutSelection: false, independence: .ownDevice, timeline: .none, preload: .none, screen: .open,
                rules: ["M20", "M19"])
            case .tap: StepDescriptor(
                keyword: "tap", value: .name, about: "tap a session's live bubble (M21)", scope: .conversation, sends: false,
                postsToConversation: true, interactsWithExtension: false, composesWithoutSelection: false, independence: .ownDevice,
                timeline: .usesSession, preload: .none, screen: .tap, rules: ["M21"])
            case .close: StepDescriptor(
                keyword: "close", value: .onlyTrue, about: "dismiss the app (M22)", scope: .conversation, sends: false,
                postsToConversation: false, interactsWithExtension: false, composesWithoutSelection: false, independence: .ownDevice,
                timeline: .none, preload: .none, screen: .other, rules: ["M22"])
            case .text: StepDescriptor(
                keyword: "text", value: .text, about: "send a plain text message", scope: .conversation, sends: true,
                postsToConversation: true, interactsWithExtension: false, composesWithoutSelection: true, independence: .ownDevice,
                timeline: .none, preload: .none, screen: .other, rules: ["M30"])
            case .sticker: StepDescriptor(
                keyword: "sticker", value: .object(ScenarioVocabulary.sticker), about: "insert and send a sticker (M28, M29)",
                scope: .conversation, sends: true, postsToConversation: true, interactsWithExtension: false,
                composesWithoutSelection: true, independence: .ownDevice, timeline: .none, preload: .stickerFile, screen: .other,
                rules: ["M28", "M29"])
            case .reinstall: StepDescriptor(
                keyword: "reinstall", value: .onlyTrue, about: "uninstall and reinstall the app (M2)", scope: .device, sends: false,
                postsToConversation: false, interactsWithExtension: false, composesWithoutSelection: false, independence: .ownDevice,
                timeline: .none, preload: .installation, screen: .other, rules: ["M2"])
            case .offline: StepDescriptor(
                keyword: "offline", value: .onlyTrue, about: "the device stops receiving (M30)", scope: .device, sends: false,
                postsToConversation: false, interactsWithExtension: false, composesWithoutSelection: false,
                independence: .connectivity(goesOffline: true), timeline: .none, preload: .none, screen: .other, rules: ["M30"])
            case .online: StepDescriptor(
                keyword: "online", value: .onlyTrue, about: "the device receives again, in original order (M30)", scope: .device,
                sends: false, postsToConversation: false, interactsWithExtension: false, composesWithoutSelection: false,
                independence: .connectivity(goesOffline: false), timeline: .none, preload: .none, screen: .other, rules: ["M30"])
            case .join: StepDescriptor(
                keyword: "join", value: .name, about: "a person joins the conversation (M6)", scope: .conversation, sends: false,
                postsToConversation: false, interactsWithExtension: false, composesWithoutSelection: false, independence: .everyDevice,
                timeline: .joins, preload: .none, screen: .other, rules: ["M6"])
            case .leave: StepDescriptor(
                keyword: "leave", value: .name, about: "a person leaves the conversation (M6)", scope: .conversation, sends: false,
                postsToConversation: false, interactsWithExtension: false, composesWithoutSelection: false, independence: .everyDevice,
                timeline: .leaves, preload: .none, screen: .other, rules: ["M6"])
            }
        }

        /// The kind whose keyword is `keyword` (`press-send`), if any.
        public init?(keyword: String) {
            guard let kind = Self.byKeyword[keyword] else { return nil }
            self = kind
        }

        /// Every kind's descriptor, in `allCases` order (a kind's raw value is its index).
        package static let descriptors = allCases.map(\.descriptor)

        /// The descriptor from `descriptors`, built once: what the per-step paths of a run
        /// (the device's classifiers, the timeline's summary) read.
        package var built: StepDescriptor { Self.descriptors[rawValue] }

        /// Every step keyword, in `allCases` order.
        public static let keywords = descriptors.map(\.keyword)

        private static let byKeyword = Dictionary(allCases.map { ($0.descriptor.keyword, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The action's kind.
    public var kind: Kind {
        switch self {
        case .send: .send
        case .reply: .reply
        case .insert: .insert
        case .pressSend: .pressSend
        case .cancel: .cancel
        case .open: .open
        case .tap: .tap
        case .close: .close
        case .text: .text
        case .sticker: .sticker
        case .reinstall: .reinstall
        case .offline: .offline
        case .online: .online
        case .join: .join
        case .leave: .leave
        }
    }

    /// The action's key in a scenario file.
    public var keyword: String { Kind.keywords[kind.rawValue] }

    /// What a `send`, `reply` or `insert` composes; nil for the other actions.
    public var compose: Scenario.Compose? {
        switch self {
        case .send(let compose), .reply(let compose), .insert(let compose): compose
        case .pressSend, .cancel, .open, .tap, .close, .text, .sticker, .reinstall, .offline, .online, .join, .leave: nil
        }
    }

    /// The session the action names (`send`, `reply`, `insert`, `tap`); nil for the others.
    public var session: String? {
        switch self {
        case .send(let compose), .reply(let compose), .insert(let compose): compose.session
        case .tap(let session): session
        case .pressSend, .cancel, .open, .close, .text, .sticker, .reinstall, .offline, .online, .join, .leave: nil
        }
    }

    /// The person a `join` or `leave` names; nil for the other actions.
    public var member: String? {
        switch self {
        case .join(let person), .leave(let person): person
        case .send, .reply, .insert, .pressSend, .cancel, .open, .tap, .close, .text, .sticker, .reinstall, .offline, .online: nil
        }
    }
}

/// Everything the tables need to know about one kind of step (`Action.Kind.descriptor`):
/// the parser's keyword tables and suggestions, the writer's key, the JSON schema, the
/// help text, the device's classifiers and exhaustive exploration's independence relation
/// are all read from here.
package struct StepDescriptor: Sendable, Equatable {
    /// Whether a step of this kind acts in one conversation or on the whole device.
    package enum Scope: Sendable, Equatable {
        /// It acts in one conversation and takes `conversation:` when there are several.
        case conversation
        /// It acts on the whole device and takes no `conversation:`.
        case device
    }

    /// What a step of this kind commutes with in exhaustive exploration. Events on
    /// different entities (devices, the cloud store) commute (M11); a step belongs to
    /// the entities this says.
    package enum Independence: Sendable, Equatable {
        /// It belongs to its own device only: it commutes with everything on other
        /// devices and the store.
        case ownDevice
        /// It belongs to its own device and switches where the device's copies go: to
        /// the device, or to its held store while it is offline (M30).
        case connectivity(goesOffline: Bool)
        /// It changes every device's member list (M6): it belongs to every device and the
        /// store, and commutes only with copies held for an offline device.
        case everyDevice

        /// Whether a step of this class on one device and a step of `other`'s class on a
        /// different device (`sameDevice` false) or the same device commute: run in
        /// either order they leave every entity with the same sequence of events.
        package func commutes(with other: Independence, sameDevice: Bool) -> Bool {
            guard !sameDevice else { return false }
            switch (self, other) {
            case (.everyDevice, _), (_, .everyDevice): return false
            case (.ownDevice, .ownDevice), (.ownDevice, .connectivity), (.connectivity, .ownDevice), (.connectivity, .connectivity):
                return true
            }
        }
    }

    /// What it does to the timeline the parser follows (M6): the session it names, or
    /// the member list.
    package enum TimelineRole: Sendable, Equatable {
        /// Neither.
        case none
        /// It creates the session it names (`Action.session`) the first time the name is used.
        case createsSession
        /// It acts on a session some step creates, in the same conversation.
        case usesSession
        /// The person it names (`Action.member`) joins, or leaves, the conversation.
        case joins, leaves
    }

    /// What the run's tables prepare for it before the first event.
    package enum Preload: Sendable, Equatable {
        case none
        /// One more installation of the app on its device (M2): a new set of identifiers.
        case installation
        /// The sticker image file it names, read once (M28).
        case stickerFile
    }

    /// What it does to the extension's presentation on its device's screen; the raw
    /// value is the name the HTML page's script knows it by.
    package enum ScreenEffect: String, Sendable, Equatable {
        /// Nothing of its own: compact, where staging a message moves it (M16, M24).
        case other
        /// It opens the app in the style its value asks for (M19, M20).
        case open
        /// It shows the tapped bubble expanded (M21).
        case tap
    }

    /// The key in a scenario file (`press-send`).
    package var keyword: String
    /// What its value must look like.
    package var value: ScenarioVocabulary.ValueShape
    /// One line for the schema and the help.
    package var about: String
    package var scope: Scope
    /// Whether it sends a message that fans out to the conversation's other devices: what
    /// the memory budget (`--max-copies`) counts. `insert` only stages; `press-send` sends.
    package var sends: Bool
    /// Whether it acts in the conversation (opens the app there, stages, sends or taps),
    /// which a person who is no longer a member cannot do (M6).
    package var postsToConversation: Bool
    /// Whether it is a touch in the extension's own view, the interaction a direct send
    /// needs (M18).
    package var interactsWithExtension: Bool
    /// Whether a message it sends is composed with no bubble selected: the app opened from
    /// the drawer (M20), or a text or sticker. A reply builds on the tapped bubble (M21);
    /// `press-send` sends whatever was staged.
    package var composesWithoutSelection: Bool
    package var independence: Independence
    package var timeline: TimelineRole
    package var preload: Preload
    package var screen: ScreenEffect
    /// The rules of docs/behaviour.md the step models; the first is the one the HTML
    /// timeline cites for the step.
    package var rules: [Rule]

    /// The schema and parser field of this step kind.
    package var field: ScenarioVocabulary.Field { ScenarioVocabulary.Field(keyword, value, about) }
}
