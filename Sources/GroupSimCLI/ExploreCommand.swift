import Foundation
import GroupSim

/// `groupsim explore FILE [--runs N] [--seed N] [--exhaustive] [--format text|json]
/// [--workers N] [--shard I/N]`: runs the scenario under many schedules and prints, per
/// check, how many runs failed it, the outcome distribution per device, the pitfalls and
/// a failing run's seed; exit 0 when every check held in every run, 1 otherwise.
struct ExploreCommand: Subcommand {
    static let name = "explore"
    static let summary = "run a scenario under many schedules: failures per check, outcomes per device, a seed to replay"
    static let formats = ["text", "json"]
    static let defaultRuns = 1_000
    static let usage = "Usage: groupsim explore FILE [--runs N] [--seed N] [--exhaustive [--limit N]] [--format text|json] [--workers N] [--shard I/N] [--output PATH]"

    static let help = """
    \(usage)

    Runs the scenario many times, each run with fresh latency, jitter and race draws (run
    i uses a seed derived from the base seed and i), and prints for each check how many
    runs failed it, the distribution of outcomes per device (which sender's bubble is live
    and the state tapping it would show, with percentages), the pitfalls with how many
    runs reported each, and the seed of the first failing run: replay it with
    `groupsim run FILE --seed N`.

    With --exhaustive it instead runs every distinct delivery order once (the file's own
    seed): between two steps, the copies and cloud requests in flight run in every order,
    and orders that only swap events on different devices are pruned (they cannot change
    what any device shows). It refuses, with the estimated count, a scenario with more
    distinct orders than --limit.

    Options:
      --runs N          how many runs (default \(defaultRuns))
      --seed N          the base seed (default: the file's, else 1)
      --exhaustive      every distinct delivery order instead of random runs
      --limit N         with --exhaustive: refuse above N estimated orders (default \(Explorer.defaultExhaustiveLimit))
      --format F        text (default) or json (merge shard files with `groupsim merge`)
      --workers N       runs going on at once (default: every core, here \(ProcessInfo.processInfo.activeProcessorCount));
                        the report is the same for any N
      --shard I/N       only runs i with i % N == I, for splitting across processes or
                        machines; merge the JSON reports with `groupsim merge`
      --output PATH     write the report to PATH instead of standard output
    \(ScenarioInput.help)

    Exit status: 0 every check held in every run; 1 a check failed in some run; 2 usage
    error, invalid scenario, a scenario over the --max-copies budget (checked for one
    run), or a scenario too large for --exhaustive.

    """

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        let parsed = try Arguments(arguments, command: "explore", valued: ["runs", "seed", "limit", "format", "workers", "shard", "output"] + ScenarioInput.valued,
                                   flags: ["exhaustive"] + ScenarioInput.flags)
        guard parsed.positional.count == 1, let path = parsed.positional.first else {
            throw UsageError(parsed.positional.isEmpty ? "explore needs a scenario file" : "explore takes one scenario file, found \(parsed.positional.count)",
                             hint: Self.usage)
        }
        let runs = try parsed.integer("runs", Int.self, in: 1...100_000_000) ?? Self.defaultRuns
        let seed = try parsed.integer("seed", UInt64.self, in: 0...UInt64.max)
        let limit = try parsed.integer("limit", Int.self, in: 1...100_000_000) ?? Explorer.defaultExhaustiveLimit
        let format = try parsed.choice("format", Self.formats) ?? "text"
        let workers = try parsed.integer("workers", Int.self, in: 1...4_096) ?? ProcessInfo.processInfo.activeProcessorCount
        var shard: Shard?
        if let text = parsed.value("shard") {
            do {
                shard = try Shard(parsing: text)
            } catch {
                throw UsageError("--shard: \(error.description)")
            }
        }
        let exhaustive = parsed.flag("exhaustive")
        if exhaustive {
            for option in ["runs", "seed", "shard"] where parsed.value(option) != nil {
                throw UsageError("--exhaustive runs every delivery order with the file's seed; it takes no --\(option)", hint: Self.usage)
            }
        } else if parsed.value("limit") != nil {
            throw UsageError("--limit goes with --exhaustive", hint: Self.usage)
        }

        let scenario = try ScenarioInput.load(path, parsed, apps: apps)
        let explorer = Explorer(scenario: scenario, apps: apps, workers: workers)
        let report: ExplorationReport
        if exhaustive {
            do {
                report = try await explorer.exhaustive(limit: limit)
            } catch {
                throw UsageError(error.description, hint: "Run 'groupsim help explore' for usage.")
            }
        } else {
            report = await explorer.explore(runs: runs, seed: seed, shard: shard)
        }
        let text = format == "json" ? ExplorationJSONReport.render(report) : ExplorationTextReport.render(report)
        let status: Int32 = report.passed ? 0 : 1
        if let output = parsed.value("output") {
            try OutputFile.write(text, to: output)
            return CommandResult(status: status, output: "wrote \(output); \(report.failedRuns) of \(report.runs) runs failed a check\n")
        }
        return CommandResult(status: status, output: text)
    }
}
