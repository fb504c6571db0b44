/// An invalid scenario file: where, what, and how to fix it.
///
/// Rendered as `FILE:LINE:COLUMN: error: MESSAGE` (see docs/scenario-format.md). An invalid
/// file never starts a simulation; the command line exits with status 2.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, for code that reacts to errors; never printed (the message
    /// says it in words). Stable: a new kind is added, none is renamed.
    public enum Code: String, Sendable, Hashable, CaseIterable, Codable {
        /// The text is not in the format's syntax: indentation, quotes, brackets, tabs.
        case syntax
        /// A key or name the format or the scenario does not know, usually misspelt;
        /// `suggestion` names the nearest known one when there is one.
        case unknown
        /// A value of the wrong kind or out of range, a key missing, or a rule of the
        /// format broken.
        case invalid
        /// A scenario built in Swift whose parts disagree (a device its person does not
        /// list, step numbers out of order).
        case inconsistent
        /// The file could not be read.
        case unreadable
        /// The file is larger than the limit for a scenario.
        case tooLarge
        /// The scenario would deliver more copies than the budget allows (`--max-copies`).
        case overBudget
    }

    /// Where a problem is in a scenario built in Swift: the path of the key in the
    /// scenario's file form.
    public struct Path: Sendable, Hashable, Codable {
        /// The scenario's `file` (`<swift>`).
        public var file: String
        /// The key's path (`steps[3].device`, `expect[0].latest.session`; indices from 0).
        public var path: String

        public init(file: String, path: String) {
            self.file = file
            self.path = path
        }
    }

    /// The kind of problem.
    public var code: Code
    /// Where the problem is; nil only for problems with no place (an unreadable file).
    public var location: Scenario.SourceLocation?
    /// What is wrong, and where it helps, what was expected and what was found.
    public var message: String
    /// A nearby valid spelling for a misspelt key or name, shown as `did you mean "X"?`.
    public var suggestion: String?
    /// For a scenario built in Swift: where the problem is, as the path of the key in the
    /// scenario's file form. Shown instead of a line and column.
    public var path: Path?

    public init(_ message: String, at location: Scenario.SourceLocation?, suggestion: String? = nil, code: Code = .invalid) {
        self.code = code
        self.message = message
        self.location = location
        self.suggestion = suggestion
    }

    /// An error in a scenario built in Swift, at the path of the key in its file form.
    public init(_ message: String, file: String, path: String, suggestion: String? = nil, code: Code = .invalid) {
        self.init(message, at: nil, suggestion: suggestion, code: code)
        self.path = Path(file: file, path: path)
    }

    /// The full one-line diagnostic: `FILE:LINE:COLUMN: error: ...`, or for a scenario
    /// built in Swift `<swift>:steps[3].device: error: ...`.
    public var description: String {
        var text = ""
        if let location {
            text += "\(location): "
        } else if let path {
            text += "\(path.file):\(path.path): "
        }
        text += "error: \(message)"
        if let suggestion { text += "; did you mean \"\(suggestion)\"?" }
        return text
    }
}

/// Several scenario errors at once, so a user can fix a file in one pass.
///
/// A parse with an error limit (the command line's default is 20, lifted by
/// `--all-errors`) keeps the first errors in file order and only counts the rest, which
/// `description` ends with as `and N more errors`, as compilers do.
public struct ScenarioErrors: Error, Sendable, Hashable, CustomStringConvertible {
    /// The errors reported in full, in file order.
    public var errors: [ScenarioError]
    /// How many more errors the file has past `errors`; 0 when every one is listed.
    public var omittedCount: Int

    public init(_ errors: [ScenarioError], omittedCount: Int = 0) {
        self.errors = errors
        self.omittedCount = omittedCount
    }

    public var description: String {
        var lines = errors.map(\.description)
        if omittedCount > 0 {
            lines.append("and \(omittedCount) more error\(omittedCount == 1 ? "" : "s") (--all-errors prints every one)")
        }
        return lines.joined(separator: "\n")
    }
}
