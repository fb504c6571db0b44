import GroupSim

extension Help {
    /// `groupsim help terms`: the glossary, one line per term (docs/terms.md says the same).
    static var termsHelp: String {
        var lines = ["Terms the lessons and reports use in one sense only (docs/terms.md); each lesson defines the",
                     "ones it is the first to use:", ""]
        let width = Glossary.terms.map(\.name.count).max() ?? 0
        for term in Glossary.terms {
            lines.append("  " + term.name + String(repeating: " ", count: width - term.name.count) + "  " + term.definition)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Markdown as plain text for a terminal: headings underlined, no `**`, `*` or
    /// backticks, links as their text (with the target when it is a file), code blocks
    /// indented without their fences, anchors and comments left out. Tables stay tables.
    static func plain(_ markdown: String) -> String {
        var lines: [String] = []
        var inCode = false
        // Links first, over the whole text: a link's words may run onto the next line.
        for line in links(markdown).split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                inCode.toggle()
                continue
            }
            if inCode {
                lines.append("    " + line)
                continue
            }
            if line.hasPrefix("<a id=") || line.hasPrefix("<!--") { continue }
            if line.hasPrefix("#") {
                let level = line.prefix { $0 == "#" }.count
                let title = inline(String(line.dropFirst(level)).trimmingCharacters(in: .whitespaces))
                lines.append(title)
                if level <= 2 { lines.append(String(repeating: level == 1 ? "=" : "-", count: title.count)) }
                continue
            }
            lines.append(inline(line))
        }
        return lines.joined(separator: "\n")
    }

    /// `[words](target)` as `words (target)`, or as the words alone for a link within the
    /// page; the words may span a line break, never a paragraph or another `[`.
    static func links(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "[", let close = text[text.index(after: index)...].firstIndex(where: { $0 == "]" || $0 == "[" }),
               text[close] == "]", !text[index..<close].contains("\n\n"), text.index(after: close) < text.endIndex,
               text[text.index(after: close)] == "(", let end = text[close...].firstIndex(where: { $0 == ")" || $0 == "\n" }),
               text[end] == ")" {
                let words = String(text[text.index(after: index)..<close])
                var target = String(text[text.index(close, offsetBy: 2)..<end])
                while target.hasPrefix("../") { target.removeFirst(3) }
                result += target.hasPrefix("#") || target.isEmpty || words.contains(target) ? words : "\(words) (\(target))"
                index = text.index(after: end)
                continue
            }
            result.append(character)
            index = text.index(after: index)
        }
        return result
    }

    /// One line's inline Markdown as plain text.
    static func inline(_ line: String) -> String {
        var result = ""
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            if character == "`" || (character == "*" && !isListBullet(line, index)) {
                index = line.index(after: index)
                continue
            }
            result.append(character)
            index = line.index(after: index)
        }
        return result
    }

    /// A `*` that starts a list item (`* item`), which stays.
    static func isListBullet(_ line: String, _ index: String.Index) -> Bool {
        line[..<index].allSatisfy { $0 == " " } && line.index(after: index) < line.endIndex && line[line.index(after: index)] == " "
    }
}
