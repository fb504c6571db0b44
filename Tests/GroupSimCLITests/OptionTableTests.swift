import Foundation
import Testing
@testable import GroupSimCLI

/// Each command declares its options once, in its table: the parser accepts exactly those,
/// and the usage line, the help and the documented command line list exactly those, so
/// they cannot drift apart again.
@Suite struct OptionTableTests {
    static let commands = GroupSimCommand.subcommands

    /// The option names (`--name`, without the dashes) that `text` mentions, in order.
    static func optionNames(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: "--") {
            let name = rest[range.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if !name.isEmpty, range.lowerBound == rest.startIndex || !rest[rest.index(before: range.lowerBound)].isLetter {
                names.append(String(name))
            }
            rest = rest[range.upperBound...]
        }
        return names
    }

    /// The usage line: the lines of the help before its first empty line.
    static func usage(_ help: String) -> String {
        String(help.components(separatedBy: "\n\n").first ?? "")
    }

    /// The names the help's option list starts a line with, in order.
    static func listedOptions(_ help: String) -> [String] {
        let section = help.components(separatedBy: "\nOptions:\n").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
        return section.split(separator: "\n").filter { $0.hasPrefix("  --") }.compactMap { optionNames(in: String($0)).first }
    }

    @Test func everyUsageLineListsExactlyTheTableOptionsOnce() {
        for command in Self.commands {
            let names = command.options.map(\.name)
            #expect(Set(names).count == names.count, "\(command.name) declares an option twice")
            let usage = Self.usage(command.help)
            #expect(usage == command.usage)
            #expect(usage.hasPrefix("Usage: groupsim \(command.name) "))
            #expect(Self.optionNames(in: usage).sorted() == names.sorted(), "\(command.name): \(usage)")
        }
    }

    @Test func everyHelpListsExactlyTheTableOptionsInOrder() async {
        for command in Self.commands {
            #expect(Self.listedOptions(command.help) == command.options.map(\.name), "\(command.name)")
            let printed = await CLI.run([command.name, "--help"])
            #expect(printed.status == 0)
            #expect(Self.listedOptions(printed.output) == command.options.map(\.name), "\(command.name)")
        }
    }

    /// Usage lines and option lists fit a terminal; help and usage are the same on every
    /// machine (nothing in them is measured here, such as the number of cores).
    @Test func helpFitsAndIsTheSameOnEveryMachine() {
        for command in Self.commands {
            for line in command.usage.split(separator: "\n") + OptionTable.help(command.options).split(separator: "\n") {
                #expect(line.count <= OptionTable.width, "\(command.name): \(line)")
            }
        }
        let explore = ExploreCommand.help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(explore.contains("runs going on at once; the report is the same for any N (default: the number of cores)"))
        #expect(!explore.contains("here \(ProcessInfo.processInfo.activeProcessorCount)"))
    }

    /// `groupsim help` and docs/scenario-format.md show every command's usage line.
    @Test func generalHelpAndTheDocumentedCommandLineShowTheGeneratedUsageLines() throws {
        let lines = Help.usageLines(indent: "")
        #expect(Help.general.contains(Help.usageLines(indent: "  ").joined(separator: "\n")))
        let document = try String(contentsOfFile: CLI.path("docs/scenario-format.md"), encoding: .utf8)
        let block = try #require(document.components(separatedBy: "## The command line\n\n```\n").dropFirst().first?
            .components(separatedBy: "```\n").first)
        let help = String(Help.helpOnHelp.split(separator: "\n")[0].dropFirst("Usage: ".count))
        #expect(block == (lines + [help]).joined(separator: "\n") + "\n",
                "update the block in docs/scenario-format.md to groupsim help's usage lines")
    }

    /// The parser takes every option of the table, with a value where it needs one.
    @Test func theParserAcceptsEveryOptionOfTheTable() throws {
        for command in Self.commands {
            for option in command.options {
                let arguments: [String] = switch option.value {
                case .none: ["--\(option.name)"]
                case .integer(_, let lowest, _): ["--\(option.name)", String(lowest)]
                case .text: ["--\(option.name)=x"]
                case .choice(_, let words, _): ["--\(option.name)", words[words.count - 1]]
                }
                let parsed = try Arguments(arguments, command: command.name, options: command.options)
                #expect(parsed.positional.isEmpty)
                #expect(option.takesValue ? parsed.value(option) != nil : parsed.flag(option), "\(command.name) --\(option.name)")
            }
        }
    }

    /// A choice's default is one of its words, and the parser gives it when the option is absent.
    @Test func everyChoiceDefaultIsOneOfItsWords() throws {
        var choices = 0
        for command in Self.commands {
            for option in command.options where !option.words.isEmpty {
                choices += 1
                #expect(option.words.contains(option.defaultValue ?? ""), "\(command.name) --\(option.name)")
            }
        }
        #expect(choices == 5)
        let parsed = try RunCommand.parse(["a.yaml"])
        #expect(try parsed.choice(RunCommand.format, as: RunCommand.Format.self) == .text)
    }

    /// A value outside an enumeration's cases is refused with the allowed values, and a
    /// suggestion when one is near.
    @Test(arguments: [
        (["run", "a.yaml", "--format", "pdf"], "--format takes text, json, mermaid, html, sides, screens, found \"pdf\""),
        (["run", "a.yaml", "--format=sceens"],
         "--format takes text, json, mermaid, html, sides, screens, found \"sceens\"; did you mean \"screens\"?"),
        (["explore", "a.yaml", "--format", "svg"], "--format takes text, json, html, found \"svg\""),
        (["merge", "a.json", "--format", "xml"], "--format takes text, json, html, found \"xml\""),
        (["test", "--format", "junit"], "--format takes text, github, found \"junit\""),
        (["lessons", "--format", "pdf"], "--format takes text, html, found \"pdf\""),
        (["bench", "--only", "d"], "--only takes a, b, c, e, f, found \"d\"; did you mean \"a\"?"),
    ])
    func aValueOutsideTheCasesIsRefusedWithTheAllowedOnes(_ arguments: [String], _ message: String) async {
        let result = await CLI.run(arguments)
        #expect(result.exit == .usage)
        #expect(result.error == "groupsim: error: \(message)\nRun 'groupsim help' for usage.\n")
        #expect(result.output.isEmpty)
    }

    /// Unknown options, missing values and values given twice say what is wrong.
    @Test(arguments: [
        (["run", "a.yaml", "--callback"], "unknown option \"--callback\" for run; did you mean \"--callbacks\"?\n"
            + "Run 'groupsim help run' for usage."),
        (["explore", "a.yaml", "--runs"], "--runs needs a value\nRun 'groupsim help' for usage."),
        (["shrink", "a.yaml", "--seed", "1", "--seed=2"], "--seed is given twice\nRun 'groupsim help' for usage."),
        (["merge", "a.json", "--partial=yes"], "--partial takes no value\nRun 'groupsim help' for usage."),
        (["explore", "a.yaml", "--workers", "5000"], "--workers takes a whole number from 1 to 4096, found \"5000\"\n"
            + "Run 'groupsim help' for usage."),
    ])
    func badOptionsSayWhatIsWrong(_ arguments: [String], _ message: String) async {
        let result = await CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.error == "groupsim: error: \(message)\n")
    }

    /// The table's placements are the option relations: an option shown inside another's
    /// brackets needs it, one shown instead of another excludes it, for every command and
    /// before any file is read; the help's "with --X:" comes from the same placement.
    @Test(arguments: [
        (["explore", "missing.yaml", "--no-factor"], "--no-factor goes with --exhaustive"),
        (["explore", "missing.yaml", "--exhaustive", "--quiet", "--progress"], "--progress and --quiet contradict each other; give one"),
        (["run", "missing.yaml", "--format", "json", "--summary", "--full"], "--summary and --full contradict each other; give one"),
    ])
    func placementsAreTheRelations(_ arguments: [String], _ message: String) async throws {
        let result = await CLI.run(arguments)
        #expect(result.status == 2)
        let command = try #require(Self.commands.first { $0.name == arguments[0] })
        #expect(result.error == "groupsim: error: \(message)\n\(command.usage)\n")
        #expect(ExploreCommand.help.contains("--limit N         with --exhaustive: refuse above N orders"))
    }

    /// A whole-number default is written once: the help prints it and the parser gives it.
    @Test func numericDefaultsAreWrittenOnce() throws {
        let parsed = try ExploreCommand.parse(["a.yaml"])
        #expect(try parsed.number(ExploreCommand.runs) == 1_000 && ExploreCommand.runs.defaultValue == "1,000")
        #expect(try ShrinkCommand.parse(["a.yaml"]).number(ShrinkCommand.attempts) == 500)
        #expect(try ExploreCommand.parse(["a.yaml", "--runs", "7"]).number(ExploreCommand.runs) == 7)
    }

    /// The exit statuses keep the numbers the documents give them.
    @Test func exitStatusesKeepTheirNumbers() {
        #expect(ExitStatus.success.code == 0)
        #expect(ExitStatus.checkFailed.code == 1)
        #expect(ExitStatus.nothingToShrink.code == 1)
        #expect(ExitStatus.usage.code == 2)
        #expect(ExitStatus.interrupted(signal: SIGINT).code == 130)
        #expect(ExitStatus.interrupted(signal: SIGTERM).code == 143)
        #expect(ExitStatus.brokenPipe.code == 128 + SIGPIPE)
        #expect(ExitStatus.checks(passed: true) == .success)
        #expect(ExitStatus.checks(passed: false) == .checkFailed)
    }
}
