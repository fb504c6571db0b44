import Foundation
import GroupSim

/// `groupsim run FILE [--seed N] [--format text|json|mermaid|html|sides|screens] ...`:
/// simulates once and prints the report; exit 0 when every check held, 1 otherwise.
struct RunCommand: Subcommand {
    static let name = "run"
    static let summary = "simulate a scenario once: timeline, transcripts, checks, pitfalls, trace digest"
    static let operands = "FILE"

    /// What `run --format` prints.
    enum Format: String, OptionChoice {
        case text, json, mermaid, html, sides, screens

        var summary: String {
            switch self {
            case .text: "the timeline, each device's transcript, the checks, the pitfalls and the trace digest"
            case .json: "the same report as JSON (docs/json-output.md)"
            case .mermaid: "a sequenceDiagram of the run (paste it into a ```mermaid block; GitHub draws it)"
            case .html:
                "one self-contained page (no network access): the message flow as an SVG diagram, every transcript as bubbles, "
                    + "the checks and the pitfalls, and a time slider that shows every device's screen at any event of the run; "
                    + "use --output race.html to save it (without --output the page goes to standard output)"
            case .sides:
                "what each user saw: every device's final transcript side by side, the live bubble of each session over time, "
                    + "and where two divergent devices' views parted"
            case .screens:
                "JSON: every device's screen after each event (only the screens an event changed), what the html page's "
                    + "time slider is checked against"
            }
        }
    }

    static let seed = Option.seed("override the file's seed")
    static let format = Option.choice("format", Format.self, default: .text, "what to print")
    static let callbacks = Option.flag("callbacks", "show the extension's callbacks in the text timeline")
    static let summaryOnly = Option.flag("summary", """
        text on one screen: each device's live bubble per session, the checks, and the pitfalls grouped by kind and 
        session ("lost-update ×12 in poll (M12), first: ...")
        """)
    static let full = Option.flag("full", """
        text with every event, transcript entry and pitfall; by default a long timeline, transcript section or pitfall 
        list is condensed
        """, placement: .instead(of: "summary"))
    static let options = [seed, format, .output, callbacks, summaryOnly, full, .noDeterminismCheck] + ScenarioInput.options

    static let about = """
    FILE may be - to read the scenario from standard input. Simulates the scenario once and
    prints the timeline, each device's final transcript, every check with its result, the
    pitfalls found (with the rule each comes from and the fix), and a line `trace: HEX`, a
    digest of the whole run: every event with its content (messages, cloud requests and
    answers, failures), each device's final view and every check's verdict. The same file
    and seed give the same digest on every run and machine.
    """

    static let epilogue = """
    A scenario whose app is registered from Swift runs the seed twice and compares the two
    runs: an app that is not deterministic (UUID(), Date(), its own threads or queues, state
    shared between devices) is an error naming the first event where the runs parted.

    Exit status: 0 every check held; 1 a check failed; 2 usage error, invalid scenario, a
    scenario over the --max-copies budget, or an app that gave two different runs of one seed.
    """

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        let parsed = try Self.parse(arguments)
        let path = try Self.scenarioFile(parsed)
        let seed = try parsed.integer(Self.seed, as: UInt64.self)
        let format = try parsed.choice(Self.format, as: Format.self)
        try OutputFile.check(parsed.value(.output), inputs: [path])
        let scenario = try ScenarioInput.load(path, parsed, apps: apps)
        let inputs = ScenarioInput.inputs(path, scenario)
        try OutputFile.check(parsed.value(.output), inputs: inputs)
        let report = try await scenario.run(seed: seed, apps: apps)
        if !parsed.flag(.noDeterminismCheck), DeterminismCheck.applies(to: scenario, apps: apps),
           let divergence = try await DeterminismCheck.compare(report.outcome, rerunning: scenario, apps: apps) {
            throw UsageError(divergence.summary, hint: DeterminismCheck.Divergence.advice)
        }
        let text: String
        switch format {
        case .json: text = JSONReport.render(report)
        case .mermaid: text = MermaidReport.render(report)
        case .html: text = HTMLReport.render(report)
        case .sides: text = SideBySideReport.render(report)
        case .screens: text = ScreenReport.render(report)
        case .text:
            let detail: TextReport.Detail = parsed.flag(Self.summaryOnly) ? .summary : parsed.flag(Self.full) ? .full : .scaled
            text = TextReport.render(report, options: .init(showCallbacks: parsed.flag(Self.callbacks), detail: detail))
        }
        let status = ExitStatus.checks(passed: report.passed)
        if let output = parsed.value(.output) {
            try OutputFile.write(text, to: output, inputs: inputs)
            let summary = "wrote \(output); \(report.checkCounts.held) of \(report.checkCounts.total) checks held; "
                + "trace: \(report.digest)\n"
            return CommandResult(status, output: summary)
        }
        return CommandResult(status, output: text)
    }
}

/// `groupsim check FILE...`: validates files without running them.
struct CheckCommand: Subcommand {
    static let name = "check"
    static let summary = "validate scenario files without running them"
    static let operands = "FILE..."
    static let options = ScenarioInput.options

    static let about = """
    Validates each scenario file without running it (- reads one from standard input).
    Prints `FILE: ok` for each valid file; errors go to standard error as
    FILE:LINE:COLUMN: error: WHAT. A file over the memory budget is an error too, as `run`
    would refuse it.
    """

    static let epilogue = "Exit status: 0 all files are valid; 2 some file is not."

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        let parsed = try Self.parse(arguments)
        guard !parsed.positional.isEmpty else {
            throw UsageError("check needs at least one scenario file", hint: Self.usage)
        }
        guard parsed.positional.filter({ $0 == ScenarioSource.standardInputPath }).count <= 1 else {
            throw UsageError("check reads standard input (-) once; name it once")
        }
        let limits = ScenarioInput.limits(parsed)
        let budget = try ScenarioInput.budget(parsed)
        var output = ""
        var errors = ""
        for path in parsed.positional {
            do {
                let scenario = try ScenarioInput.load(path, limits: limits, budget: budget, apps: apps)
                output += "\(scenario.file): ok (\(scenario.name): \(scenario.devices.count) devices, "
                    + "\(scenario.steps.count) steps, \(scenario.checks.count) checks)\n"
            } catch let error as UsageError {
                errors += "groupsim: error: \(error.message)\n"
            } catch {
                errors += "\(error)\n"
            }
        }
        return CommandResult(errors.isEmpty ? .success : .usage, output: output, error: Help.withRules(errors))
    }
}
