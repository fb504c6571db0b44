/// Where the rules M1 to M30 are written up: `docs/behaviour.md`, one anchor per rule.
///
/// Everything the tool prints that cites a rule names the document too, so a reader can
/// look the rule up from any output (`groupsim help M12` prints it as well).
package enum RuleReference {
    /// The behaviour reference, relative to the repository's root.
    package static let document = "docs/behaviour.md"

    /// `docs/behaviour.md#m12` for `M12`.
    package static func path(_ rule: String) -> String {
        document + "#" + rule.lowercased()
    }

    /// The rules cited in `text` (`M12`, `M4`), each once, in order of first mention. A
    /// rule is `M` followed by one or two digits, not inside a longer word.
    package static func rules(in text: String) -> [String] {
        // Bytes, not an array of scalars: reports of large runs are megabytes long and
        // cite a rule every few lines. `M` and digits are ASCII, and no byte of a longer
        // character is below 0x80, so only a neighbour outside ASCII needs decoding.
        var contiguous = text
        return contiguous.withUTF8 { rules(in: $0) }
    }

    private static func rules(in bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var found: [String] = []
        var index = 0
        while index < bytes.count {
            defer { index += 1 }
            guard bytes[index] == UInt8(ascii: "M") else { continue }
            if index > 0, isWordPart(scalar(endingAt: index - 1, in: bytes)) { continue }
            var end = index + 1
            var number = 0
            while end < bytes.count, end - index <= 2, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) {
                number = number * 10 + Int(bytes[end] - UInt8(ascii: "0"))
                end += 1
            }
            let digits = end - index - 1
            guard digits >= 1, digits <= 2, end == bytes.count || !isWordPart(scalar(startingAt: end, in: bytes)) else { continue }
            guard (1...30).contains(number) else { continue }
            let rule = String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<end]), as: UTF8.self)
            if !found.contains(rule) { found.append(rule) }
        }
        return found
    }

    /// The scalar whose last byte is at `last`.
    private static func scalar(endingAt last: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar {
        guard bytes[last] >= 0x80 else { return Unicode.Scalar(bytes[last]) }
        var first = last
        while first > 0, bytes[first] & 0xC0 == 0x80, last - first < 3 { first -= 1 }
        return decoded(bytes[first...last])
    }

    /// The scalar whose first byte is at `first`.
    private static func scalar(startingAt first: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar {
        guard bytes[first] >= 0x80 else { return Unicode.Scalar(bytes[first]) }
        var end = first + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80, end - first < 4 { end += 1 }
        return decoded(bytes[first..<end])
    }

    private static func decoded(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Unicode.Scalar {
        String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
    }

    /// One line naming where every rule cited in `text` is written up, or nil when it
    /// cites none, in rule order: `rules: M11 docs/behaviour.md#m11, M12 docs/behaviour.md#m12`.
    package static func footnote(for text: String) -> String? {
        let cited = rulesInOrder(in: text)
        guard !cited.isEmpty else { return nil }
        return "rules: " + cited.map { "\($0) \($0.path)" }.joined(separator: ", ")
    }

    /// The same in one short line, for output that must fit one screen (lessons):
    /// `rules, in docs/behaviour.md: #m11 #m12`.
    package static func compactFootnote(for text: String) -> String? {
        let cited = rulesInOrder(in: text)
        guard !cited.isEmpty else { return nil }
        return "rules, in \(document): " + cited.map { "#" + $0.rawValue.lowercased() }.joined(separator: " ")
    }

    /// The rules cited in `text`, each once, in rule order (`M2` before `M12`).
    package static func rulesInOrder(in text: String) -> [Rule] {
        rules(in: text).map(Rule.init(rawValue:)).sorted()
    }

    private static func isWordPart(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-" || scalar == "#"
    }
}
