import GroupSimCore
import GroupSimScenario

/// A pitfall the run fell into: what happened where, the rule it comes from, and the fix.
public struct Pitfall: Sendable, Hashable {
    public var kind: Scenario.PitfallKind
    /// The docs/behaviour.md rule (`M12`).
    public var rule: Rule
    /// The devices it happened on.
    public var devices: [String]
    /// The message involved (`m3`), if one.
    public var message: Int?
    public var session: String?
    /// One line: what happened where.
    public var summary: String
    /// Why it happens, in plain language, citing the rule.
    public var explanation: String
    /// How to avoid it.
    public var fix: String
}
