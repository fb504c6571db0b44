/// A JSON value with object keys in insertion order, rendered the same way every time
/// (determinism rule 4, README). Written here so output never depends on a dictionary's order.
package indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    /// A whole number of any size (an exploration's counts): written as its digits.
    case count(ExactCount)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.rendered() == rhs.rendered() }
    package func hash(into hasher: inout Hasher) { hasher.combine(rendered()) }

    package static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    package static func int(_ value: Int) -> JSONValue { .int(Int64(value)) }

    /// Compact when `indent` is nil; otherwise pretty-printed with that many spaces.
    package func rendered(indent: Int? = 2) -> String {
        var output = ""
        write(to: &output, indent: indent, level: 0)
        return output
    }

    private func write(to output: inout String, indent: Int?, level: Int) {
        let newline = indent == nil ? "" : "\n"
        let pad = { (depth: Int) -> String in String(repeating: " ", count: (indent ?? 0) * depth) }
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .count(let value): output += value.description
        case .string(let value): output += Self.quote(value)
        case .array(let items):
            guard !items.isEmpty else { output += "[]"; return }
            output += "[" + newline
            for (index, item) in items.enumerated() {
                output += pad(level + 1)
                item.write(to: &output, indent: indent, level: level + 1)
                output += (index + 1 < items.count ? "," : "") + newline
            }
            output += pad(level) + "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{" + newline
            for (index, member) in members.enumerated() {
                output += pad(level + 1) + Self.quote(member.0) + (indent == nil ? ":" : ": ")
                member.1.write(to: &output, indent: indent, level: level + 1)
                output += (index + 1 < members.count ? "," : "") + newline
            }
            output += pad(level) + "}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    package static func quote(_ text: String) -> String { "\"" + Escaper.json(text) + "\"" }
}
