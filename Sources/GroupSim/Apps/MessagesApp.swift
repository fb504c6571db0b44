/// An iMessage app extension, as `MSMessagesAppViewController` sees the world (M19-M24).
///
/// Implement the callbacks you need; each returns the actions the app wants done
/// (insert a message, send directly, change style, dismiss, talk to the cloud store)
/// instead of doing I/O itself, so the simulation stays deterministic (DESIGN.md rule 5).
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
    mutating func willTransition(to style: PresentationStyle, conversation: Conversation) -> [AppAction]
    mutating func didTransition(to style: PresentationStyle, conversation: Conversation) -> [AppAction]
    /// The user used the app's own interface to compose (`send`, `reply`, `insert` steps).
    mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction]
    /// The cloud store answered a `.fetch` (M13); `state` is nil when nothing is stored.
    mutating func didFetch(_ record: CloudRecord, conversation: Conversation) -> [AppAction]
    /// The cloud store answered a `.store` (M13): `record` is what it now holds. For a
    /// refused `.conditional` write `record.conflict` is true and nothing was written.
    mutating func didStore(_ record: CloudRecord, conversation: Conversation) -> [AppAction]
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
    public mutating func willTransition(to style: PresentationStyle, conversation: Conversation) -> [AppAction] { [] }
    public mutating func didTransition(to style: PresentationStyle, conversation: Conversation) -> [AppAction] { [] }
    public mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] { [] }
    public mutating func didFetch(_ record: CloudRecord, conversation: Conversation) -> [AppAction] { [] }
    public mutating func didStore(_ record: CloudRecord, conversation: Conversation) -> [AppAction] { [] }
}

/// What an app asks the simulated system to do.
public enum AppAction: Sendable, Hashable {
    /// Stage a message in the input field (M16); the user's tap on Send sends it.
    case insert(Message)
    /// Send without the input field (M18): once per user interaction, only while visible.
    case send(Message)
    /// Ask for `compact` or `expanded`; asking for `transcript` is refused (M19).
    case requestPresentationStyle(PresentationStyle)
    /// Close the extension (M22).
    case dismiss
    /// Read a record of the cloud store; the answer comes to `didFetch` (M13).
    case fetch(key: String)
    /// Write a record of the cloud store; the answer comes to `didStore` (M13).
    case store(key: String, write: CloudWrite)
}

/// How a write changes a cloud record (M13).
public enum CloudWrite: Sendable, Hashable {
    /// Replace the whole state: concurrent writers overwrite each other.
    case overwrite(StateMap)
    /// Apply only these entries, atomically at the store: concurrent writers both land.
    case merge([DataEntry])
    /// Replace the whole state only if the record's version is still `expectedVersion`
    /// (the version the app read; 0 when nothing was stored). Otherwise nothing is
    /// written and the answer is the server's current record with `conflict` set, the
    /// shape of CloudKit's `serverRecordChanged` (M13).
    case conditional(expectedVersion: Int, state: StateMap)
}

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
    public var data: [DataEntry]
    /// Layout text with `$me`/`$bob` turned into `$UUID` tokens (M5).
    public var caption: String?
    public var subcaption: String?
    public var summary: String?
    public var url: String?
    /// Whether the user asked for the direct send API (M18).
    public var direct: Bool

    public init(kind: Kind, session: Session, isNewSession: Bool, data: [DataEntry] = [], caption: String? = nil,
                subcaption: String? = nil, summary: String? = nil, url: String? = nil, direct: Bool = false) {
        self.kind = kind
        self.session = session
        self.isNewSession = isNewSession
        self.data = data
        self.caption = caption
        self.subcaption = subcaption
        self.summary = summary
        self.url = url
        self.direct = direct
    }
}
