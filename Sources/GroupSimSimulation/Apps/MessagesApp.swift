import GroupSimCore
import GroupSimScenario

/// An iMessage app extension, as `MSMessagesAppViewController` sees the world (M19-M24).
///
/// Implement the callbacks you need; each returns the actions the app wants done
/// (insert a message, send directly, change style, dismiss, talk to the cloud store)
/// instead of doing I/O itself, so the simulation stays deterministic (determinism rule 5, README).
/// Every callback gets the `Conversation` as this device sees it right now.
///
/// GroupSim creates a fresh instance each time the extension becomes active and drops it
/// after `didResignActive`: the process ends and keeps nothing in memory (M22).
/// Register a factory with `AppRegistry` to use an app from scenario files.
public protocol MessagesApp {
    /// The extension is about to become active (M20, M21).
    mutating func willBecomeActive(_ conversation: Conversation) -> [AppAction]
    mutating func didBecomeActive(_ conversation: Conversation) -> [AppAction]
    /// The extension is about to close (M22).
    mutating func willResignActive(_ conversation: Conversation) -> [AppAction]
    mutating func didResignActive(_ conversation: Conversation) -> [AppAction]
    /// The user tapped one of the app's bubbles while the app was active (M21).
    mutating func willSelect(_ message: Message, conversation: Conversation) -> [AppAction]
    mutating func didSelect(_ message: Message, conversation: Conversation) -> [AppAction]
    /// A message of this app arrived while the app was active and not in transcript style (M23).
    mutating func didReceive(_ message: Message, conversation: Conversation) -> [AppAction]
    /// The user tapped Send, or a direct send started; not delivery (M17).
    mutating func didStartSending(_ message: Message, conversation: Conversation) -> [AppAction]
    /// The user removed the staged message (M17).
    mutating func didCancelSending(_ message: Message, conversation: Conversation) -> [AppAction]
    /// Every style change, before and after (M24).
    mutating func willTransition(to style: Scenario.PresentationStyle, conversation: Conversation) -> [AppAction]
    mutating func didTransition(to style: Scenario.PresentationStyle, conversation: Conversation) -> [AppAction]
    /// The user used the app's own interface to compose (`send`, `reply`, `insert` steps).
    mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction]
    /// The cloud store answered a `.fetch` (M13); `state` is nil when nothing is stored.
    mutating func didFetch(_ record: AppAction.CloudRecord, conversation: Conversation) -> [AppAction]
    /// The cloud store answered a `.store` (M13): `record` is what it now holds. For a
    /// refused `.conditional` write `record.conflict` is true and nothing was written.
    mutating func didStore(_ record: AppAction.CloudRecord, conversation: Conversation) -> [AppAction]
    /// The device carried out one action this app returned: `error` is nil on success, or
    /// the code a completion handler would get (M8, M16, M18). Called once per returned
    /// action, in order, after the action and everything it set off (and before a
    /// `send`/`reply` step's tap on Send, M16). Only apps whose `wantsActionResults` is
    /// true are told.
    mutating func didComplete(_ action: AppAction, error: MessageErrorCode?, conversation: Conversation) -> [AppAction]
    /// Whether the device should call `didComplete` (false by default: it costs a call per action).
    var wantsActionResults: Bool { get }
    /// Whether the device should hand this app the messages that arrive while it runs
    /// (`didReceive`; true by default). An app whose `didReceive` changes nothing and asks
    /// for nothing may say false: the call is still recorded and traced, but the message
    /// is not built for it, which every copy delivered to a running app would pay.
    var wantsReceivedMessages: Bool { get }
    /// The app was created on a device: `environment` is that device's installation
    /// (storage, tokens), the same object for every activation until a reinstall.
    mutating func didLaunch(in environment: AppEnvironment)
}

extension MessagesApp {
    public mutating func willBecomeActive(_ conversation: Conversation) -> [AppAction] { [] }
    public mutating func didBecomeActive(_ conversation: Conversation) -> [AppAction] { [] }
    public mutating func willResignActive(_ conversation: Conversation) -> [AppAction] { [] }
    public mutating func didResignActive(_ conversation: Conversation) -> [AppAction] { [] }
    public mutating func willSelect(_ message: Message, conversation: Conversation) -> [AppAction] { [] }
    public mutating func didSelect(_ message: Message, conversation: Conversation) -> [AppAction] { [] }
    public mutating func didReceive(_ message: Message, conversation: Conversation) -> [AppAction] { [] }
    public mutating func didStartSending(_ message: Message, conversation: Conversation) -> [AppAction] { [] }
    public mutating func didCancelSending(_ message: Message, conversation: Conversation) -> [AppAction] { [] }
    public mutating func willTransition(to style: Scenario.PresentationStyle, conversation: Conversation) -> [AppAction] { [] }
    public mutating func didTransition(to style: Scenario.PresentationStyle, conversation: Conversation) -> [AppAction] { [] }
    public mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] { [] }
    public mutating func didFetch(_ record: AppAction.CloudRecord, conversation: Conversation) -> [AppAction] { [] }
    public mutating func didStore(_ record: AppAction.CloudRecord, conversation: Conversation) -> [AppAction] { [] }
    public mutating func didComplete(_ action: AppAction, error: MessageErrorCode?, conversation: Conversation) -> [AppAction] { [] }
    public var wantsActionResults: Bool { false }
    public var wantsReceivedMessages: Bool { true }
    public mutating func didLaunch(in environment: AppEnvironment) {}
}

/// What an app asks the simulated system to do.
public enum AppAction: Sendable, Hashable {
    /// Stage a message in the input field (M16); the user's tap on Send sends it.
    case insert(Message)
    /// Send without the input field (M18): once per user interaction, only while visible.
    case send(Message)
    /// Stage plain text in the input field (M16).
    case insertText(String)
    /// Send plain text directly (M18).
    case sendText(String)
    /// Stage a validated sticker in the input field (M16, M28).
    case insertSticker(Sticker)
    /// Send a validated sticker directly (M18, M28).
    case sendSticker(Sticker)
    /// Stage a file attachment, drawn as a line naming the file (GroupSim draws no files).
    case insertAttachment(name: String)
    /// Ask for `compact` or `expanded`; asking for `transcript` is refused (M19).
    case requestPresentationStyle(Scenario.PresentationStyle)
    /// Close the extension (M22).
    case dismiss
    /// Read a record of the cloud store; the answer comes to `didFetch` (M13).
    case fetch(key: String)
    /// Write a record of the cloud store; the answer comes to `didStore` (M13).
    case store(key: String, write: CloudWrite)
}

extension AppAction {
    /// Whether this action sends directly, without the input field (M18).
    public var isDirectSend: Bool {
        switch self {
        case .send, .sendText, .sendSticker: true
        default: false
        }
    }

    /// Whether this action stages a draft in the input field (M16).
    public var stagesDraft: Bool {
        switch self {
        case .insert, .insertText, .insertSticker, .insertAttachment: true
        default: false
        }
    }
}

extension AppAction {
    /// How a write changes a cloud record (M13).
    public enum CloudWrite: Sendable, Hashable {
        /// Replace the whole state: concurrent writers overwrite each other.
        case overwrite(StateMap)
        /// Apply only these entries, atomically at the store: concurrent writers both land.
        case merge([Scenario.DataEntry])
        /// Replace the whole state only if the record's version is still `expectedVersion`
        /// (the version the app read; 0 when nothing was stored). Otherwise nothing is
        /// written and the answer is the server's current record with `conflict` set, the
        /// shape of CloudKit's `serverRecordChanged` (M13).
        case conditional(expectedVersion: Int, state: StateMap)
    }
}

extension AppAction {
    /// A cloud store record as the store answered it.
    public struct CloudRecord: Sendable, Hashable {
        public var key: String
        /// nil when nothing is stored under the key.
        public var state: StateMap?
        /// Increases by one on every write.
        public var version: Int
        /// True when a `.conditional` write was refused because the version moved; `state`
        /// and `version` are then the server's current record, to merge into and retry.
        public var conflict: Bool

        public init(key: String, state: StateMap?, version: Int, conflict: Bool = false) {
            self.key = key
            self.state = state
            self.version = version
            self.conflict = conflict
        }
    }
}

/// The user's intent in the app's own interface: what a `send`, `reply` or `insert` step
/// asks the app to compose. Identifier tokens are already resolved on this device.
public struct ComposeRequest: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case send, reply, insert
    }

    public var kind: Kind
    public var session: Session
    /// True the first time the session's name is used: the app should start a new session.
    public var isNewSession: Bool
    /// State changes; `$me`/`$bob` are already this device's raw UUID strings (M4).
    public var data: [Scenario.DataEntry]
    /// Every layout field the user gave, as a template layout (M9), kept as one: an app
    /// that makes its message from it (the built-in app, every message it composes) copies
    /// it once, where it was built from the seven fields below, copied and destroyed.
    public private(set) var layout: TemplateLayout
    /// Layout text with `$me`/`$bob` turned into `$UUID` tokens (M5).
    public var caption: String? { get { layout.caption } set { layout.caption = newValue } }
    public var subcaption: String? { get { layout.subcaption } set { layout.subcaption = newValue } }
    /// The layout's other fields (M9): text with `$UUID` tokens (M5), and the image's name.
    public var trailingCaption: String? { get { layout.trailingCaption } set { layout.trailingCaption = newValue } }
    public var trailingSubcaption: String? { get { layout.trailingSubcaption } set { layout.trailingSubcaption = newValue } }
    public var imageTitle: String? { get { layout.imageTitle } set { layout.imageTitle = newValue } }
    public var imageSubtitle: String? { get { layout.imageSubtitle } set { layout.imageSubtitle = newValue } }
    public var image: String? { get { layout.image } set { layout.image = newValue } }
    public var summary: String?
    public var url: String?
    /// Whether the user asked for the direct send API (M18).
    public var direct: Bool

    public init(kind: Kind, session: Session, isNewSession: Bool, data: [Scenario.DataEntry] = [], caption: String? = nil,
                subcaption: String? = nil, summary: String? = nil, url: String? = nil, direct: Bool = false) {
        self.init(kind: kind, session: session, isNewSession: isNewSession, data: data, layout: TemplateLayout(caption: caption, subcaption: subcaption),
                  summary: summary, url: url, direct: direct)
    }

    /// A request with its whole layout made at once (a device's compose, for every send):
    /// set field by field, the layout was read, changed and destroyed seven times.
    init(kind: Kind, session: Session, isNewSession: Bool, data: [Scenario.DataEntry], layout: TemplateLayout, summary: String?, url: String?,
         direct: Bool) {
        self.kind = kind
        self.session = session
        self.isNewSession = isNewSession
        self.data = data
        self.layout = layout
        self.summary = summary
        self.url = url
        self.direct = direct
    }
}
