import GroupSimCore

// MARK: - Characters

extension ScenarioReader {
    /// A space or a tab: the whitespace that separates tokens on a line.
    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t"
    }

    /// The characters that end a plain scalar inside a flow collection.
    static func isFlowIndicator(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "," || scalar == "[" || scalar == "]" || scalar == "{" || scalar == "}"
    }

    /// The first index at or after `index` that is not a blank.
    static func skipBlanks(_ scalars: [Unicode.Scalar], from index: Int) -> Int {
        var index = index
        while index < scalars.count, isBlank(scalars[index]) {
            index += 1
        }
        return index
    }

    /// Whether a comment starts at `index`: a `#` at the start of the line or after a blank.
    static func isComment(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        index < scalars.count && scalars[index] == "#" && (index == 0 || isBlank(scalars[index - 1]))
    }

    /// Whether nothing but a comment is left at `index`.
    static func isLineEnd(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        index >= scalars.count || isComment(scalars, at: index)
    }

    /// Whether a block sequence item starts at `index`: `-` then a blank or the line's end.
    static func isDash(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        index < scalars.count && scalars[index] == "-"
            && (index + 1 == scalars.count || isBlank(scalars[index + 1]))
    }

    /// Whether a plain scalar may start at `index`. Indicators cannot start one, and `-`,
    /// `?` and `:` only when followed by a character that could continue it.
    static func canStartPlain(_ scalars: [Unicode.Scalar], at index: Int, inFlow: Bool) -> Bool {
        let first = scalars[index]
        switch first {
        case "[", "]", "{", "}", ",", "#", "&", "*", "!", "|", ">", "'", "\"", "%", "@", "`":
            return false
        case "-", "?", ":":
            guard index + 1 < scalars.count else { return false }
            let second = scalars[index + 1]
            return !isBlank(second) && !(inFlow && isFlowIndicator(second))
        default:
            return true
        }
    }

    /// Scans a plain scalar that starts at `index`.
    ///
    /// It ends at the end of the line, at a comment, at a `:` followed by a blank or the
    /// line's end (a key separator), and inside a flow collection also at `,` `[` `]`
    /// `{` `}` and at a `:` followed by one of them.
    ///
    /// - Returns: the text without trailing blanks, and the index where scanning stopped.
    static func scanPlain(
        _ scalars: [Unicode.Scalar], from index: Int, inFlow: Bool
    ) -> (text: String, stop: Int) {
        var stop = index
        var end = index
        while stop < scalars.count {
            let scalar = scalars[stop]
            if scalar == ":" {
                let following: Unicode.Scalar? = stop + 1 < scalars.count ? scalars[stop + 1] : nil
                if let following {
                    if isBlank(following) || (inFlow && isFlowIndicator(following)) { break }
                } else {
                    break
                }
            } else if scalar == "#", stop > index, isBlank(scalars[stop - 1]) {
                break
            } else if inFlow, isFlowIndicator(scalar) {
                break
            }
            stop += 1
            if !isBlank(scalar) { end = stop }
        }
        return (string(scalars[index..<end]), stop)
    }

    static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// Text made safe to show between double quotes in a message.
    static func escaped(_ text: String) -> String { Escaper.diagnostic(text) }

    /// What a message says was found at `index`: `"}"`, `"word"` or `the end of the line`.
    static func describe(_ scalars: [Unicode.Scalar], at index: Int) -> String {
        guard index < scalars.count else { return "the end of the line" }
        let first = scalars[index]
        if isFlowIndicator(first) || "#:'\"".unicodeScalars.contains(first) || isBlank(first) {
            return "\"\(escaped(String(first)))\""
        }
        var end = index
        while end < scalars.count, end - index < 20, !isBlank(scalars[end]),
            !isFlowIndicator(scalars[end])
        {
            end += 1
        }
        return "\"\(escaped(string(scalars[index..<end])))\""
    }
}

// MARK: - Scalars

extension ScenarioReader.Parser {
    /// Reads a `'single'` or `"double"` quoted scalar that starts at `column`; it must end
    /// on the same line.
    ///
    /// - Returns: the unquoted scalar and the index just after its closing quote.
    func readQuoted(
        _ line: ScenarioReader.Line, at column: Int
    ) throws(ScenarioError) -> (scalar: Scalar, end: Int) {
        let scalars = line.scalars
        let quote = scalars[column]
        var text = String.UnicodeScalarView()
        var index = column + 1
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == quote {
                if quote == "'", index + 1 < scalars.count, scalars[index + 1] == "'" {
                    text.append("'")
                    index += 2
                    continue
                }
                let style: Scalar.Style = quote == "'" ? .singleQuoted : .doubleQuoted
                return (Scalar(text: String(text), kind: .string, style: style), index + 1)
            }
            if quote == "\"", scalar == "\\" {
                let escape = try readEscape(line, at: index)
                text.append(escape.scalar)
                index = escape.end
                continue
            }
            text.append(scalar)
            index += 1
        }
        let mark = quote == "'" ? "\"'\"" : "'\"'"
        throw error("unclosed \(mark): expected \(mark) before the end of the line", line, column)
    }

    /// Reads the escape that starts with the `\` at `column` of a double-quoted scalar.
    private func readEscape(
        _ line: ScenarioReader.Line, at column: Int
    ) throws(ScenarioError) -> (scalar: Unicode.Scalar, end: Int) {
        let scalars = line.scalars
        guard column + 1 < scalars.count else {
            throw error("unfinished escape: expected a character after \"\\\"", line, column)
        }
        switch scalars[column + 1] {
        case "n": return ("\n", column + 2)
        case "t": return ("\t", column + 2)
        case "r": return ("\r", column + 2)
        case "\"": return ("\"", column + 2)
        case "\\": return ("\\", column + 2)
        case "/": return ("/", column + 2)
        case "u":
            let first = try readHex(line, escapeAt: column)
            if (0xDC00...0xDFFF).contains(first) {
                throw badUnicodeEscape(line, at: column)
            }
            if (0xD800...0xDBFF).contains(first) {
                // A UTF-16 surrogate pair written as two escapes, as JSON does.
                let low = column + 6
                guard low + 1 < scalars.count, scalars[low] == "\\", scalars[low + 1] == "u"
                else { throw badUnicodeEscape(line, at: column) }
                let second = try readHex(line, escapeAt: low)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw badUnicodeEscape(line, at: column)
                }
                let value = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                guard let scalar = Unicode.Scalar(value) else {
                    throw badUnicodeEscape(line, at: column)
                }
                return (scalar, low + 6)
            }
            guard let scalar = Unicode.Scalar(first) else {
                throw badUnicodeEscape(line, at: column)
            }
            return (scalar, column + 6)
        default:
            let found = ScenarioReader.escaped(String(scalars[column + 1]))
            throw error(
                "unknown escape \"\\\(found)\": use \\n, \\t, \\\", \\\\ or \\u followed by 4 hexadecimal digits",
                line, column)
        }
    }

    /// The value of the 4 hexadecimal digits after the `\u` at `column`.
    private func readHex(
        _ line: ScenarioReader.Line, escapeAt column: Int
    ) throws(ScenarioError) -> UInt32 {
        let scalars = line.scalars
        var value: UInt32 = 0
        for index in (column + 2)..<(column + 6) {
            guard index < scalars.count, let digit = hexDigit(scalars[index]) else {
                throw error(
                    "bad escape \"\\u\": expected 4 hexadecimal digits, found "
                        + ScenarioReader.describe(scalars, at: index),
                    line, column)
            }
            value = value << 4 | digit
        }
        return value
    }

    private func hexDigit(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: scalar.value - 0x30
        case 0x41...0x46: scalar.value - 0x41 + 10
        case 0x61...0x66: scalar.value - 0x61 + 10
        default: nil
        }
    }

    private func badUnicodeEscape(_ line: ScenarioReader.Line, at column: Int) -> ScenarioError {
        error(
            "bad escape: \"\\u\" must give a Unicode scalar; write a character beyond U+FFFF "
                + "as a surrogate pair such as \\uD83D\\uDE00",
            line, column)
    }

    /// Types a plain scalar: `true`/`false`, an integer, a decimal, or else a string.
    ///
    /// - Throws: for an integer beyond Int64 (and, when not negative, beyond UInt64), or a
    ///   decimal beyond Double.
    func typedPlain(_ text: String, at location: Scenario.SourceLocation) throws(ScenarioError) -> Scalar {
        if text == "true" || text == "false" {
            return Scalar(text: text, kind: .bool(text == "true"), style: .plain)
        }
        let digits = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8[...]
        let parts = digits.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let isNumber =
            (parts.count == 1 || parts.count == 2)
            && parts.allSatisfy { part in
                !part.isEmpty && part.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            }
        guard isNumber else { return Scalar(text: text, kind: .string, style: .plain) }
        if parts.count == 1 {
            // Above Int64 but within UInt64 (a seed such as 18446744073709551615): kept
            // as plain text, which the parser reads as a seed or calls too large for a count.
            if Int64(text) == nil, UInt64(text) != nil { return Scalar(text: text, kind: .string, style: .plain) }
            guard let value = Int64(text) else {
                throw ScenarioError(
                    "number too large: \(Excerpt.of(text)) does not fit in a 64-bit integer; quote it to use it as text",
                    at: location, code: .syntax)
            }
            return Scalar(text: text, kind: .integer(value), style: .plain)
        }
        guard let value = Double(text), value.isFinite else {
            throw ScenarioError(
                "number too large: \(Excerpt.of(text)) does not fit in a 64-bit decimal; quote it to use it as text",
                at: location, code: .syntax)
        }
        return Scalar(text: text, kind: .decimal(value), style: .plain)
    }

    /// Rejects text that ends where a value should have ended: only blanks and a comment
    /// may follow a value on its line.
    func expectLineEnd(
        _ line: ScenarioReader.Line, at index: Int, after what: String
    ) throws(ScenarioError) {
        let rest = ScenarioReader.skipBlanks(line.scalars, from: index)
        guard !ScenarioReader.isLineEnd(line.scalars, at: rest) else { return }
        throw error(
            "unexpected text after \(what): found \(ScenarioReader.describe(line.scalars, at: rest))",
            line, rest)
    }

    /// The error for a character that cannot start a value here.
    func unsupportedStart(
        _ line: ScenarioReader.Line, at column: Int, inFlow: Bool
    ) -> ScenarioError {
        let scalars = line.scalars
        var end = column + 1
        while end < scalars.count, !ScenarioReader.isBlank(scalars[end]),
            !ScenarioReader.isFlowIndicator(scalars[end])
        {
            end += 1
        }
        let token = "\"\(ScenarioReader.escaped(ScenarioReader.string(scalars[column..<end])))\""
        let message: String
        switch scalars[column] {
        case "&":
            message = "anchors are not supported: found \(token); repeat the value instead"
        case "*":
            message = "aliases are not supported: found \(token); repeat the value instead"
        case "!":
            message = "tags are not supported: found \(token); write the value without a tag"
        case "%" where column == 0 && !inFlow:
            message = "directives are not supported: found \(token); remove the line"
        case ">":
            message = "folded block text \">\" is not supported; use \"|\""
        case "|":
            message = "block text \"|\" cannot be used inside a flow collection"
        case "?":
            message = "complex keys (\"? \") are not supported; write \"key: value\""
        case ":":
            message = "expected a key before \":\""
        case "-":
            message =
                inFlow
                ? "a block sequence item \"-\" cannot be used inside a flow collection; separate items with \",\""
                : "expected a value after \"-\""
        case "%", "@", "`":
            message = "a plain value cannot start with \"\(scalars[column])\"; quote the value"
        default:
            message = "unexpected \(ScenarioReader.describe(scalars, at: column))"
        }
        return error(message, line, column)
    }
}

// MARK: - Block text

extension ScenarioReader.Parser {
    private enum Chomping { case clip, strip, keep }

    /// Reads `|` block text whose header is at `column`, taking the following lines that
    /// are blank or indented deeper than the block that owns the value.
    ///
    /// The spaces before the first non-blank line set the text's indentation, which every
    /// line loses; a tab after them is text.
    /// Lines keep their line breaks; the last one keeps one (`|`), none (`|-`) or all
    /// trailing blank lines too (`|+`). Blank lines inside the text are empty lines.
    mutating func readBlockText(
        _ line: ScenarioReader.Line, at column: Int
    ) throws(ScenarioError) -> Node {
        let header = line.scalars
        var chomping = Chomping.clip
        var index = column + 1
        while index < header.count, !ScenarioReader.isBlank(header[index]) {
            switch header[index] {
            case "-" where chomping == .clip: chomping = .strip
            case "+" where chomping == .clip: chomping = .keep
            case "0"..."9":
                throw error(
                    "indentation indicators such as \"|2\" are not supported; indent the text instead",
                    line, index)
            default:
                throw error(
                    "unexpected text after \"|\": found \(ScenarioReader.describe(header, at: index))",
                    line, index)
            }
            index += 1
        }
        try expectLineEnd(line, at: index, after: "\"|\"")

        let ownerIndent = slotOwnerIndent
        var textIndent: Int?
        var body: [String] = []
        var blankLines = 0
        while let current = try peekLine() {
            let scalars = current.scalars
            try rejectDocumentMarker(current)
            var spaces = 0
            while spaces < scalars.count, scalars[spaces] == " " {
                spaces += 1
            }
            if ScenarioReader.skipBlanks(scalars, from: spaces) == scalars.count {
                blankLines += 1
                _ = try takeLine()
                continue
            }
            let indent = textIndent ?? ownerIndent + 1
            if spaces < indent {
                if spaces <= ownerIndent || scalars[spaces] == "#" { break }
                if scalars[spaces] == "\t" {
                    throw error("tab in indentation; indent with spaces", current, spaces)
                }
                throw error(
                    "block text is indented less than its first line: expected \(indent) spaces, found \(spaces)",
                    current, spaces)
            }
            if textIndent == nil { textIndent = spaces }
            body.append(contentsOf: repeatElement("", count: blankLines))
            blankLines = 0
            body.append(ScenarioReader.string(scalars[(textIndent ?? spaces)...]))
            _ = try takeLine()
        }

        var text = body.joined(separator: "\n")
        switch chomping {
        case .clip:
            if !body.isEmpty { text += "\n" }
        case .strip:
            break
        case .keep:
            if !body.isEmpty { text += "\n" }
            text += String(repeating: "\n", count: blankLines)
        }
        return Node(
            .scalar(Scalar(text: text, kind: .string, style: .literalBlock)),
            at: location(line, column))
    }
}
