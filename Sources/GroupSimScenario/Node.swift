/// One value of a scenario file after reading, before validation: a scalar, a mapping
/// or a sequence, each remembering where it started in the file.
///
/// The reader (`ScenarioReader`) produces a `Node` tree; `ScenarioParser` turns it into
/// a typed `Scenario`. Mapping entries keep file order, and keys are unique (a
/// duplicate key is a reading error).
package struct Node: Sendable, Hashable {
    package enum Value: Sendable, Hashable {
        case scalar(Scalar)
        case mapping([Entry])
        case sequence([Node])
    }

    /// One `key: value` pair of a mapping; the key keeps its own location so that an
    /// unknown key can be pointed at exactly.
    package struct Entry: Sendable, Hashable {
        package var key: String
        package var keyLocation: Scenario.SourceLocation
        package var value: Node

        package init(key: String, keyLocation: Scenario.SourceLocation, value: Node) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    package var value: Value
    package var location: Scenario.SourceLocation

    package init(_ value: Value, at location: Scenario.SourceLocation) {
        self.value = value
        self.location = location
    }
}

/// A scalar as written, with the type the YAML subset gives it.
///
/// `true`/`false`, integers and decimals are typed only when plain (unquoted); every
/// quoted or block scalar is a string. An empty value (`key:` with nothing after it and
/// no nested block) is `.null`.
package struct Scalar: Sendable, Hashable {
    package enum Kind: Sendable, Hashable {
        case string
        case integer(Int64)
        case decimal(Double)
        case bool(Bool)
        case null
    }

    package enum Style: Sendable, Hashable {
        case plain
        case singleQuoted
        case doubleQuoted
        /// `|` block text: newlines kept.
        case literalBlock
    }

    /// The text after unquoting and unescaping.
    package var text: String
    package var kind: Kind
    package var style: Style

    package init(text: String, kind: Kind, style: Style) {
        self.text = text
        self.kind = kind
        self.style = style
    }
}
