import GroupSimCore

/// The JSON Schema (draft 2020-12) of scenario files, generated from `ScenarioVocabulary`,
/// the tables the parser takes its keys from.
///
/// Editors with a YAML language server read it through the first line of a scenario file,
/// `# yaml-language-server: $schema=../docs/scenario.schema.json`, and then complete keys
/// and flag unknown ones. The schema checks shapes only: names that must refer to people,
/// devices or sessions of the same file, step numbers and durations' ranges are checked by
/// `groupsim check`.
package enum ScenarioSchema {
    /// Where the schema is committed in the repository, relative to its root.
    package static let repositoryPath = "docs/scenario.schema.json"

    /// The schema's `$id`.
    package static let identifier = "https://groupsim.invalid/scenario.schema.json"

    /// A duration as the parser reads it: digits, an optional fraction, a unit.
    package static let durationPattern = "^[0-9]+(\\.[0-9]+)?(ns|us|ms|s|m)$"

    /// The schema as pretty-printed JSON, ending in a newline.
    package static func render() -> String {
        document().rendered() + "\n"
    }

    /// The schema as a JSON value.
    package static func document() -> JSONValue {
        var definitions = Definitions()
        let root = definitions.objectBody(ScenarioVocabulary.scenario)
        var members: [(String, JSONValue)] = [
            ("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
            ("$id", .string(identifier)),
            ("title", .string("GroupSim scenario")),
            ("description", .string(
                "A GroupSim scenario file: people, devices, network, app, steps and checks (docs/scenario-format.md).")),
        ]
        if case .object(let body) = root { members += body }
        members.append(("$defs", .object(definitions.entries)))
        return .object(members)
    }

    /// Named object shapes, each written once under `$defs` and referred to by `$ref`.
    private struct Definitions {
        var entries: [(String, JSONValue)] = []
        var names: [String] = []

        mutating func reference(_ shape: ScenarioVocabulary.ObjectShape) -> JSONValue {
            let name = shape.name.replacingOccurrences(of: " ", with: "-")
            if !names.contains(name) {
                names.append(name)
                entries.append((name, .null))
                let body = objectBody(shape)
                if let index = entries.firstIndex(where: { $0.0 == name }) { entries[index] = (name, body) }
            }
            return .object([("$ref", .string("#/$defs/" + name))])
        }

        mutating func objectBody(_ shape: ScenarioVocabulary.ObjectShape) -> JSONValue {
            var properties: [(String, JSONValue)] = []
            for field in shape.fields {
                var value = self.value(field.shape)
                if case .object(var members) = value {
                    members.insert(("description", .string(field.about)), at: 0)
                    value = .object(members)
                }
                properties.append((field.key, value))
            }
            var members: [(String, JSONValue)] = [
                ("type", .string("object")),
                ("properties", .object(properties)),
                ("additionalProperties", .bool(false)),
            ]
            if !shape.required.isEmpty {
                members.append(("required", .array(shape.required.map(JSONValue.string))))
            }
            if !shape.exactlyOne.isEmpty {
                members.append(("oneOf", .array(shape.exactlyOne.map { .object([("required", .array([.string($0)]))]) })))
            }
            return .object(members)
        }

        mutating func value(_ shape: ScenarioVocabulary.ValueShape) -> JSONValue {
            switch shape {
            case .text:
                return .object([("type", .array([.string("string"), .string("number"), .string("boolean")]))])
            case .name:
                return .object([("type", .array([.string("string"), .string("number"), .string("boolean")])), ("minLength", .int(1))])
            case .duration:
                return .object([("type", .string("string")), ("pattern", .string(ScenarioSchema.durationPattern))])
            case .integer(let minimum):
                return .object([("type", .string("integer")), ("minimum", .int(minimum))])
            case .flag:
                return .object([("type", .string("boolean"))])
            case .onlyTrue:
                return .object([("const", .bool(true))])
            case .choice(let words):
                return .object([("enum", .array(words.map(JSONValue.string)))])
            case .numbers(let numbers):
                return .object([("enum", .array(numbers.map { JSONValue.int($0) }))])
            case .object(let shape):
                return reference(shape)
            case .list(let item, let minimum):
                var members: [(String, JSONValue)] = [("type", .string("array")), ("items", value(item))]
                if minimum > 0 { members.append(("minItems", .int(minimum))) }
                return .object(members)
            case .map(let item):
                return .object([("type", .string("object")), ("additionalProperties", value(item))])
            case .either(let shapes):
                return .object([("anyOf", .array(shapes.map { value($0) }))])
            }
        }
    }
}
