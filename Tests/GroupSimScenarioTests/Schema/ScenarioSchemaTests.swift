import Foundation
import Testing
import GroupSim

/// The JSON Schema of scenario files names exactly what the parser accepts: every key of
/// every mapping, every step and check keyword, every option and every enumerated value,
/// and nothing else. Probed through the parser's own diagnostics.
@Suite struct ScenarioSchemaTests {
    static let base = "name: t\npeople: { alice: [alice-phone], bob: [bob-phone] }\n"

    /// For each `$defs` entry (and the root), a scenario with `HOLE` where one `KEY: VALUE`
    /// of that mapping goes.
    static let templates: [String: String] = [
        "": "HOLE\n",
        "person": "name: t\npeople: { alice: { HOLE } }\nsteps: []\n",
        "device": base + "devices: { alice-phone: { HOLE } }\nsteps: []\n",
        "network": base + "network: { HOLE }\nsteps: []\n",
        "link": base + "network: { links: [ { HOLE } ] }\nsteps: []\n",
        "app": base + "app: { HOLE }\nsteps: []\n",
        "options": base + "options: { HOLE }\nsteps: []\n",
        "step": base + "steps: [ { HOLE } ]\n",
        "race": base + "steps: [ { at: 0ms, race: { HOLE } } ]\n",
        "race-step": base + "steps: [ { at: 0ms, race: { within: 1ms, steps: [ { HOLE } ] } } ]\n",
        "send": base + "steps: [ { at: 0ms, device: alice-phone, send: { HOLE } } ]\n",
        "insert": base + "steps: [ { at: 0ms, device: alice-phone, insert: { HOLE } } ]\n",
        "reply": base + "steps: [ { at: 0ms, device: alice-phone, reply: { HOLE } } ]\n",
        "sticker": base + "steps: [ { at: 0ms, device: alice-phone, sticker: { HOLE } } ]\n",
        "check": base + "steps: []\nexpect: [ { HOLE } ]\n",
        "latest": base + "steps: []\nexpect: [ { latest: { HOLE } } ]\n",
        "summaries": base + "steps: []\nexpect: [ { summaries: { HOLE } } ]\n",
        "plain": base + "steps: []\nexpect: [ { plain: { HOLE } } ]\n",
        "complete": base + "steps: []\nexpect: [ { complete: { HOLE } } ]\n",
        "callbacks": base + "steps: []\nexpect: [ { callbacks: { HOLE } } ]\n",
        "error": base + "steps: []\nexpect: [ { error: { HOLE } } ]\n",
    ]

    static func schema() throws -> JSONValue { try JSONValue.parse(ScenarioSchema.render()) }

    /// Every mapping of the schema: its name (`""` for the root) and its members.
    static func mappings(_ schema: JSONValue) -> [(name: String, members: [(String, JSONValue)])] {
        guard case .object(let root) = schema else { return [] }
        var result: [(String, [(String, JSONValue)])] = [("", root)]
        if case .object(let definitions)? = member(root, "$defs") {
            for (name, value) in definitions {
                if case .object(let members) = value { result.append((name, members)) }
            }
        }
        return result
    }

    static func member(_ members: [(String, JSONValue)], _ key: String) -> JSONValue? {
        members.first { $0.0 == key }?.1
    }

    static func properties(_ members: [(String, JSONValue)]) -> [(String, JSONValue)] {
        if case .object(let properties)? = member(members, "properties") { return properties }
        return []
    }

    /// The parser's messages for `text`, or none when it is valid.
    static func messages(_ text: String) -> [String] {
        do {
            _ = try ScenarioParser.parse(text: text, file: "t.yaml")
            return []
        } catch {
            return error.errors.map(\.message)
        }
    }

    static func rejectsAsUnknown(_ messages: [String], _ word: String) -> Bool {
        messages.contains { $0.hasPrefix("unknown") && $0.contains("\"\(word)\"") }
    }

    @Test func everyMappingOfTheSchemaHasATemplate() throws {
        let names = Self.mappings(try Self.schema()).map(\.name)
        #expect(Set(names) == Set(Self.templates.keys), "add a template for each new mapping")
    }

    /// Every key the schema lists is accepted by the parser in that mapping, and a key the
    /// schema does not list is refused there; every mapping forbids other keys.
    @Test func parserAcceptsExactlyTheSchemasKeys() throws {
        for (name, members) in Self.mappings(try Self.schema()) {
            let template = try #require(Self.templates[name])
            #expect(Self.member(members, "additionalProperties") == .bool(false), "\(name)")
            for (key, _) in Self.properties(members) {
                let messages = Self.messages(template.replacingOccurrences(of: "HOLE", with: "\(key): x"))
                #expect(!Self.rejectsAsUnknown(messages, key), "\(name): the parser refuses \(key): \(messages)")
            }
            let bogus = Self.messages(template.replacingOccurrences(of: "HOLE", with: "zz-bogus: x"))
            #expect(Self.rejectsAsUnknown(bogus, "zz-bogus"), "\(name): the parser accepts a key the schema does not list: \(bogus)")
        }
    }

    /// The alternatives a parser message lists: `expected a, b or c, found "x"` or
    /// `...; expected a, b or c`.
    static func alternatives(in message: String) -> Set<String> {
        guard let range = message.range(of: "expected ", options: .backwards) else { return [] }
        var list = String(message[range.upperBound...])
        if let found = list.range(of: ", found") { list = String(list[..<found.lowerBound]) }
        let words = list.replacingOccurrences(of: " or ", with: ", ").components(separatedBy: ", ")
        return Set(words.map { $0.trimmingCharacters(in: .whitespaces) })
    }

    /// Each enumerated value of the schema is accepted, and a wrong value is refused with a
    /// list of alternatives that is exactly the schema's enumeration.
    @Test func enumeratedValuesAgree() throws {
        var probed = 0
        for (name, members) in Self.mappings(try Self.schema()) {
            let template = try #require(Self.templates[name])
            for (key, value) in Self.properties(members) {
                guard case .object(let property) = value else { continue }
                var listed = false
                var words: [JSONValue]?
                if case .array(let values)? = Self.member(property, "enum") { words = values }
                if case .object(let items)? = Self.member(property, "items"), case .array(let values)? = Self.member(items, "enum") {
                    words = values
                    listed = true
                }
                guard let words else { continue }
                let strings = words.compactMap { word -> String? in if case .string(let text) = word { text } else { nil } }
                func fill(_ word: String) -> String {
                    template.replacingOccurrences(of: "HOLE", with: "\(key): " + (listed ? "[\(word)]" : word))
                }
                for word in strings {
                    let messages = Self.messages(fill(word))
                    #expect(!messages.contains { $0.contains("\"\(word)\"") }, "\(name).\(key): the parser refuses \(word): \(messages)")
                }
                let refusal = Self.messages(fill("zzq")).first { $0.contains("\"zzq\"") }
                let message = try #require(refusal, "\(name).\(key): the parser accepts zzq")
                #expect(Self.alternatives(in: message) == Set(strings), "\(name).\(key): \(message)")
                probed += 1
            }
        }
        #expect(probed == 12, "platform, app, state, identity, selection, push, nil-summary, identifiers, open twice, pitfalls, sequence")
    }

    /// Steps and checks: the keywords of which exactly one must be given are the parser's.
    @Test func stepActionsAndCheckKindsAgree() throws {
        let mappings = Self.mappings(try Self.schema())
        func exactlyOne(_ name: String) throws -> Set<String> {
            let members = try #require(mappings.first { $0.name == name }?.members)
            guard case .array(let options)? = Self.member(members, "oneOf") else { return [] }
            return Set(options.compactMap { option -> String? in
                guard case .object(let fields) = option, case .array(let required)? = Self.member(fields, "required"),
                      case .string(let key)? = required.first else { return nil }
                return key
            })
        }
        let noAction = Self.messages(Self.base + "steps: [ { at: 0ms, device: alice-phone } ]\n")
        let actions = try #require(noAction.first { $0.hasPrefix("a step needs an action: ") })
        let listed = Self.alternatives(in: actions.replacingOccurrences(of: "a step needs an action: ", with: "expected "))
        #expect(listed.union(["race"]) == (try exactlyOne("step")))
        #expect(listed == (try exactlyOne("race-step")))
        let noCheck = Self.messages(Self.base + "steps: []\nexpect: [ {} ]\n")
        let checks = try #require(noCheck.first { $0.hasPrefix("a check needs one of ") })
        #expect(Self.alternatives(in: checks.replacingOccurrences(of: "a check needs one of ", with: "expected "))
            == (try exactlyOne("check")))
    }

    /// Error codes: every name and number the schema offers is accepted by `error:` checks.
    @Test func errorCodesAgree() throws {
        let text = ScenarioSchema.render()
        for code in MessageErrorCode.allCases {
            #expect(text.contains("\"\(code.name)\""))
            let scenario = Self.base + "steps: [ { at: 0ms, device: alice-phone, send: { session: poll } } ]\n" +
                "expect: [ { error: { step: 1, code: \(code.name) } } ]\n"
            #expect(Self.messages(scenario).isEmpty, "\(code.name)")
        }
        #expect(Self.messages(Self.base + "steps: [ { at: 0ms, device: alice-phone, send: { session: poll } } ]\n" +
            "expect: [ { error: { step: 1, code: 12 } } ]\n").count == 1)
    }

    /// The parser has no key list of its own: every `allowed:` comes from `ScenarioVocabulary`.
    @Test func parserTakesItsKeysFromTheVocabulary() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Sources/GroupSimScenario")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("ScenarioParser") }
        #expect(files.count >= 8)
        for file in files {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(!source.contains("allowed: [\""), "\(file) lists keys itself; put them in ScenarioVocabulary")
        }
    }

    /// The files in Scenarios/ validate against the schema's basic shape: draft 2020-12,
    /// the root's required keys.
    @Test func schemaIsDraft2020AndRequiresTheRootKeys() throws {
        guard case .object(let root) = try Self.schema() else { Issue.record("not an object"); return }
        #expect(Self.member(root, "$schema") == .string("https://json-schema.org/draft/2020-12/schema"))
        #expect(Self.member(root, "required") == .array([.string("name"), .string("people"), .string("steps")]))
    }
}
