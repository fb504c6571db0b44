import Foundation
import Testing
import GroupSim
@testable import GroupSimCLI

/// `groupsim help steps|checks|pitfalls|callbacks` and the tables of docs/scenario-format.md
/// name exactly the kinds' descriptors: a new kind shows up in the help
/// by itself, and a test points at the document until it is described there too.
@Suite struct VocabularyHelpTests {
    /// The first word of each entry line (two spaces, then a word) of a help text, without
    /// a trailing colon.
    static func entries(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            let word = line.dropFirst(2).prefix { $0 != " " }
            return String(word.hasSuffix(":") ? word.dropLast() : word)
        }
    }

    @Test func eachVocabularyTopicListsExactlyTheDescriptors() async {
        let expected: [(String, [String])] = [
            ("steps", Scenario.Action.Kind.keywords),
            ("checks", Scenario.Check.Kind.keywords),
            ("pitfalls", Scenario.PitfallKind.keywords),
            ("callbacks", AppCallback.names),
        ]
        for (topic, keywords) in expected {
            let result = await CLI.run(["help", topic])
            #expect(result.status == 0, "\(topic)")
            #expect(Self.entries(result.output) == keywords, "\(topic):\n\(result.output)")
        }
        let steps = await CLI.run(["help", "steps"]).output
        #expect(steps.contains("  press-send: true\n      the user taps Send on the staged draft\n      rules: M17\n"))
        #expect(steps.contains("  offline: true\n      the device stops receiving (M30); on the whole device, no conversation:\n"))
        #expect(await CLI.run(["help", "pitfalls"]).output.contains("  lost-update (M12, M13)\n"))
    }

    @Test func theHelpOnHelpNamesTheVocabularyTopics() async {
        let result = await CLI.run(["help", "stpes"])
        #expect(result.status == 2)
        #expect(result.error.contains("did you mean \"steps\"?"), "\(result.error)")
        #expect(result.error.contains("format, steps, checks, pitfalls, callbacks, terms, rules"), "\(result.error)")
    }

    /// The first column of the Markdown table whose header row starts with `| header |`.
    static func column(_ header: String, in text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("| \(header) |") }) else { return [] }
        return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            String(line.dropFirst(2).prefix { $0 != "|" }).trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["`"])
        }
    }

    /// docs/scenario-format.md describes every kind, in the descriptors' order.
    @Test func theScenarioFormatDocumentDescribesEveryKind() throws {
        let text = try String(contentsOfFile: CLI.path("docs/scenario-format.md"), encoding: .utf8)
        #expect(Self.column("action", in: text) == Scenario.Action.Kind.keywords)
        #expect(Self.column("check", in: text) == Scenario.Check.Kind.keywords)
        #expect(Self.column("kind", in: text) == Scenario.PitfallKind.keywords)
        let paragraph = text.components(separatedBy: "Callback names, the same list").dropFirst().first ?? ""
        let named = paragraph.components(separatedBy: "\n\n").first ?? ""
        let quoted = named.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            .filter { word in AppCallback.names.contains(word) || word.first?.isLowercase == true && !word.contains(" ") }
        #expect(quoted.filter { !["send", "reply", "insert"].contains($0) } == AppCallback.names)
    }
}
