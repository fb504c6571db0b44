/// An invalid scenario file: where, what, and how to fix it.
///
/// Rendered as `FILE:LINE:COLUMN: error: MESSAGE` (see docs/scenario-format.md). An invalid
/// file never starts a simulation; the command line exits with status 2.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is; nil only for problems with no place (an unreadable file).
    public var location: SourceLocation?
    /// What is wrong, and where it helps, what was expected and what was found.
    public var message: String
    /// A nearby valid spelling for a misspelt key or name, shown as `did you mean "X"?`.
    public var suggestion: String?
    /// For a scenario built in Swift: where the problem is, as the path of the key in the
    /// scenario's file form (`steps[3].device`, `expect[0].latest.session`; indices from
    /// 0), and the scenario's `file` (`<swift>`). Shown instead of a line and column.
    public var path: (file: String, path: String)? {
        get { pathFile.flatMap { file in pathText.map { (file, $0) } } }
        set {
            pathFile = newValue?.file
            pathText = newValue?.path
        }
    }
    private var pathFile: String?
    private var pathText: String?

    public init(_ message: String, at location: SourceLocation?, suggestion: String? = nil) {
        self.message = message
        self.location = location
        self.suggestion = suggestion
    }

    /// An error in a scenario built in Swift, at the path of the key in its file form.
    public init(_ message: String, file: String, path: String, suggestion: String? = nil) {
        self.init(message, at: nil, suggestion: suggestion)
        self.path = (file, path)
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
