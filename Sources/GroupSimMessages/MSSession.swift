/// `MSSession`: links the messages that update one interactive thing (M10).
///
/// Compared by identity, as Apple's is. Within one activation GroupSim hands the app the
/// same `MSSession` object for every message of a session, so `===` and `==` work as
/// they do on iOS. A new session the app creates for a scenario's `send` step takes the
/// step's session name, which checks and reports use.
open class MSSession: Hashable {
    /// The name GroupSim tracks the session by; nil until the message is inserted or sent.
    @exclusivity(unchecked) var name: String?

    /// A new session.
    public init() {}

    init(name: String) { self.name = name }

    public static func == (lhs: MSSession, rhs: MSSession) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
