/// `MSSession`: a token that links the updates of one interactive thing (M10).
///
/// Sessions are compared by identity. GroupSim names a session after the scenario's
/// label (`poll`) and the conversation it lives in.
public struct Session: Sendable, Hashable, CustomStringConvertible {
    /// The scenario's name for it (`poll`); unique within a run.
    public let name: String

    public init(name: String) { self.name = name }

    public var description: String { name }
}
