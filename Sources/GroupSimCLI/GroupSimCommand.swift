import GroupSim

/// The `groupsim` command line, callable from tests: give it the arguments (without the
/// program name) and it returns what to print and the exit status, touching nothing else
/// but the files it is asked to read or write (and standard input, for a scenario named `-`).
///
/// Exit status (docs/scenario-format.md): 0 every check held; 1 a check failed; 2 a usage
/// error or an invalid scenario, with the message on standard error.
public struct GroupSimCommand: Sendable {
    /// Every subcommand, in the order `groupsim help` lists them. A new command is one
    /// file with a type conforming to `Subcommand`, plus one entry here.
    static let subcommands: [any Subcommand.Type] = [
        RunCommand.self,
        CheckCommand.self,
        ExploreCommand.self,
        MergeCommand.self,
        ShrinkCommand.self,
        BenchCommand.self,
        LessonsCommand.self,
        TestCommand.self,
        SchemaCommand.self,
    ]

    /// Apps that scenario files may name with `app: { name: ... }`, besides the built-in one.
    public var apps: AppRegistry

    /// Where `explore` and `test` show their progress (standard error by default).
    public var progress: ProgressSink

    /// The name the hints it prints give the tool (`replay: NAME run FILE --seed N`,
    /// `NAME run FILE --full`): a tool of your own that registers apps passes its name.
    public var toolName: String

    public init(apps: AppRegistry = AppRegistry(), progress: ProgressSink = .standardError, toolName: String = "groupsim") {
        self.apps = apps
        self.progress = progress
        self.toolName = toolName
    }

    /// Runs one command line. Never traps on input: every problem becomes exit status 2.
    ///
    /// What it returns is ready for a terminal: control characters from user strings
    /// (names, captions, paths) are escaped by `Markup.terminal`, here for every command.
    public func run(_ arguments: [String]) async -> CommandResult {
        var result = await dispatch(arguments)
        result.output = Markup.terminal(renamed(result.output))
        result.error = Markup.terminal(renamed(result.error))
        return result
    }

    /// `text` with the command lines it suggests (`groupsim run ...`, `groupsim help ...`)
    /// naming this tool.
    private func renamed(_ text: String) -> String {
        guard toolName != "groupsim", text.contains("groupsim ") else { return text }
        var renamed = text
        for command in Self.subcommands.map({ $0.name }) + ["help"] {
            renamed = renamed.replacingOccurrences(of: "groupsim \(command) ", with: "\(toolName) \(command) ")
            renamed = renamed.replacingOccurrences(of: "'groupsim \(command)'", with: "'\(toolName) \(command)'")
        }
        return renamed
    }

    private func dispatch(_ arguments: [String]) async -> CommandResult {
        guard let name = arguments.first else {
            return .usage(Help.general)
        }
        let rest = Array(arguments.dropFirst())
        do {
            if let command = Self.subcommands.first(where: { $0.name == name }) {
                if rest.contains("--help") || rest.contains("-h") { return CommandResult(status: 0, output: Help.withRules(command.help)) }
                return try await command.init(apps: apps).execute(rest, progress: progress)
            }
            switch name {
            case "help", "--help", "-h":
                guard let topic = rest.first else { return CommandResult(status: 0, output: Help.general) }
                return CommandResult(status: 0, output: Help.withRules(try Help.topic(topic)))
            case "--version", "version":
                return CommandResult(status: 0, output: "groupsim \(GroupSimVersion.current)\n")
            default:
                var message = "unknown command \"\(name)\""
                if let near = Suggestion.nearest(to: name, in: Help.commandNames) { message += "; did you mean \"\(near)\"?" }
                throw UsageError(message)
            }
        } catch let error as UsageError {
            return CommandResult(status: 2, error: "groupsim: error: \(error.message)\n\(error.hint ?? "Run 'groupsim help' for usage.")\n")
        } catch let errors as ScenarioErrors {
            return CommandResult(status: 2, error: Help.withRules(errors.description + "\n"))
        } catch {
            return CommandResult(status: 2, error: "groupsim: error: \(error)\n")
        }
    }
}

/// One `groupsim` subcommand: its name, its help text, and what it does.
protocol Subcommand: Sendable {
    /// The word after `groupsim`.
    static var name: String { get }
    /// One line for `groupsim help`.
    static var summary: String { get }
    /// The full help, starting with its usage line.
    static var help: String { get }

    init(apps: AppRegistry)

    /// Runs with the arguments after the command's name. Throws `UsageError` or
    /// `ScenarioErrors` for exit status 2.
    func execute(_ arguments: [String]) async throws -> CommandResult

    /// Runs with a place to show progress on; commands that show none ignore it.
    func execute(_ arguments: [String], progress: ProgressSink) async throws -> CommandResult
}

extension Subcommand {
    func execute(_ arguments: [String], progress: ProgressSink) async throws -> CommandResult {
        try await execute(arguments)
    }
}

/// What a command printed and how it ended.
public struct CommandResult: Sendable, Equatable {
    public var status: Int32
    /// For standard output.
    public var output: String
    /// For standard error.
    public var error: String

    public init(status: Int32, output: String = "", error: String = "") {
        self.status = status
        self.output = output
        self.error = error
    }

    static func usage(_ text: String) -> CommandResult { CommandResult(status: 2, error: text) }
}

/// A command line that does not make sense: exit status 2.
struct UsageError: Error {
    var message: String
    var hint: String?

    init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }
}
