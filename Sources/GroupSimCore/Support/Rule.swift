/// One of the numbered rules of `docs/behaviour.md` (`M1` to `M30`): what a pitfall,
/// a step, a check or a callback cites. Written as its identifier (`"M12"`) in files and
/// output, and as a string literal in Swift (`let rule: Rule = "M12"`).
public struct Rule: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral {
    /// The identifier, `M12`.
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public init(stringLiteral value: String) { rawValue = value }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// The rule's number (12 for `M12`), nil for an identifier that is not one.
    public var number: Int? {
        guard rawValue.first == "M" else { return nil }
        return Int(rawValue.dropFirst())
    }

    /// `M2` before `M12`: by number, then by identifier.
    public static func < (left: Rule, right: Rule) -> Bool {
        switch (left.number, right.number) {
        case let (l?, r?) where l != r: l < r
        default: left.rawValue < right.rawValue
        }
    }

    /// Where the rule is written up: `docs/behaviour.md#m12`.
    public var path: String { RuleReference.path(rawValue) }
}
