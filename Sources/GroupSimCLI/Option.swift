/// A value an option takes from a fixed set (a format, a figure): its cases are the words
/// on the command line, and `summary` says in the help what each one does.
protocol OptionChoice: RawRepresentable<String>, CaseIterable, Sendable {
    /// What this value does, for the help: a phrase, wrapped to fit.
    var summary: String { get }
}

/// One option of a command, declared once: its name, the value it takes, its default and
/// its help. A command's table of options (`Subcommand.options`) is what `Arguments`
/// accepts and what the usage line and the options part of the help are made from.
struct Option: Sendable {
    /// What follows the option's name on the command line.
    enum Value: Sendable {
        /// Nothing: the option is a flag.
        case none
        /// A whole number from `lowest` to `highest`.
        case integer(placeholder: String, lowest: UInt64, highest: UInt64)
        /// Any text: a path, a shard.
        case text(placeholder: String)
        /// One of a fixed set of words, each with what it does.
        case choice(placeholder: String, words: [String], summaries: [String])
    }

    /// Where the usage line shows the option.
    enum Placement: Sendable, Equatable {
        /// In brackets of its own: `[--seed N]`.
        case alone
        /// Inside the brackets of the option named, which it only goes with:
        /// `[--exhaustive [--limit N]]`.
        case inside(String)
        /// In the brackets of the option named, as the other choice: `[--summary|--full]`.
        case instead(of: String)
    }

    /// The name without its dashes.
    let name: String
    let value: Value
    /// The default in words, the same on every machine ("the file's, else 1"), or nil.
    let defaultValue: String?
    /// What the option does: one paragraph, wrapped to fit the help.
    let help: String
    var placement: Placement = .alone
    /// The number an absent whole-number option stands for (`Arguments.number`), when its
    /// default is one; `defaultValue` is then that number as the help prints it.
    var number: Int?

    /// A flag: `--full`.
    static func flag(_ name: String, _ help: String, placement: Placement = .alone) -> Option {
        Option(name: name, value: .none, defaultValue: nil, help: help, placement: placement)
    }

    /// A whole number within `range` (never below zero): `--runs N`.
    static func integer<T: FixedWidthInteger>(_ name: String, _ placeholder: String = "N", in range: ClosedRange<T>,
                                              default defaultValue: String?, _ help: String,
                                              placement: Placement = .alone) -> Option {
        let value = Value.integer(placeholder: placeholder, lowest: UInt64(clamping: range.lowerBound),
                                  highest: UInt64(clamping: range.upperBound))
        return Option(name: name, value: value, defaultValue: defaultValue, help: help, placement: placement)
    }

    /// A whole number within `range` whose default is `number`: `--runs N (default: 1,000)`.
    static func integer(_ name: String, in range: ClosedRange<Int>, default number: Int, _ help: String,
                        placement: Placement = .alone) -> Option {
        var option = integer(name, in: range, default: number.grouped, help, placement: placement)
        option.number = number
        return option
    }

    /// Any text: `--output PATH`.
    static func text(_ name: String, _ placeholder: String, default defaultValue: String? = nil, _ help: String,
                     placement: Placement = .alone) -> Option {
        Option(name: name, value: .text(placeholder: placeholder), defaultValue: defaultValue, help: help, placement: placement)
    }

    /// One of the cases of `Choice`, `defaultValue` when absent: `--format text|json`.
    static func choice<Choice: OptionChoice>(_ name: String, _ type: Choice.Type, default defaultValue: Choice,
                                             _ help: String) -> Option {
        let value = Value.choice(placeholder: "F", words: Choice.allCases.map(\.rawValue), summaries: Choice.allCases.map(\.summary))
        return Option(name: name, value: value, defaultValue: defaultValue.rawValue, help: help)
    }

    /// The same option with another help paragraph, for a command whose use of a shared
    /// option differs.
    func explained(_ help: String) -> Option {
        Option(name: name, value: value, defaultValue: defaultValue, help: help, placement: placement, number: number)
    }

    /// Whether a value follows the name.
    var takesValue: Bool {
        if case .none = value { return false }
        return true
    }

    /// The words a choice takes; empty for other options.
    var words: [String] {
        if case .choice(_, let words, _) = value { return words }
        return []
    }

    /// `--runs N`, `--format text|json|html`, `--full`: as the usage line shows it.
    var usageForm: String {
        switch value {
        case .none: "--\(name)"
        case .integer(let placeholder, _, _), .text(let placeholder): "--\(name) \(placeholder)"
        case .choice(_, let words, _): "--\(name) \(words.joined(separator: "|"))"
        }
    }

    /// `--runs N`, `--format F`, `--full`: as the help's list of options shows it.
    var helpForm: String {
        switch value {
        case .none: "--\(name)"
        case .integer(let placeholder, _, _), .text(let placeholder), .choice(let placeholder, _, _): "--\(name) \(placeholder)"
        }
    }
}

/// The usage line and the options part of the help, made from a table of options.
enum OptionTable {
    /// How wide help and usage lines are at most (a line wider than the terminal is not
    /// wrapped here: one word longer than this stays whole).
    static let width = 88
    /// The column the help of each option starts at.
    static let helpColumn = 20

    /// The bracketed parts of a usage line, in table order: an option that goes inside
    /// another, or instead of it, is shown in that option's brackets.
    static func usageParts(_ options: [Option]) -> [String] {
        options.filter { $0.placement == .alone }.map { option in
            var inner = option.usageForm
            for other in options where other.placement == .instead(of: option.name) { inner += "|" + other.usageForm }
            for other in options where other.placement == .inside(option.name) { inner += " [\(other.usageForm)]" }
            return "[\(inner)]"
        }
    }

    /// `words` joined by spaces into lines of at most `width` characters, the first
    /// starting with `first`, the others with `rest`; a word is never split.
    static func wrap(_ words: [String], first: String, rest: String, width: Int = width) -> [String] {
        var lines: [String] = []
        var line = first
        var empty = true
        for word in words {
            if !empty, line.count + 1 + word.count > width {
                lines.append(line)
                line = rest
                empty = true
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(line)
        return lines
    }

    /// One paragraph wrapped: its words split at spaces and line breaks.
    static func wrap(_ text: String, first: String, rest: String) -> [String] {
        wrap(text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init), first: first, rest: rest)
    }

    /// The lines of the help that describe `options`, one entry each in table order:
    /// `  --runs N          how many runs (default: 1,000)`, a choice's words listed
    /// under it (after a colon) with what each does.
    static func help(_ options: [Option]) -> String {
        var lines: [String] = []
        let indent = String(repeating: " ", count: helpColumn)
        for option in options {
            var text = option.help
            if case .inside(let outer) = option.placement { text = "with --\(outer): " + text }
            if let defaultValue = option.defaultValue { text += " (default: \(defaultValue))" }
            if !option.words.isEmpty { text += ":" }
            let name = "  " + option.helpForm
            let start = name.count + 2 <= helpColumn ? name + String(repeating: " ", count: helpColumn - name.count) : name + "  "
            lines += wrap(text, first: start, rest: indent)
            if case .choice(_, let words, let summaries) = option.value {
                let wordWidth = words.map(\.count).max() ?? 0
                for (word, summary) in zip(words, summaries) {
                    let head = indent + "  " + word + String(repeating: " ", count: wordWidth - word.count + 2)
                    lines += wrap(summary, first: head, rest: String(repeating: " ", count: head.count))
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension Option {
    /// `--output PATH`, which every command that writes a report or a file takes.
    static let output = Option.text("output", "PATH", """
        write the report to PATH instead of standard output (as the shell's > would: see "Output files" in
        groupsim help)
        """)

    /// `--seed N`: any seed a scenario file may name.
    static func seed(_ help: String, default defaultValue: String? = "the file's, else 1") -> Option {
        .integer("seed", in: UInt64.min...UInt64.max, default: defaultValue, help)
    }
}

extension Option {
    /// `--no-determinism-check`, which `run`, `explore` and `test` take.
    static let noDeterminismCheck = Option.flag("no-determinism-check", """
        for an app registered from Swift, do not run seeds a second time to check that the app is deterministic 
        (faster; a verdict may then change from run to run without a word)
        """)
}
