import Foundation
import GroupSim

/// Reads the scenario file of `run`, `check`, `explore` and `shrink` with the options they
/// share: `--max-copies N` (the memory budget a scenario is checked against before it
/// runs) and `--all-errors` (print every error of an invalid file, not only the first 20).
enum ScenarioInput {
    /// `--max-copies N`.
    static let maxCopies = Option.integer("max-copies", in: 0...Int(Int32.max) * 1_000, default: """
        \(ScenarioBudget.defaultMaximumCopies.grouped), about 8 GB; less under a memory limit such as ulimit -v or
        a container's: half of it
        """, """
        the memory budget: refuse (exit 2) a scenario whose run would deliver more copies, or use more memory, than N copies would
        """)
    /// `--all-errors`.
    static let allErrors = Option.flag("all-errors",
                                       "print every error of an invalid file, not only the first \(ScenarioLimits.defaultErrorLimit)")
    /// The options every command that reads one scenario file takes.
    static let options = [maxCopies, allErrors]

    /// The command line's limits: the first 20 errors, or all with `--all-errors`.
    static func limits(_ parsed: Arguments) -> ScenarioLimits {
        ScenarioLimits(errorLimit: parsed.flag(allErrors) ? nil : ScenarioLimits.defaultErrorLimit)
    }

    /// The budget `--max-copies` sets, or the default.
    static func budget(_ parsed: Arguments) throws -> ScenarioBudget {
        let copies = try parsed.integer(maxCopies, as: Int.self) ?? defaultCopies
        return ScenarioBudget(maximumCopies: copies)
    }

    /// The default budget: `ScenarioBudget.defaultMaximumCopies`, or fewer copies when the
    /// process may use less memory than they would (`ulimit -v`, `ulimit -d`, a
    /// container's memory limit), so that a run the budget admits is not ended by the
    /// allocator half way.
    static let defaultCopies: Int = {
        guard let limit = ProcessMemory.limit() else { return ScenarioBudget.defaultMaximumCopies }
        // Half the limit: the address space also holds the program, its threads' stacks
        // and the allocator's slack.
        return max(0, min(ScenarioBudget.defaultMaximumCopies, limit / 2 / ScenarioBudget.bytesPerCopy))
    }()

    /// How many runs may go on at once within the budget: `requested`, or fewer when the
    /// runs in flight together would go over it (the report is the same for any number of
    /// workers). `note` says so, for standard error, when it is fewer.
    static func workers(_ requested: Int, for scenario: Scenario, budget: ScenarioBudget) -> (count: Int, note: String?) {
        let estimate = ScenarioBudget.estimate(scenario)
        var fitting = requested
        if estimate.copies > 0 { fitting = min(fitting, budget.maximumCopies / estimate.copies) }
        if estimate.bytes > 0 { fitting = min(fitting, budget.maximumBytes / estimate.bytes) }
        let count = max(1, min(requested, fitting))
        guard count < requested else { return (requested, nil) }
        let note = "note: \(requested) runs at once would use about \(estimate.copies.grouped) "
            + "copies' worth of memory each, "
            + "over the budget of \(budget.maximumCopies.grouped) copies together; running \(count) at a time "
            + "(the report is the same; raise --max-copies to run more)"
        return (count, note)
    }

    /// The files a command reads for `scenario`, read from `path`: the scenario (or standard
    /// input, for `-`) and its sticker files. `--output` and `--junit` may name none of them.
    static func inputs(_ path: String, _ scenario: ValidatedScenario) -> [String] { [path] + scenario.stickerFiles }

    /// Reads and validates the file at `path` (`-`: standard input), then checks it against
    /// the budget.
    static func load(_ path: String, _ parsed: Arguments, apps: AppRegistry) throws -> ValidatedScenario {
        try load(path, limits: limits(parsed), budget: budget(parsed), apps: apps)
    }

    /// As `load(_:_:apps:)` with the options already read.
    static func load(_ path: String, limits: ScenarioLimits, budget: ScenarioBudget, apps: AppRegistry) throws -> ValidatedScenario {
        let scenario = try ScenarioSource.load(path, apps: apps, limits: limits)
        try budget.check(scenario.scenario)
        return scenario
    }
}
