import GroupSim

/// A small, strict argument reader: `--name value` or `--name=value` options, flags and
/// positional arguments, as a command's table of options declares them. Unknown options
/// are errors with a suggestion.
struct Arguments {
    private(set) var positional: [String] = []
    private var values: [String: String] = [:]
    private var flags: Set<String> = []

    /// Reads `arguments` against the table `options` of the command named `command`.
    init(_ arguments: [String], command: String, options: [Option]) throws {
        // Suggestions go to the first of equally near names: those taking a value first.
        let valued = options.filter(\.takesValue).map(\.name)
        let known = options.filter { !$0.takesValue }.map(\.name)
        var index = 0
        var onlyPositional = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || !argument.hasPrefix("--") || argument == "-" {
                if !onlyPositional, argument.hasPrefix("-"), argument != "-", argument.count > 1 {
                    throw UsageError("unknown option \"\(Excerpt.of(argument))\" for \(command)", hint: "Run 'groupsim help \(command)' for usage.")
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

    /// The text given for `option`, or nil when absent.
    func value(_ option: Option) -> String? { values[option.name] }
    /// Whether the flag `option` was given.
    func flag(_ option: Option) -> Bool { flags.contains(option.name) }

    /// The whole number given for `option`, within its range, or nil when absent.
    func integer<T: FixedWidthInteger>(_ option: Option, as type: T.Type) throws -> T? {
        guard let text = values[option.name], case .integer(_, let lowest, let highest) = option.value else { return nil }
        guard let number = T(text), let wide = UInt64(exactly: number), (lowest...highest).contains(wide) else {
            throw UsageError("--\(option.name) takes a whole number from \(lowest) to \(highest), found \"\(Excerpt.of(text))\"")
        }
        return number
    }

    /// The whole number given for `option`, else the number its default is (`Option.number`).
    func number(_ option: Option) throws -> Int { try integer(option, as: Int.self) ?? option.number ?? 0 }

    /// Refuses an option given without the option it goes inside (`--limit` without
    /// `--exhaustive`), and two given together where one is instead of the other, as
    /// the table's placements say (and the usage line shows).
    func checkRelations(_ options: [Option], usage: String) throws {
        for option in options where given(option.name) {
            switch option.placement {
            case .alone: break
            case .inside(let outer) where !given(outer): throw UsageError("--\(option.name) goes with --\(outer)", hint: usage)
            case .inside: break
            case .instead(let other) where given(other):
                throw UsageError("--\(other) and --\(option.name) contradict each other; give one", hint: usage)
            case .instead: break
            }
        }
    }

    private func given(_ name: String) -> Bool { values[name] != nil || flags.contains(name) }

    /// The case of `Choice` given for `option`, or the option's default when absent.
    func choice<Choice: OptionChoice>(_ option: Option, as type: Choice.Type) throws -> Choice {
        let text = values[option.name] ?? option.defaultValue ?? ""
        let word = try Self.word(text, for: option.name, in: Choice.allCases.map(\.rawValue))
        // The word is the raw value of one of the cases, so it is found.
        guard let choice = Choice(rawValue: word) else { throw UsageError("--\(option.name) takes no \"\(Excerpt.of(word))\"") }
        return choice
    }

    /// One of `words`, which depend on the other options (`bench --only`), or nil when absent.
    func word(_ option: Option, in words: [String]) throws -> String? {
        guard let text = values[option.name] else { return nil }
        return try Self.word(text, for: option.name, in: words)
    }

    /// `text` when it is one of `words`; else the error listing them.
    private static func word(_ text: String, for name: String, in words: [String]) throws -> String {
        guard words.contains(text) else {
            var message = "--\(name) takes \(words.joined(separator: ", ")), found \"\(Excerpt.of(text))\""
            if let near = Suggestion.nearest(to: text, in: words) { message += "; did you mean \"\(near)\"?" }
            throw UsageError(message)
        }
        return text
    }
}
