/// Where the rules M1 to M30 are written up: `docs/behaviour.md`, one anchor per rule.
///
/// Everything the tool prints that cites a rule names the document too, so a reader can
/// look the rule up from any output (`groupsim help M12` prints it as well).
public enum RuleReference {
    /// The behaviour reference, relative to the repository's root.
    public static let document = "docs/behaviour.md"

    /// `docs/behaviour.md#m12` for `M12`.
    public static func path(_ rule: String) -> String {
        document + "#" + rule.lowercased()
    }

    /// The rules cited in `text` (`M12`, `M4`), each once, in order of first mention. A
    /// rule is `M` followed by one or two digits, not inside a longer word.
    public static func rules(in text: String) -> [String] {
        var found: [String] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            defer { index += 1 }
            guard scalars[index] == "M" else { continue }
            if index > 0, isWordPart(scalars[index - 1]) { continue }
            var end = index + 1
            while end < scalars.count, end - index <= 2, ("0"..."9").contains(scalars[end]) { end += 1 }
            let digits = end - index - 1
            guard digits >= 1, digits <= 2, end == scalars.count || !isWordPart(scalars[end]) else { continue }
            let rule = String(String.UnicodeScalarView(scalars[index..<end]))
            if let number = Int(rule.dropFirst()), (1...30).contains(number), !found.contains(rule) { found.append(rule) }
        }
        return found
    }

    /// One line naming where every rule cited in `text` is written up, or nil when it
    /// cites none, in rule order: `rules: M11 docs/behaviour.md#m11, M12 docs/behaviour.md#m12`.
    public static func footnote(for text: String) -> String? {
        let cited = rules(in: text).sorted { Int($0.dropFirst()) ?? 0 < Int($1.dropFirst()) ?? 0 }
        guard !cited.isEmpty else { return nil }
        return "rules: " + cited.map { "\($0) \(path($0))" }.joined(separator: ", ")
    }

    /// The same in one short line, for output that must fit one screen (lessons):
    /// `rules, in docs/behaviour.md: #m11 #m12`.
    public static func compactFootnote(for text: String) -> String? {
        let cited = rules(in: text).sorted { Int($0.dropFirst()) ?? 0 < Int($1.dropFirst()) ?? 0 }
        guard !cited.isEmpty else { return nil }
        return "rules, in \(document): " + cited.map { "#" + $0.lowercased() }.joined(separator: " ")
    }

    private static func isWordPart(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-" || scalar == "#"
    }
}
