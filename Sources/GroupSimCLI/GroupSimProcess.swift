import Foundation
import GroupSim

/// `groupsim` as a process: runs one command line and hands its output to the system.
///
/// - Standard output that cannot be written (a full disk, `> /dev/full`) is exit status 2
///   with a message on standard error, never a crash and never 0.
/// - A reader that went away (`groupsim explore ... | head -1`) ends the process quietly,
///   by SIGPIPE, as it ends any program.
/// - SIGINT and SIGTERM interrupt an exploration with a partial report (`Interrupts`).
public enum GroupSimProcess {
    /// Runs `arguments` (without the program name) as the whole process: prints what the
    /// command returns and exits with its status.
    public static func main(_ arguments: [String], command: GroupSimCommand = GroupSimCommand()) async -> Never {
        // Failed writes come back as errors (EPIPE, EFBIG) to be handled below, instead
        // of signals that end the process before it can say anything.
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
        // SIGQUIT is ignored at every moment, an `--output` write included: no backtrace,
        // no temporary file left behind.
        signal(SIGQUIT, SIG_IGN)
        let result = await Interrupts.$enabled.withValue(true) { await command.run(arguments) }
        deliver(result)
    }

    /// A tool of your own: runs the process's command line with `apps` registered, and
    /// names itself in its hints as it was invoked. The whole `main.swift`:
    ///
    /// ```swift
    /// import GroupSimCLI
    /// await GroupSimProcess.main(apps: myApps())
    /// ```
    public static func main(apps: AppRegistry) async -> Never {
        let invoked = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "groupsim"
        await main(Array(CommandLine.arguments.dropFirst()),
                   command: GroupSimCommand(apps: apps, toolName: invoked.isEmpty ? "groupsim" : invoked))
    }

    /// Writes the output and the errors, then exits with the command's status.
    static func deliver(_ result: CommandResult) -> Never {
        if let failure = OutputFile.writeAll(Array(result.output.utf8), to: STDOUT_FILENO) {
            if failure == EPIPE {
                _ = OutputFile.writeAll(Array(result.error.utf8), to: STDERR_FILENO)
                signal(SIGPIPE, SIG_DFL)
                raise(SIGPIPE)
                exit(ExitStatus.brokenPipe.code)
            }
            let message = "groupsim: error: cannot write to standard output: \(OutputFile.reason(failure))\n"
            _ = OutputFile.writeAll(Array((result.error + message).utf8), to: STDERR_FILENO)
            exit(ExitStatus.usage.code)
        }
        _ = OutputFile.writeAll(Array(result.error.utf8), to: STDERR_FILENO)
        exit(result.exit.code)
    }
}
