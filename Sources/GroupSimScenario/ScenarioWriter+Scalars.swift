import GroupSimCore

extension ScenarioWriter {
    /// Text as a scalar that reads back as exactly this text: plain when it is a simple
    /// word (`alice-phone`, `$me`, `pickle.png`), else double-quoted with escapes.
    ///
    /// Plain is used only for text that starts with an ASCII letter, `_` or `$` and holds
    /// nothing but ASCII letters, digits and `_ - . / $`: such text can be neither a
    /// number nor a flag, holds no indicator (`#`, `:`, `,`, brackets) and no blank.
    /// Words that other YAML readers type (`null`, `yes`, `off`...) are quoted too.
    static func scalar(_ text: String) -> String {
        isPlainSafe(text) ? text : doubleQuoted(text)
    }

    /// `"text"` with `\"`, `\\`, `\n`, `\t`, `\r` and `\uXXXX` escapes for every character
    /// a scenario file cannot hold raw (control characters, U+FFFE, U+FFFF) and for the
    /// invisible ones that would confuse a reader (U+FEFF, U+2028, U+2029).
    static func doubleQuoted(_ text: String) -> String { "\"" + Escaper.scenarioFile(text) + "\"" }

    /// `|` block text for multi-line prose, or nil when the text must be quoted instead.
    ///
    /// Block text keeps every line as written below its key, indented by `indent`. It
    /// can hold the text only when the text has a line break before its end, no line
    /// starts with a tab, the first line with text does not start with a blank, no line
    /// is blanks only (the reader would empty it), and no character needs an escape.
    /// The header's chomping indicator keeps the trailing line breaks: `|-` none, `|`
    /// one, `|+` several.
    static func blockText(_ text: String, indent: String) -> (header: String, lines: [String])? {
        var content = Array(text.unicodeScalars)
        var trailingBreaks = 0
        while content.last == "\n" {
            content.removeLast()
            trailingBreaks += 1
        }
        guard !content.isEmpty, content.contains("\n") || trailingBreaks > 0 else { return nil }
        let lines = content.split(separator: "\n", omittingEmptySubsequences: false)
        var seenText = false
        for line in lines {
            guard let first = line.first else { continue }
            if first == "\t" { return nil }
            if !seenText, first == " " { return nil }
            seenText = true
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return nil }
            if line.contains(where: { $0 == "\r" || needsEscape($0) }) { return nil }
        }
        let header = switch trailingBreaks {
        case 0: "|-"
        case 1: "|"
        default: "|+"
        }
        var written = lines.map { line in
            line.isEmpty ? "" : indent + String(String.UnicodeScalarView(line))
        }
        written += Array(repeating: "", count: max(0, trailingBreaks - 1))
        return (header, written)
    }

    // MARK: - Private

    private static let typedWords: Set<String> = ["true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"]

    private static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII else { return false }
        guard isLetter(first) || first == "_" || first == "$" else { return false }
        guard !typedWords.contains(text.lowercased()) else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (isLetter(scalar) || ("0"..."9").contains(scalar) || "_-./$".unicodeScalars.contains(scalar))
        }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// Characters a scenario file may not hold raw, and invisible ones worth showing.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0xFFFE, 0xFFFF, 0xFEFF, 0x2028, 0x2029: true
        default: false
        }
    }
}
