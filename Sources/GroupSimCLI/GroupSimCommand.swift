import Foundation
import GroupSim

/// The `groupsim` command line, callable from tests: give it the arguments (without the
/// program name) and it returns what to print and the exit status, touching nothing else
/// but the files it is asked to read or write (and standard input, for a scenario named `-`).
///
/// Exit status (`ExitStatus`, docs/scenario-format.md): 0 every check held; 1 a check
/// failed; 2 a usage error or an invalid scenario, with the message on standard error;
/// 130 or 143 a command stopped by SIGINT or SIGTERM.
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
            renamed = renamed.replacingOccurrences(of: "groupsim \(command) ", with: "\(ShellWord.quote(toolName)) \(command) ")
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
                if rest.contains("--help") || rest.contains("-h") { return CommandResult(.success, output: Help.withRules(command.help)) }
                return try await command.init(apps: apps).execute(rest, progress: progress)
            }
            switch name {
            case "help", "--help", "-h":
                guard let topic = rest.first else { return CommandResult(.success, output: Help.general) }
                return CommandResult(.success, output: Help.withRules(try Help.topic(topic)))
            case "--version", "version":
                return CommandResult(.success, output: "groupsim \(GroupSimVersion.current)\n")
            default:
                var message = "unknown command \"\(name)\""
                if let near = Suggestion.nearest(to: name, in: Help.commandNames) { message += "; did you mean \"\(near)\"?" }
                throw UsageError(message)
            }
        } catch let error as UsageError {
            return CommandResult(.usage, error: "groupsim: error: \(error.message)\n\(error.hint ?? "Run 'groupsim help' for usage.")\n")
        } catch let errors as ScenarioErrors {
            return CommandResult(.usage, error: Help.withRules(errors.description + "\n"))
        } catch {
            return CommandResult(.usage, error: "groupsim: error: \(error)\n")
        }
    }
}

/// One `groupsim` subcommand: its name, its table of options, its help text, and what it does.
protocol Subcommand: Sendable {
    /// The word after `groupsim`.
    static var name: String { get }
    /// One line for `groupsim help`.
    static var summary: String { get }
    /// What the usage line shows before the options: `FILE`, `[PATH...]`, or nothing.
    static var operands: String { get }
    /// Every option the command takes, in the order the usage line and the help list them:
    /// what `Arguments` accepts, and all it accepts.
    static var options: [Option] { get }
    /// The help between the usage line and the options: what the command does.
    static var about: String { get }
    /// The help after the options: notes and the exit status.
    static var epilogue: String { get }

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

    /// The usage line's words after `groupsim`: the name, the operands, each option in brackets.
    static var usageWords: [String] {
        [name] + (operands.isEmpty ? [] : [operands]) + OptionTable.usageParts(options)
    }

    /// `Usage: groupsim run FILE [--seed N] ...`, wrapped to fit, the lines after the first
    /// lined up under the operands.
    static var usage: String {
        let first = "Usage: groupsim "
        return OptionTable.wrap(usageWords, first: first, rest: String(repeating: " ", count: first.count + name.count + 1))
            .joined(separator: "\n")
    }

    /// The full help: the usage line, what the command does, every option, the notes.
    static var help: String {
        "\(usage)\n\n\(about)\n\nOptions:\n\(OptionTable.help(options))\n\n\(epilogue)\n"
    }

    /// The arguments read against the command's table of options.
    static func parse(_ arguments: [String]) throws -> Arguments {
        let parsed = try Arguments(arguments, command: name, options: options)
        try parsed.checkRelations(options, usage: usage)
        return parsed
    }

    /// The one scenario file of a command that takes one (`run`, `explore`, `shrink`);
    /// none, or more than one, is a usage error with the usage line.
    static func scenarioFile(_ parsed: Arguments) throws -> String {
        guard parsed.positional.count == 1, let path = parsed.positional.first else {
            let count = parsed.positional.count
            throw UsageError(count == 0 ? "\(name) needs a scenario file" : "\(name) takes one scenario file, found \(count)", hint: usage)
        }
        return path
    }
}

/// What a command printed and how it ended.
public struct CommandResult: Sendable, Equatable {
    /// How the command ended.
    public var exit: ExitStatus
    /// For standard output.
    public var output: String
    /// For standard error.
    public var error: String

    /// The process's exit status: `exit.code`.
    public var status: Int32 { exit.code }

    public init(_ exit: ExitStatus, output: String = "", error: String = "") {
        self.exit = exit
        self.output = output
        self.error = error
    }

    static func usage(_ text: String) -> CommandResult { CommandResult(.usage, error: text) }
}

/// How a command ended: the exit status of the process. The numbers are documented
/// (docs/scenario-format.md, "The command line") and scripts rely on them.
public enum ExitStatus: Sendable, Equatable {
    /// 0: every check held, or the command did what it was asked.
    case success
    /// 1: a check failed (in some run, for `explore` and `merge`).
    case checkFailed
    /// 1: `shrink` ran the scenario and every check held: there is nothing to shrink.
    case nothingToShrink
    /// 2: a usage error, an invalid scenario or one over the memory budget, a file that
    /// cannot be read or written (standard output included).
    case usage
    /// 128 + the signal: SIGINT (130) or SIGTERM (143) stopped the command.
    case interrupted(signal: Int32)
    /// 128 + SIGPIPE (141): the reader of standard output went away, and raising SIGPIPE
    /// did not end the process itself.
    case brokenPipe

    /// `.success` when every check held, else `.checkFailed`.
    static func checks(passed: Bool) -> ExitStatus { passed ? .success : .checkFailed }

    /// The number the process exits with.
    public var code: Int32 {
        switch self {
        case .success: 0
        case .checkFailed, .nothingToShrink: 1
        case .usage: 2
        case .interrupted(let signal): 128 + signal
        case .brokenPipe: 128 + SIGPIPE
        }
    }
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
