/// `MSMessage` as one device sees it (M7).
///
/// The same sent message looks different on each device: `senderParticipantIdentifier`
/// is the sender's local identifier on the sending device and the receiver's own
/// identifier for the sender elsewhere (M3); `isPending` is true only for a staged
/// draft (M17).
public struct Message: Sendable, Hashable {
    /// GroupSim's run-wide number for the sent message (`m3`); nil for a draft not yet sent.
    public var id: Int?
    public var session: Session?
    /// The app's state, usually as query items. Only no scheme, http, https or data (M8).
    public var url: String?
    public var layout: TemplateLayout
    /// Shown as a summary line when a newer message of the session replaces this one (M10).
    public var summaryText: String?
    public var accessibilityLabel: String?
    public var shouldExpire: Bool
    /// The sender as this device identifies them (M3); nil on a draft.
    public var senderParticipantIdentifier: ParticipantID?
    public var isPending: Bool
    public var error: MessageErrorCode?

    public init(id: Int? = nil, session: Session? = nil, url: String? = nil, layout: TemplateLayout = TemplateLayout(),
                summaryText: String? = nil, accessibilityLabel: String? = nil, shouldExpire: Bool = false,
                senderParticipantIdentifier: ParticipantID? = nil, isPending: Bool = false, error: MessageErrorCode? = nil) {
        self.id = id
        self.session = session
        self.url = url
        self.layout = layout
        self.summaryText = summaryText
        self.accessibilityLabel = accessibilityLabel
        self.shouldExpire = shouldExpire
        self.senderParticipantIdentifier = senderParticipantIdentifier
        self.isPending = isPending
        self.error = error
    }

    /// `m3`, or `draft`.
    public var label: String { id.map { "m\($0)" } ?? "draft" }
}
