import GroupSim

/// A small, strict argument reader: `--name value` or `--name=value` options, flags and
/// positional arguments. Unknown options are errors with a suggestion.
struct Arguments {
    private(set) var positional: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// - Parameters:
    ///   - valued: options that take a value (without the leading dashes).
    ///   - flags: options that take none.
    init(_ arguments: [String], command: String, valued: [String], flags known: [String]) throws {
        var index = 0
        var onlyPositional = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || !argument.hasPrefix("--") || argument == "-" {
                if !onlyPositional, argument.hasPrefix("-"), argument != "-", argument.count > 1 {
                    throw UsageError("unknown option \"\(argument)\" for \(command)", hint: "Run 'groupsim help \(command)' for usage.")
                }
                positional.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if valued.contains(name) {
                if value == nil {
                    guard index < arguments.count else { throw UsageError("--\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                guard values[name] == nil else { throw UsageError("--\(name) is given twice") }
                values[name] = value
            } else if known.contains(name) {
                guard value == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if name == "help" {
                flags.insert("help")
            } else {
                var message = "unknown option \"--\(name)\" for \(command)"
                if let near = Suggestion.nearest(to: name, in: valued + known) { message += "; did you mean \"--\(near)\"?" }
                throw UsageError(message, hint: "Run 'groupsim help \(command)' for usage.")
            }
        }
    }

    func value(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// A whole number option within `range`, or nil when absent.
    func integer<T: FixedWidthInteger>(_ name: String, _ type: T.Type, in range: ClosedRange<T>) throws -> T? {
        guard let text = values[name] else { return nil }
        guard let number = T(text), range.contains(number) else {
            throw UsageError("--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), found \"\(text)\"")
        }
        return number
    }

    /// One of `choices`, or nil when absent.
    func choice(_ name: String, _ choices: [String]) throws -> String? {
        guard let text = values[name] else { return nil }
        guard choices.contains(text) else {
            var message = "--\(name) takes \(choices.joined(separator: ", ")), found \"\(text)\""
            if let near = Suggestion.nearest(to: text, in: choices) { message += "; did you mean \"\(near)\"?" }
            throw UsageError(message)
        }
        return text
    }
}
