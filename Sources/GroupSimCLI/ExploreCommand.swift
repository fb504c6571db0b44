import Foundation
import GroupSim

/// `groupsim explore FILE [--runs N] [--seed N] [--exhaustive] [--format text|json|html] ...`:
/// runs the scenario under many schedules and prints, per check, how many runs failed it,
/// the outcome distribution per device, the pitfalls and a failing run's seed; exit 0
/// when every check held in every run, 1 otherwise.
struct ExploreCommand: Subcommand {
    static let name = "explore"
    static let summary = "run a scenario under many schedules: failures per check, outcomes per device, a seed to replay"
    static let operands = "FILE"

    /// What `explore --format` prints.
    enum Format: String, OptionChoice {
        case text, json, html

        var summary: String {
            switch self {
            case .text: "the report: failures per check, outcomes per device, pitfalls, a seed to replay"
            case .json: "the same as JSON (merge shard files with `groupsim merge`)"
            case .html:
                "one self-contained page with the failure rate of each check, the outcomes per device as bars, the pitfalls, "
                    + "and per failing outcome its first seed, the replay command and that run's report"
            }
        }
    }

    static let runs = Option.integer("runs", in: 1...100_000_000, default: 1_000, "how many runs")
    static let seed = Option.seed("the base seed")
    static let exhaustive = Option.flag("exhaustive", "every distinct delivery order instead of random runs")
    static let limit = Option.integer("limit", in: 1...100_000_000, default: Explorer.defaultExhaustiveLimit,
                                      "refuse above N orders to enumerate (estimated; found, for an app registered from Swift)",
                                      placement: .inside("exhaustive"))
    static let noFactor = Option.flag("no-factor", """
        enumerate every order, without factoring (the slow oracle the factored counts are tested against)
        """, placement: .inside("exhaustive"))
    static let format = Option.choice("format", Format.self, default: .text, "what to print")
    static let workers = Option.integer("workers", in: 1...4_096, default: "the number of cores",
                                        "runs going on at once; the report is the same for any N")
    static let shard = Option.text("shard", "I/N", """
        only runs i with i % N == I, for splitting across processes or machines; merge the JSON reports with `groupsim merge`
        """)
    static let full = Option.flag("full", """
        in text: every device's outcome line, every outcome class, check and failed step (the default report stays about 60 lines)
        """)
    static let progress = Option.flag("progress", """
        show progress on standard error (runs done, runs/s, failures so far, time left; with --exhaustive, orders found, \
        failures, schedules simulated, time elapsed) even when it is not a terminal
        """)
    static let quiet = Option.flag("quiet", "show no progress and no warnings on standard error", placement: .instead(of: "progress"))
    static let options = [runs, seed, exhaustive, limit, noFactor, maxMemory, format, workers, shard, .output, full, progress, quiet,
                          .noDeterminismCheck]
        + ScenarioInput.options

    static let about = """
    Runs the scenario many times, each run with fresh latency, jitter and race draws (run
    i uses a seed derived from the base seed and i), and prints for each check how many
    runs failed it, the distribution of outcomes per device (which sender's bubble is live
    and the state tapping it would show, with percentages), the pitfalls with how many
    runs reported each, and the seed of the first failing run: replay it with
    `groupsim run FILE --seed N`.

    With --exhaustive it instead runs every distinct order of events once, with the file's
    own seed for everything else. It varies: the order in which the copies, cloud requests
    and answers in flight arrive, whatever their latencies; where each step of a race runs
    in its window, relative to the race's other steps and to the events in flight; and on
    which side of a step an event lands when its possible arrival times (latency to
    latency plus jitter) straddle the step. It holds fixed: the time of every step outside
    a race (those keep their time order), an event that arrives before a step whatever
    the draws runs before it, and copies held for an offline device arrive in send order
    (M30). So it finds every outcome random runs can reach. Orders that only swap events
    on different devices, or cloud reads that no write separates, count as one order
    (they cannot change what any device shows); every
    failing order is listed, event by event. It refuses, with the estimated count, a
    scenario with more distinct orders than --limit; for an app registered from Swift,
    whose first run's estimate can be far above its orders, it refuses once the search
    has found more than --limit orders.

    Exhaustive exploration factors: once no later step can read what a device shows and
    its copies make nothing happen, the orders in which that device receives them are
    simulated once each and combined with the rest by counting, so a 96-device group's
    10^196 orders are counted exactly from a few thousand runs (docs/exploration.md,
    "Factoring"). --limit then bounds the orders enumerated, not the orders counted.
    Counts past 15 digits print as 1.278 × 10^196 in text; JSON has every digit.
    """

    static let epilogue = """
    FILE may be - to read the scenario from standard input.

    Progress is shown on standard error by default when it is a terminal. When nothing in
    the scenario is random (no jitter, no race) every run follows the same schedule; a
    warning on standard error then says so.

    For an app registered from Swift, the seeds the report prints (each failing run's, or
    the file's for --exhaustive) and a sample of passing runs are run again twice each
    before the report is printed: when two runs of one seed differ, or a failing run no
    longer fails the same checks, the app is not deterministic and the command stops with
    an error naming the first event where the runs parted (--no-determinism-check skips it).

    Ctrl-C (SIGINT) or SIGTERM stops the exploration between runs: it prints the report
    of the runs done so far, headed "interrupted after 41,200 of 100,000,000 runs", with
    the failing seeds and the replay line, writes --output if given, and exits 130 (143
    for SIGTERM). Every worker stops starting runs at once; a run in progress finishes. A
    second Ctrl-C ends it at once; a signal that comes within a second of the first, while
    the runs stop, is taken as a copy of it (`timeout` signals the process and then its
    process group).

    Exit status: 0 every check held in every run; 1 a check failed in some run; 2 usage
    error, invalid scenario, a scenario over the --max-copies budget, or a scenario too
    large for --exhaustive, or an app that gave two different runs of one seed; 130 or 143
    interrupted. The budget covers the runs going on at
    once together: when --workers N of them would go over it, fewer run at a time (a note
    on standard error says so; the report is the same).
    """

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        try await execute(arguments, progress: .silent)
    }

    func execute(_ arguments: [String], progress sink: ProgressSink) async throws -> CommandResult {
        let parsed = try Self.parse(arguments)
        let path = try Self.scenarioFile(parsed)
        let runs = try parsed.number(Self.runs)
        let seed = try parsed.integer(Self.seed, as: UInt64.self)
        let limit = try parsed.number(Self.limit)
        let format = try parsed.choice(Self.format, as: Format.self)
        let workers = try parsed.integer(Self.workers, as: Int.self) ?? ProcessInfo.processInfo.activeProcessorCount
        var shard: Shard?
        if let text = parsed.value(Self.shard) {
            do {
                shard = try Shard(parsing: text)
            } catch {
                throw UsageError("--shard: \(error.description)")
            }
        }
        let exhaustive = parsed.flag(Self.exhaustive)
        let showProgress = !parsed.flag(Self.quiet) && (parsed.flag(Self.progress) || sink.isTerminal)
        if exhaustive {
            for option in [Self.runs, Self.seed, Self.shard] where parsed.value(option) != nil {
                throw UsageError("--exhaustive runs every delivery order with the file's seed; it takes no --\(option.name)",
                                 hint: Self.usage)
            }
        }
        let memory = try Self.memoryBudget(parsed)
        let factor = !parsed.flag(Self.noFactor)

        try OutputFile.check(parsed.value(.output), inputs: [path])
        let scenario = try ScenarioInput.load(path, parsed, apps: apps)
        let inputs = ScenarioInput.inputs(path, scenario)
        try OutputFile.check(parsed.value(.output), inputs: inputs)
        // The budget covers the runs in flight together, not one run.
        let (fitting, workersNote) = ScenarioInput.workers(exhaustive ? workers : min(workers, runs), for: scenario.scenario,
                                                           budget: try ScenarioInput.budget(parsed))
        let explorer = Explorer(scenario, apps: apps, workers: fitting)
        // The first SIGINT or SIGTERM cancels the exploration, which stops starting runs
        // and reports the runs before it; the exit status then says which signal it was.
        let shardToRun = shard
        let line = showProgress ? ProgressLine(sink: sink, label: "explore \(scenario.name)") : nil
        var callback: (@Sendable (ExplorationProgress) -> Void)?
        var searchCallback: (@Sendable (SearchProgress) -> Void)?
        if let line {
            callback = { line.update($0) }
            searchCallback = { line.update($0) }
        }
        let (progress, searchProgress) = (callback, searchCallback)
        let (outcome, signal) = await Interrupts.run { () async -> Result<ExplorationReport, ExplorationError> in
            do throws(ExplorationError) {
                guard exhaustive else {
                    return .success(try await explorer.explore(runs: runs, seed: seed, shard: shardToRun, progress: progress))
                }
                return .success(try await explorer.exhaustive(limit: limit, factor: factor, memory: memory, progress: searchProgress))
            } catch {
                return .failure(error)
            }
        }
        // Cleared before an error too: a search can refuse after it has shown progress.
        line?.finish()
        let report: ExplorationReport
        switch outcome {
        case .success(let value): report = value
        case .failure(let error): throw UsageError(error.description, hint: "Run 'groupsim help explore' for usage.")
        }
        // Code GroupSim does not control is checked before its seeds are printed to replay.
        if !report.interrupted, !parsed.flag(.noDeterminismCheck), DeterminismCheck.applies(to: scenario, apps: apps),
           let divergence = try await DeterminismCheck.verify(report, scenario: scenario, apps: apps) {
            throw UsageError(divergence.summary, hint: DeterminismCheck.Divergence.advice)
        }
        var warnings = ""
        if !parsed.flag(Self.quiet), let workersNote { warnings += workersNote + "\n" }
        if !parsed.flag(Self.quiet), let warning = Self.sameOutcomeWarning(report, scenario: scenario.scenario) { warnings += warning + "\n" }
        let text: String = switch format {
        case .json: ExplorationJSONReport.render(report)
        case .html: await ExplorationHTMLPage.render(report, scenario: scenario.scenario, apps: apps)
        case .text: ExplorationTextReport.render(Self.replayableHere(report), full: parsed.flag(Self.full))
        }
        var status = ExitStatus.checks(passed: report.passed)
        if let signal { status = .interrupted(signal: signal) }
        if let stop = report.memoryStopDescription {
            status = .usage
            warnings += "groupsim: error: \(scenario.name): \(stop.replacingOccurrences(of: "the counts below", with: "the report's counts")); "
                + "explore it with --runs N instead, or raise --max-memory\n"
        }
        if let output = parsed.value(.output) {
            try OutputFile.write(text, to: output, inputs: inputs)
            var summary = "wrote \(output); \(report.failedRuns) of \(report.runs) runs failed a check\n"
            if report.interrupted, let line = text.split(separator: "\n").first(where: { $0.hasPrefix("interrupted after ") }) {
                summary = "\(line)\n" + summary
            }
            if let first = report.firstFailure, case .random = report.mode {
                summary += "replay: \(report.replayCommand(seed: first.reference.seed))\n"
            }
            return CommandResult(status, output: summary, error: warnings)
        }
        return CommandResult(status, output: text, error: warnings)
    }

    /// This command line has the scenario's app registered (it could not have read the
    /// scenario otherwise), so it replays a failing run itself: the text names `run FILE
    /// --seed N` instead of the Swift replay of a tool that lacks the app.
    static func replayableHere(_ report: ExplorationReport) -> ExplorationReport {
        var shown = report
        shown.app = nil
        return shown
    }
}

extension ExploreCommand {
    /// The warning for an exploration whose runs all came out the same because the seed
    /// cannot change the schedule: more random runs would only repeat the first.
    static func sameOutcomeWarning(_ report: ExplorationReport, scenario: Scenario) -> String? {
        guard case .random = report.mode, report.runs > 1, report.classes.count <= Set(report.classes.map(\.session)).count,
              !scenario.hasRandomSchedule else { return nil }
        return "warning: all \(report.runs) runs gave the same outcome: nothing in \(scenario.file) is random (no jitter, no race), "
            + "so every run follows one schedule. Add network jitter or a race to vary it, or use --exhaustive to try every delivery order."
    }
}
