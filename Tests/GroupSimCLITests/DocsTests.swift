import Foundation
import GroupSimScenarios
import Testing
@testable import GroupSimCLI

/// The project stands alone: its Markdown links stay inside the repository and resolve,
/// the behaviour reference has every rule with its anchor, and `groupsim help` prints the
/// documents that ship with the tool.
@Suite struct DocsTests {
    /// Every Markdown file of the repository (not under `.build` or other hidden folders).
    static var markdownFiles: [String] {
        let root = CLI.root.path
        let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        return names.filter { name in
            name.hasSuffix(".md") && !name.split(separator: "/").contains { $0.hasPrefix(".") }
        }.sorted()
    }

    /// The targets of the inline links `[text](target)` of a Markdown text, outside code.
    static func links(in text: String) -> [String] {
        var links: [String] = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            if inFence { continue }
            // Drop inline code spans so `[a](b)` inside backticks is not a link.
            let parts = line.split(separator: "`", omittingEmptySubsequences: false)
            let prose = parts.enumerated().filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            var rest = Substring(prose)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                links.append(String(after[..<close]))
                rest = after[after.index(after: close)...]
            }
        }
        return links
    }

    /// The anchors a Markdown file defines: `<a id="x">` and GitHub's heading slugs.
    static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        for line in text.split(separator: "\n") {
            if let start = line.range(of: "<a id=\""), let end = line[start.upperBound...].firstIndex(of: "\"") {
                anchors.insert(String(line[start.upperBound..<end]))
            }
            if line.hasPrefix("#") {
                let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
                let slug = title.unicodeScalars.compactMap { scalar -> String? in
                    if scalar == " " { return "-" }
                    if scalar == "-" || scalar == "_" || scalar.properties.isAlphabetic
                        || ("0"..."9").contains(scalar) { return String(scalar) }
                    return nil
                }.joined()
                anchors.insert(slug)
            }
        }
        return anchors
    }

    @Test func everyRelativeLinkResolvesInsideTheRepository() throws {
        let files = Self.markdownFiles
        #expect(files.contains("README.md") && files.contains("docs/behaviour.md") && files.contains("docs/ci.md"))
        let root = CLI.root.standardizedFileURL.path
        var checked = 0
        for file in files {
            let text = try String(contentsOfFile: CLI.path(file), encoding: .utf8)
            let folder = URL(fileURLWithPath: CLI.path(file)).deletingLastPathComponent()
            for link in Self.links(in: text) {
                if link.hasPrefix("http://") || link.hasPrefix("https://") || link.hasPrefix("mailto:") { continue }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let target = path.isEmpty ? URL(fileURLWithPath: CLI.path(file)) : folder.appendingPathComponent(path).standardizedFileURL
                #expect(target.path.hasPrefix(root + "/"), "\(file): \(link) points outside the repository")
                #expect(FileManager.default.fileExists(atPath: target.path), "\(file): \(link) does not exist")
                if parts.count == 2, target.pathExtension == "md", let linked = try? String(contentsOf: target, encoding: .utf8) {
                    #expect(Self.anchors(in: linked).contains(String(parts[1])), "\(file): \(link): no such anchor")
                }
                checked += 1
            }
        }
        #expect(checked > 40)
    }

    /// Nothing in the repository's Markdown names the team's notes outside it.
    @Test func nothingReferstoFilesOutsideTheRepository() throws {
        for file in Self.markdownFiles {
            let text = try String(contentsOfFile: CLI.path(file), encoding: .utf8)
            for outside in ["../shared", "MESSAGES.md", "SCENARIO-FORMAT.md", "DESIGN.md", "/work/"] {
                #expect(!text.contains(outside), "\(file) mentions \(outside)")
            }
        }
    }

    @Test func behaviourReferenceHasEveryRuleWithItsAnchorAndSource() throws {
        let text = try String(contentsOfFile: CLI.path("docs/behaviour.md"), encoding: .utf8)
        let anchors = Self.anchors(in: text)
        for number in 1...30 {
            #expect(anchors.contains("m\(number)"), "M\(number) has no anchor")
            #expect(text.contains("### M\(number). "), "M\(number) has no heading")
        }
        let sections = Help.ruleSections()
        #expect(sections.map(\.rule) == (1...30).map { "M\($0)" })
        for section in sections {
            #expect(section.text.contains("**Source.**"), "\(section.rule) names no source")
            #expect(section.text.contains("**In GroupSim.**"), "\(section.rule) says nothing of GroupSim")
        }
        for source in ["Apple's Messages documentation", "WWDC 2016 session 224", "Message App Extension Basics",
            "Advanced Message App Extensions"] {
            #expect(text.contains(source))
        }
        #expect(anchors.contains("choices") && anchors.contains("choice-interaction") && anchors.contains("choice-order"))
    }

    /// The documents `help` prints ship with the tool as the repository has them.
    @Test func shippedDocsAreTheRepositorys() throws {
        for name in ["behaviour.md", "scenario-format.md"] {
            let text = try String(contentsOfFile: CLI.path("docs/" + name), encoding: .utf8)
            #expect(BundledDocs.text(name).map { $0 + "\n" } == text, "\(name)")
        }
    }

    @Test func helpPrintsTheFormatTheRulesAndOneRule() async throws {
        let format = await CLI.run(["help", "format"])
        #expect(format.status == 0)
        // Markdown printed as plain text: the heading underlined, no backticks.
        #expect(format.output.hasPrefix("The scenario format\n==================="))
        #expect(format.output.contains("| cloud-latency | duration: one-way delay to the cloud store | 20ms |"))
        #expect(!format.output.contains("**") && !format.output.contains("](") && !format.output.contains("`cloud-latency`"))

        let rules = await CLI.run(["help", "rules"])
        #expect(rules.status == 0)
        #expect(rules.output.contains("M12. Near-simultaneous replies: each device keeps a different bubble"))
        #expect(rules.output.split(separator: "\n").filter { $0.hasPrefix("M") }.count == 30)

        let rule = await CLI.run(["help", "M12"])
        #expect(rule.status == 0)
        #expect(rule.output.hasPrefix("M12. Near-simultaneous replies"))
        #expect(rule.output.contains("In GroupSim. The lost-update and divergence pitfalls"))
        #expect(rule.output.contains("the pickles race (Scenarios/pickles-race.yaml)"))
        #expect(!rule.output.contains("**") && !rule.output.contains("`") && !rule.output.contains("]("))
        #expect(rule.output.hasSuffix("(docs/behaviour.md#m12)\n"))
        #expect(!rule.output.contains("M13. "), "one rule only")
        #expect(await CLI.run(["help", "m4"]).output.hasPrefix("M4. "))

        let unknown = await CLI.run(["help", "M31"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("no help for \"M31\""))
    }

    /// Every keyword of the format is documented in docs/scenario-format.md.
    @Test func scenarioFormatDocumentsEveryKeyword() throws {
        let text = try String(contentsOfFile: CLI.path("docs/scenario-format.md"), encoding: .utf8)
        let schema = try String(contentsOfFile: CLI.path("docs/scenario.schema.json"), encoding: .utf8)
        var words: Set<String> = []
        var rest = Substring(schema)
        // Property names and enumerated strings of the schema.
        while let start = rest.range(of: "\"") {
            let after = rest[start.upperBound...]
            guard let end = after.firstIndex(of: "\"") else { break }
            let word = String(after[..<end])
            if word.range(of: "^[a-zA-Z][a-zA-Z0-9-]*$", options: .regularExpression) != nil { words.insert(word) }
            rest = after[after.index(after: end)...]
        }
        let schemaWords: Set<String> = ["type", "string", "number", "boolean", "integer", "object", "array", "properties",
                                        "additionalProperties",
                                        "required", "description", "items", "minItems", "minimum", "minLength", "enum", "anyOf", "oneOf",
                                        "const", "pattern", "title", "race-step", "check", "link", "person"]
        for word in words.subtracting(schemaWords).sorted() {
            #expect(text.contains("`\(word)`") || text.contains("\(word):") || text.contains("`\(word) ("),
                "docs/scenario-format.md does not mention \(word)")
        }
    }
}
