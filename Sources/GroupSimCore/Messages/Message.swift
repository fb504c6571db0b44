/// `MSMessage` as one device sees it (M7).
///
/// The same sent message looks different on each device: `senderParticipantIdentifier`
/// is the sender's local identifier on the sending device and the receiver's own
/// identifier for the sender elsewhere (M3); `isPending` is true only for a staged
/// draft (M17).
///
/// What every device sees alike (session, URL, layout, summary and accessibility texts)
/// is kept in one shared, immutable box, so that handing a copy of a sent message to each
/// device's app copies one reference instead of a dozen strings; setting one of those
/// properties gives this value a box of its own. Values compare and hash by what they
/// hold, as plain structs do.
public struct Message: Sendable, Hashable {
    /// GroupSim's run-wide number for the sent message (`m3`); nil for a draft not yet sent.
    public var id: Int?
    public var shouldExpire: Bool
    /// The sender as this device identifies them (M3); nil on a draft.
    public var senderParticipantIdentifier: ParticipantID?
    public var isPending: Bool
    public var error: MessageErrorCode?
    /// What the sender sent, shared by every copy.
    private var shared: Shared

    public init(id: Int? = nil, session: Session? = nil, url: String? = nil, layout: TemplateLayout = TemplateLayout(),
                summaryText: String? = nil, accessibilityLabel: String? = nil, shouldExpire: Bool = false,
                senderParticipantIdentifier: ParticipantID? = nil, isPending: Bool = false, error: MessageErrorCode? = nil) {
        self.id = id
        self.shared = Shared(Fields(session: session, url: url, layout: layout, summaryText: summaryText,
                                    accessibilityLabel: accessibilityLabel))
        self.shouldExpire = shouldExpire
        self.senderParticipantIdentifier = senderParticipantIdentifier
        self.isPending = isPending
        self.error = error
    }

    public var session: Session? {
        get { shared.fields.session }
        set { shared = shared.with { $0.session = newValue } }
    }

    /// The app's state, usually as query items. Only no scheme, http, https or data (M8).
    public var url: String? {
        get { shared.fields.url }
        set { shared = shared.with { $0.url = newValue } }
    }

    public var layout: TemplateLayout {
        get { shared.fields.layout }
        set { shared = shared.with { $0.layout = newValue } }
    }

    /// Shown as a summary line when a newer message of the session replaces this one (M10).
    public var summaryText: String? {
        get { shared.fields.summaryText }
        set { shared = shared.with { $0.summaryText = newValue } }
    }

    public var accessibilityLabel: String? {
        get { shared.fields.accessibilityLabel }
        set { shared = shared.with { $0.accessibilityLabel = newValue } }
    }

    public var label: String { id.map { "m\($0)" } ?? "draft" }

    public static func == (lhs: Message, rhs: Message) -> Bool {
        lhs.id == rhs.id && lhs.shouldExpire == rhs.shouldExpire && lhs.senderParticipantIdentifier == rhs.senderParticipantIdentifier
            && lhs.isPending == rhs.isPending && lhs.error == rhs.error
            && (lhs.shared === rhs.shared || lhs.shared.fields == rhs.shared.fields)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(shouldExpire)
        hasher.combine(senderParticipantIdentifier)
        hasher.combine(isPending)
        hasher.combine(error)
        hasher.combine(shared.fields)
    }

    /// The box: immutable, so that sharing it between copies (and threads) is safe.
    private final class Shared: Sendable {
        let fields: Fields

        init(_ fields: Fields) { self.fields = fields }

        /// A new box with `change` made to a copy of these fields.
        func with(_ change: (inout Fields) -> Void) -> Shared {
            var copy = fields
            change(&copy)
            return Shared(copy)
        }
    }

    private struct Fields: Sendable, Hashable {
        var session: Session?
        var url: String?
        var layout: TemplateLayout
        var summaryText: String?
        var accessibilityLabel: String?
    }
}
