import Foundation
import GroupSim

/// Reading the deploy/ manifests and workflow with the project's own YAML-subset reader
/// (`ScenarioReader`): the files keep to that subset (one document per file, no anchors,
/// `|` for scripts), so a test reads exactly what Kubernetes or GitHub would.
struct ManifestYAML: CustomStringConvertible {
    let node: Node

    /// Reads `relative` (from the package root).
    static func read(_ relative: String) throws -> ManifestYAML {
        let text = try String(contentsOfFile: CLI.path(relative), encoding: .utf8)
        return ManifestYAML(node: try ScenarioReader.read(text, file: relative))
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The member `key` of a mapping.
    subscript(key: String) -> ManifestYAML? {
        guard case .mapping(let entries) = node.value, let entry = entries.first(where: { $0.key == key }) else { return nil }
        return ManifestYAML(node: entry.value)
    }

    /// Follows `path` (`spec.template.spec`), or throws naming where it stopped.
    func at(_ path: String) throws -> ManifestYAML {
        var current = self
        for key in path.split(separator: ".") {
            guard let next = current[String(key)] else { throw Missing(description: "no \"\(key)\" in \(path) at \(node.location)") }
            current = next
        }
        return current
    }

    var items: [ManifestYAML] {
        guard case .sequence(let nodes) = node.value else { return [] }
        return nodes.map(ManifestYAML.init)
    }

    var entries: [(key: String, value: ManifestYAML)] {
        guard case .mapping(let entries) = node.value else { return [] }
        return entries.map { ($0.key, ManifestYAML(node: $0.value)) }
    }

    /// The scalar's text (numbers as written), or nil for a collection.
    var text: String? {
        guard case .scalar(let scalar) = node.value else { return nil }
        return scalar.text
    }

    var int: Int? {
        guard case .scalar(let scalar) = node.value, case .integer(let number) = scalar.kind else { return nil }
        return Int(number)
    }

    var strings: [String] { items.compactMap(\.text) }

    /// A list of `{ name, value }` (a container's `env`) as a dictionary.
    var nameValues: [String: String] {
        var result: [String: String] = [:]
        for item in items { if let name = item["name"]?.text { result[name] = item["value"]?.text } }
        return result
    }

    /// A mapping of scalars (a step's `env`) as a dictionary.
    var scalars: [String: String] {
        var result: [String: String] = [:]
        for (key, value) in entries { result[key] = value.text }
        return result
    }

    var description: String { "\(node.location)" }
}

/// Substitutions the way the engines make them, refusing anything they would not know.
enum Substitution {
    struct Unknown: Error, CustomStringConvertible {
        var description: String
    }

    /// Kubernetes: `$(NAME)` in `command`/`args` becomes the container's variable; a
    /// name it does not define would be left as it is, so the test refuses it.
    static func kubernetes(_ text: String, _ variables: [String: String]) throws -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "$(") {
            result += rest[..<start.lowerBound]
            let after = rest[start.upperBound...]
            guard let end = after.firstIndex(of: ")") else { break }
            let name = String(after[..<end])
            guard let value = variables[name] else { throw Unknown(description: "$(\(name)) is not a variable of the container") }
            result += value
            rest = after[after.index(after: end)...]
        }
        return result + rest
    }

    /// GitHub Actions: `${{ inputs.NAME }}` and `${{ matrix.NAME }}`; any other
    /// expression is refused, so that a workflow change the test cannot follow fails.
    static func github(_ text: String, inputs: [String: String], matrix: [String: String]) throws -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${{") {
            result += rest[..<start.lowerBound]
            let after = rest[start.upperBound...]
            guard let end = after.range(of: "}}") else { throw Unknown(description: "an unclosed expression in \(text)") }
            let expression = after[..<end.lowerBound].trimmingCharacters(in: .whitespaces)
            let parts = expression.split(separator: ".", maxSplits: 1).map(String.init)
            let value: String? = switch parts.first {
            case "inputs": parts.count == 2 ? inputs[parts[1]] : nil
            case "matrix": parts.count == 2 ? matrix[parts[1]] : nil
            default: nil
            }
            guard let value else { throw Unknown(description: "${{ \(expression) }} is not an input or matrix value the test knows") }
            result += value
            rest = after[end.upperBound...]
        }
        return result + rest
    }

    /// Replaces each absolute path that starts with one of `mounts`' keys (where a path
    /// can start: after a space, a quote, `=` or at the beginning) by the same path under
    /// the folder it stands for here.
    static func paths(_ text: String, _ mounts: [String: URL]) -> String {
        var result = text
        for (mount, folder) in mounts.sorted(by: { $0.key.count > $1.key.count }) {
            var rebuilt = ""
            var rest = Substring(result)
            while let range = rest.range(of: mount + "/") {
                let before = rest[..<range.lowerBound]
                rebuilt += before
                let previous = before.last ?? rebuilt.last
                if previous == nil || previous == " " || previous == "\"" || previous == "'" || previous == "=" || previous == "\n" {
                    rebuilt += folder.path + "/"
                } else {
                    rebuilt += rest[range]
                }
                rest = rest[range.upperBound...]
            }
            result = rebuilt + rest
        }
        return result
    }
}
