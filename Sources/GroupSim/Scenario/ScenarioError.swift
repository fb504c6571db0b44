/// An invalid scenario file: where, what, and how to fix it.
///
/// Rendered as `FILE:LINE:COLUMN: error: MESSAGE` (see SCENARIO-FORMAT.md). An invalid
/// file never starts a simulation; the command line exits with status 2.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is; nil only for problems with no place (an unreadable file).
    public var location: SourceLocation?
    /// What is wrong, and where it helps, what was expected and what was found.
    public var message: String
    /// A nearby valid spelling for a misspelt key or name, shown as `did you mean "X"?`.
    public var suggestion: String?

    public init(_ message: String, at location: SourceLocation?, suggestion: String? = nil) {
        self.message = message
        self.location = location
        self.suggestion = suggestion
    }

    /// The full one-line diagnostic.
    public var description: String {
        var text = ""
        if let location { text += "\(location): " }
        text += "error: \(message)"
        if let suggestion { text += "; did you mean \"\(suggestion)\"?" }
        return text
    }
}

/// Several scenario errors at once, so a user can fix a file in one pass.
public struct ScenarioErrors: Error, Sendable, CustomStringConvertible {
    public var errors: [ScenarioError]

    public init(_ errors: [ScenarioError]) { self.errors = errors }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
