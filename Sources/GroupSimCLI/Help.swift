import Foundation

/// The general help of `groupsim`; each command's own help lives with the command.
enum Help {
    static var commandNames: [String] { GroupSimCommand.subcommands.map { $0.name } + ["help"] }

    static var general: String {
        let width = GroupSimCommand.subcommands.map { $0.name.count }.max() ?? 4
        let list = GroupSimCommand.subcommands.map { command in
            "  " + command.name + String(repeating: " ", count: width - command.name.count + 3) + command.summary
        }
        let usages = usageLines(indent: "  ")
        return """
        groupsim: simulate iMessage group conversations across many devices.

        Usage:
        \(usages.joined(separator: "\n"))
          groupsim help [COMMAND | format | steps | checks | pitfalls | callbacks | terms | rules | M1...M30]

        Commands:
        \(list.joined(separator: "\n"))

        A scenario FILE may be - to read it from standard input (named <stdin> in messages;
        the files it names are taken from the working folder).

        Output files: --output PATH writes as the shell's > would, and never damages what it
        does not own. It refuses a PATH that is one of the inputs (links followed), a folder,
        or a path whose folder does not exist (exit 2, nothing created); writes pipes and
        devices in place; writes through a symbolic link to its target; and replaces a
        regular file atomically (a temporary file in the same folder, renamed over it),
        keeping its permissions. A write that fails, there or on standard output, is exit 2.

        Exit status: 0 every check held; 1 a check failed; 2 a usage error or an invalid scenario;
        130 or 143 stopped by SIGINT or SIGTERM (explore, test).
        Scenario files are described in docs/scenario-format.md (`groupsim help format`);
        the rules M1 to M30 in docs/behaviour.md (`groupsim help rules`, `groupsim help M12`).
        Examples are in Scenarios/.

        """
    }

    /// Every command's usage line without `Usage: `, each wrapped to fit with the lines
    /// after its first lined up under the command's operands: the list `groupsim help`
    /// prints and docs/scenario-format.md shows.
    static func usageLines(indent: String) -> [String] {
        GroupSimCommand.subcommands.flatMap { command in
            let first = indent + "groupsim "
            return OptionTable.wrap(command.usageWords, first: first,
                                    rest: String(repeating: " ", count: first.count + command.name.count + 1))
        }
    }
}
