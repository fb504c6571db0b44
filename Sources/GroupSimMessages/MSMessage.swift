import Foundation
import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// `MSMessage`: an interactive message, as the app builds it or as this device sees it (M7).
///
/// The `url` setter keeps only no scheme, http, https or data: any other scheme is
/// silently dropped and the old value stays, as on iOS (M8); GroupSim reports it as the
/// `dropped-url` pitfall when the message is inserted or sent. `senderParticipantIdentifier`
/// and `isPending` are set by the system: at insert for the app's own message, and as this
/// device knows the sender for messages it received or selected (M3, M17).
open class MSMessage {
    @exclusivity(unchecked) open private(set) var session: MSSession?
    /// The query items of the URL are the usual place for the app's state.
    open var url: URL? {
        get {
            if let cached = cachedURL { return cached }
            let made = urlText.flatMap(ParsedURLs.url(for:))
            cachedURL = made
            return made
        }
        set {
            guard let newValue else {
                urlText = nil
                cachedURL = nil
                droppedURL = nil
                return
            }
            let text = newValue.absoluteString
            if MessageURL.isAccepted(text) {
                urlText = text
                cachedURL = newValue
                droppedURL = nil
            } else {
                droppedURL = text
            }
        }
    }
    open var layout: MSMessageLayout? {
        get {
            if let drawn = unbuiltLayout {
                unbuiltLayout = nil
                builtLayout = MSMessageTemplateLayout(drawn.layout)
            }
            return builtLayout
        }
        set {
            unbuiltLayout = nil
            builtLayout = newValue
        }
    }
    /// Drawn as a summary line when a newer message of the session replaces this one (M10).
    open var summaryText: Optional<String>
    open var accessibilityLabel: Optional<String>
    open var shouldExpire: Bool
    /// The sender as this device identifies them (M3). All zeros on a message the app has
    /// made and not yet inserted (nil in Objective-C).
    open var senderParticipantIdentifier: UUID { sender.map(UUID.init(_:)) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
    /// True for a message the app made, until the user taps Send (`didStartSending`) or a
    /// direct send starts; false for messages the device sent or received (M17).
    @exclusivity(unchecked) open internal(set) var isPending: Bool = false
    open var error: Optional<any Error>

    @exclusivity(unchecked) var urlText: String?
    @exclusivity(unchecked) private var cachedURL: URL?
    @exclusivity(unchecked) private var builtLayout: MSMessageLayout?
    /// The message GroupSim handed the app, whose layout is made into the app's object when
    /// first read: most callbacks' messages are never asked for it. The message, not its
    /// layout, is kept: it holds what every device sees in one shared box, so keeping it
    /// retains one object where copying the layout retained (and later released) each of
    /// its eight texts.
    @exclusivity(unchecked) private var unbuiltLayout: Message?
    /// A URL the setter refused, kept so that GroupSim can report the dropped URL (M8).
    @exclusivity(unchecked) var droppedURL: String?
    /// The sender as GroupSim identifies them, made into a `UUID` when the app asks.
    @exclusivity(unchecked) var sender: ParticipantID?
    /// GroupSim's run-wide number of the sent message this object stands for.
    @exclusivity(unchecked) var messageID: Int?

    /// A message that starts a new session when sent (M20); pending until sent.
    public init() {
        summaryText = nil
        accessibilityLabel = nil
        shouldExpire = false
        error = nil
        isPending = true
    }

    /// A message that replaces the session's bubble when sent (M10); pending until sent.
    public init(session: MSSession) {
        summaryText = nil
        accessibilityLabel = nil
        shouldExpire = false
        error = nil
        self.session = session
        isPending = true
    }

    /// The app's view of a message GroupSim holds. The properties the app may set have no
    /// initial value (`Optional<String>` rather than `String?`), so that the initializers
    /// initialize them instead of assigning them: an assignment checks exclusive access at
    /// run time, and GroupSim makes one of these for every message it hands a controller.
    init(_ message: Message, session: MSSession?) {
        self.session = session
        urlText = message.url
        unbuiltLayout = message
        summaryText = message.summaryText
        accessibilityLabel = message.accessibilityLabel
        shouldExpire = message.shouldExpire
        sender = message.senderParticipantIdentifier
        isPending = message.isPending
        error = message.error.map { MSMessageErrorCode($0).error }
        messageID = message.id
    }

    /// A new message with the same content, session, sender and state (`NSCopying`).
    open func copy() -> Any {
        let copy = MSMessage()
        copy.session = session
        copy.urlText = urlText
        copy.cachedURL = cachedURL
        copy.droppedURL = droppedURL
        copy.layout = layout
        copy.summaryText = summaryText
        copy.accessibilityLabel = accessibilityLabel
        copy.shouldExpire = shouldExpire
        copy.sender = sender
        copy.isPending = isPending
        copy.error = error
        copy.messageID = messageID
        return copy
    }

    /// Whether `object` is this message, or a message object standing for the same sent
    /// message (a copy, or the same bubble handed to the app again).
    open func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? MSMessage else { return false }
        if other === self { return true }
        guard let id = messageID, let otherID = other.messageID else { return false }
        return id == otherID
    }

    /// The message GroupSim carries, in `sessionName`'s session.
    func simulated(sessionName: String?) -> Message {
        Message(session: sessionName.map(Session.init(name:)), url: droppedURL ?? urlText,
                layout: layout?.drawnTemplate ?? TemplateLayout(), summaryText: summaryText,
                accessibilityLabel: accessibilityLabel, shouldExpire: shouldExpire)
    }
}

extension MSMessage: Hashable {
    public static func == (lhs: MSMessage, rhs: MSMessage) -> Bool { lhs.isEqual(rhs) }

    public func hash(into hasher: inout Hasher) {
        if let messageID { hasher.combine(messageID) } else { hasher.combine(ObjectIdentifier(self)) }
    }
}

/// The URLs last made from a message's text: every device of a group that reads the
/// same bubble's `url` gets the one value made for the first, instead of parsing the
/// text again (a URL is a value, so sharing it changes nothing the app can see).
private enum ParsedURLs {
    private static let room = 16
    private nonisolated(unsafe) static var kept: [(text: String, url: URL?)] = []
    private nonisolated(unsafe) static var next = 0
    private static let lock = NSLock()

    static func url(for text: String) -> URL? {
        lock.lock()
        defer { lock.unlock() }
        if let found = kept.first(where: { $0.text == text }) { return found.url }
        let made = URL(string: text)
        if kept.count < room {
            kept.append((text, made))
        } else {
            kept[next] = (text, made)
            next = (next + 1) % room
        }
        return made
    }
}

extension UUID {
    /// The Foundation form of a participant identifier (M1).
    init(_ id: ParticipantID) {
        func byte(_ value: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: value >> (56 - 8 * index)) }
        let high = id.high
        let low = id.low
        self.init(uuid: (byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3),
                         byte(high, 4), byte(high, 5), byte(high, 6), byte(high, 7),
                         byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
                         byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)))
    }
}
