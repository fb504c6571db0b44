import Foundation
import GroupSim
import GroupSimScenarios

extension Help {
    /// The help of `groupsim help TOPIC`: a command's help, the scenario format, the list of
    /// rules, or one rule (`M12`, any case), read from the documents that ship with the tool.
    static func topic(_ topic: String) throws -> String {
        if let command = GroupSimCommand.subcommands.first(where: { $0.name == topic }) { return command.help }
        switch topic.lowercased() {
        case "help", "--help", "-h":
            return helpOnHelp
        case "format", "scenario-format", "scenario":
            return plain(try document("scenario-format.md"))
        case "terms", "glossary", "term":
            return termsHelp
        case "rules", "behaviour", "behavior":
            _ = try document("behaviour.md")
            return rulesOverview
        default:
            break
        }
        if let text = vocabulary(topic) { return text }
        if let text = rule(topic) { return text } else if BundledDocs.text("behaviour.md") == nil { _ = try document("behaviour.md") }
        let words = ["format"] + vocabularyTopics + ["terms", "rules"]
        var message = "no help for \"\(topic)\"; topics: \((commandNames + words).joined(separator: ", ")), M1 to M30"
        if let near = Suggestion.nearest(to: topic, in: commandNames + words) { message += "; did you mean \"\(near)\"?" }
        throw UsageError(message)
    }

    /// A document `help` prints (`behaviour.md`), as it ships with the tool; a usage error
    /// naming where it was looked for when it cannot be found.
    static func document(_ name: String) throws -> String {
        guard let text = BundledDocs.text(name) else {
            throw UsageError("cannot find \(name), which ships with groupsim (\(BundledDocs.bundleDescription))")
        }
        return text
    }

    /// `text` followed by a line naming where each rule it cites is written up
    /// (`docs/behaviour.md#m12`), when it cites any and does not already name them.
    static func withRules(_ text: String) -> String {
        guard !text.contains(RuleReference.document), let footnote = RuleReference.footnote(for: text) else { return text }
        return text + footnote + "\n"
    }

    static let helpOnHelp = """
    Usage: groupsim help [COMMAND | format | steps | checks | pitfalls | callbacks | terms | rules | M1...M30]

    Without a topic, lists every command. With a command's name, prints its help (the same
    as `groupsim COMMAND --help`). `format` prints the scenario file format
    (docs/scenario-format.md); `steps`, `checks`, `pitfalls` and `callbacks` list every
    step action, check, pitfall kind and callback name with what it means; `terms` defines
    the words the lessons use (session, live bubble, converged...); `rules` lists the rules
    M1 to M30 the simulation follows, and `M12` (any rule number) prints that rule as
    docs/behaviour.md#m12 writes it. Documents are printed as plain text, not Markdown.

    Exit status: 0; 2 for an unknown topic.

    """

    /// One line per rule: `M12  Near-simultaneous replies: ...` (each rule's heading).
    static var rulesOverview: String {
        var lines = [
            "The rules M1 to M30 GroupSim follows (\(RuleReference.document)); `groupsim help M12` prints one.",
            "",
        ]
        for section in ruleSections() {
            lines.append(section.heading)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The text of one rule, from its heading to the next heading, or nil for no such rule.
    static func rule(_ topic: String) -> String? {
        let name = topic.uppercased()
        guard name.hasPrefix("M"), let number = Int(name.dropFirst()), (1...30).contains(number) else { return nil }
        guard let section = ruleSections().first(where: { $0.rule == "M\(number)" }) else { return nil }
        return plain(section.text) + "\n(\(RuleReference.path("M\(number)")))\n"
    }

    /// The rule sections of the behaviour document: each `### M12 ...` heading with the
    /// text up to the next heading.
    static func ruleSections() -> [(rule: String, heading: String, text: String)] {
        var sections: [(rule: String, heading: String, text: String)] = []
        var current: (rule: String, heading: String, lines: [String])?
        func close() {
            if let current {
                let text = current.lines.joined(separator: "\n").trimmingCharacters(in: .newlines)
                sections.append((current.rule, current.heading, text))
            }
            current = nil
        }
        for line in (BundledDocs.text("behaviour.md") ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("<a id=") { continue }
            if line.hasPrefix("#") {
                close()
                let title = String(line.drop { $0 == "#" || $0 == " " })
                let rule = String(title.prefix { $0.isLetter || $0.isNumber })
                if line.hasPrefix("### M"), Int(rule.dropFirst()) != nil {
                    current = (rule, title, [title])
                }
                continue
            }
            current?.lines.append(line)
        }
        close()
        return sections
    }
}
