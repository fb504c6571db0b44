/// The one escaper for every format GroupSim writes user text into (JSON, scenario
/// files, diagnostics, HTML and SVG, JUnit XML, Mermaid, the terminal): a format is a
/// table of what each ASCII scalar becomes and a rule for every other scalar; the loop
/// that applies them is written once, here.
///
/// Text with nothing to escape comes back as it is, without a copy.
package struct Escaper: Sendable {
    /// What each ASCII scalar becomes (nil: ask `other`), indexed by its value.
    private let ascii: [String?]
    /// What a scalar the table leaves open becomes ("" drops it); nil keeps it.
    private let other: @Sendable (Unicode.Scalar) -> String?

    /// - Parameters:
    ///   - table: replacements for ASCII scalars.
    ///   - other: the replacement of any other scalar, or nil to keep it.
    package init(_ table: KeyValuePairs<Unicode.Scalar, String>, other: @escaping @Sendable (Unicode.Scalar) -> String? = { _ in nil }) {
        var ascii = [String?](repeating: nil, count: 128)
        for (scalar, replacement) in table where scalar.isASCII { ascii[Int(scalar.value)] = replacement }
        self.ascii = ascii
        self.other = other
    }

    /// `text` with every scalar the format replaces replaced.
    package func callAsFunction(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { replacement(for: $0) != nil }) else { return text }
        var result = String(scalars[..<first])
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in scalars[first...] {
            if let replacement = replacement(for: scalar) {
                result += replacement
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private func replacement(for scalar: Unicode.Scalar) -> String? {
        if scalar.isASCII, let fixed = ascii[Int(scalar.value)] { return fixed }
        return other(scalar)
    }

    /// `\u001f` (`uppercase`: `\u001F`): four hexadecimal digits at least.
    package static func unicodeEscape(_ scalar: Unicode.Scalar, uppercase: Bool) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: uppercase)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

extension Escaper {
    /// The inside of a JSON string literal: quotes, backslashes and control characters
    /// escaped, and `<`, `>`, `&`, U+2028 and U+2029 too, so the literal can sit in a
    /// page's `<script>`.
    package static let json = Escaper([
        "\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
    ]) { scalar in
        scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 ? unicodeEscape(scalar, uppercase: false) : nil
    }

    /// The inside of a double-quoted scalar of a scenario file: every character a file
    /// cannot hold raw (control characters, U+FFFE, U+FFFF) and the invisible ones that
    /// would confuse a reader (U+FEFF, U+2028, U+2029) as `\uXXXX`.
    package static let scenarioFile = Escaper(["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"]) { scalar in
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0xFFFE, 0xFFFF, 0xFEFF, 0x2028, 0x2029: unicodeEscape(scalar, uppercase: true)
        default: nil
        }
    }

    /// Text shown between double quotes in a diagnostic: quotes, backslashes, tabs and
    /// line breaks escaped.
    package static let diagnostic = Escaper(["\\": "\\\\", "\"": "\\\"", "\t": "\\t", "\n": "\\n", "\r": "\\r"])

    /// HTML or SVG content and attribute values: `&`, `<`, `>`, `"` and `'` become
    /// entities; control characters other than tab and newline are dropped (XML cannot
    /// carry them).
    package static let html = Escaper(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]) { scalar in
        switch scalar.value {
        case 0x09, 0x0A: nil
        case 0x00...0x1F, 0x7F, 0xFFFE, 0xFFFF: ""
        default: nil
        }
    }

    /// XML content (a JUnit report): `&`, `<`, `>` and `"` become entities; control
    /// characters XML 1.0 forbids, which cannot be escaped either, become `?`.
    package static let xml = Escaper(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"]) { scalar in
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: nil
        case 0x00...0x1F, 0xFFFE, 0xFFFF: "?"
        default: nil
        }
    }

    /// A quoted XML attribute's value: as `xml`, with tabs and line breaks as character
    /// references, which an attribute keeps (raw, a reader turns them into spaces).
    package static let xmlAttribute = Escaper([
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "\n": "&#10;", "\t": "&#9;", "\r": "&#13;",
    ], other: xml.other)

    /// A Mermaid label on one line: the characters Mermaid reads as syntax become its
    /// entity codes, and line breaks and other control characters a space.
    package static let mermaid = Escaper([
        "#": "#35;", ";": "#59;", "<": "#lt;", ">": "#gt;", "\"": "#quot;", "&": "#amp;", "%": "#37;", ":": "#58;",
        "{": "#123;", "}": "#125;",
    ]) { scalar in
        switch scalar.value {
        case 0x00...0x1F, 0x7F, 0x2028, 0x2029: " "
        default: nil
        }
    }

    /// Text for a terminal: control characters but newline and tab (C0, DEL and C1) and
    /// the bidirectional overrides become a visible `\u{1B}`.
    package static let terminal = Escaper([:]) { scalar in
        scalar != "\t" && scalar != "\n" && actsOnTerminal(scalar) ? "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" : nil
    }

    /// The inside of a shell's `$'...'` word: backslash, quote, newline and tab as `\\`,
    /// `\'`, `\n` and `\t`, and the rest of what a terminal acts on as `\xHH` bytes.
    package static let shellDollar = Escaper(["\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t"]) { scalar in
        guard actsOnTerminal(scalar) else { return nil }
        return String(scalar).utf8.map { "\\x" + ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }

    /// What a terminal would act on or reorder rather than show: control characters (C0,
    /// DEL, C1) and the bidirectional overrides.
    package static func actsOnTerminal(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
