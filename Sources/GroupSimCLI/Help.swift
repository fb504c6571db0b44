import Foundation

/// The general help of `groupsim`; each command's own help lives with the command.
enum Help {
    static var commandNames: [String] { GroupSimCommand.subcommands.map { $0.name } + ["help"] }

    static var general: String {
        let width = GroupSimCommand.subcommands.map { $0.name.count }.max() ?? 4
        let list = GroupSimCommand.subcommands.map { command in
            "  " + command.name + String(repeating: " ", count: width - command.name.count + 3) + command.summary
        }
        let usages = GroupSimCommand.subcommands.compactMap { $0.help.split(separator: "\n").first }
            .map { "  " + $0.replacingOccurrences(of: "Usage: ", with: "") }
        return """
        groupsim: simulate iMessage group conversations across many devices.

        Usage:
        \(usages.joined(separator: "\n"))
          groupsim help [COMMAND | format | rules | M1...M30]

        Commands:
        \(list.joined(separator: "\n"))

        Exit status: 0 every check held; 1 a check failed; 2 a usage error or an invalid scenario.
        Scenario files are described in docs/scenario-format.md (`groupsim help format`);
        the rules M1 to M30 in docs/behaviour.md (`groupsim help rules`, `groupsim help M12`).
        Examples are in Scenarios/.

        """
    }
}
