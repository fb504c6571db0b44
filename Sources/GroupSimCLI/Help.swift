/// The help texts of `groupsim` and each command.
enum Help {
    static let commands = ["run", "check", "help"]

    static let general = """
    groupsim: simulate iMessage group conversations across many devices.

    Usage:
      groupsim run FILE [--seed N] [--format text|json] [--output PATH] [--callbacks]
      groupsim check FILE...
      groupsim help [COMMAND]

    Commands:
      run      simulate a scenario once: timeline, transcripts, checks, pitfalls, trace digest
      check    validate scenario files without running them

    Exit status: 0 every check held; 1 a check failed; 2 a usage error or an invalid scenario.
    Scenario files are described in SCENARIO-FORMAT.md; examples are in Scenarios/.

    """

    static let run = """
    Usage: groupsim run FILE [--seed N] [--format text|json] [--output PATH] [--callbacks]

    Simulates the scenario once and prints the timeline, each device's final transcript,
    every check with its result, the pitfalls found (with the rule each comes from and
    the fix), and a line `trace: HEX`, a digest of the whole event trace. The same file
    and seed give the same digest on every run and machine.

    Options:
      --seed N          override the file's seed (default: the file's, else 1)
      --format F        text (default) or json
      --output PATH     write the report to PATH instead of standard output
      --callbacks       show the extension's callbacks in the text timeline

    Exit status: 0 every check held; 1 a check failed; 2 usage error or invalid scenario.

    """

    static let check = """
    Usage: groupsim check FILE...

    Validates each scenario file without running it. Prints `FILE: ok` for each valid
    file; errors go to standard error as FILE:LINE:COLUMN: error: WHAT.

    Exit status: 0 all files are valid; 2 some file is not.

    """

    static func topic(_ name: String) -> String? {
        switch name {
        case "run": run
        case "check": check
        case "help": general
        default: nil
        }
    }
}
