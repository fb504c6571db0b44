import Foundation
import GroupSim

/// `groupsim merge FILE... [--format text|json]`: merges the JSON reports of
/// `groupsim explore --shard I/N` runs into the report of the whole exploration.
struct MergeCommand: Subcommand {
    static let name = "merge"
    static let summary = "merge the JSON reports of explore --shard runs into one report"
    static let formats = ["text", "json", "html"]
    static let usage = "Usage: groupsim merge FILE... [--format text|json|html] [--output PATH]"

    static let help = """
    \(usage)

    Reads the JSON reports written by `groupsim explore FILE --shard I/N --format json`
    (one per shard, in any order) and prints the report of the whole exploration: exactly
    what one `groupsim explore FILE` with the same --runs and --seed prints.

    Options:
      --format F        text (default), json, or html (the page `explore --format html`
                        writes; the failing runs' reports are embedded when the scenario
                        file named in the reports can still be read)
      --output PATH     write the report to PATH instead of standard output

    Exit status: 0 every check held in every run; 1 a check failed in some run; 2 usage
    error, or reports that cannot be read or are not shards of one exploration.

    """

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        let parsed = try Arguments(arguments, command: "merge", valued: ["format", "output"], flags: [])
        guard !parsed.positional.isEmpty else {
            throw UsageError("merge needs the JSON reports of explore --shard runs", hint: Self.usage)
        }
        let format = try parsed.choice("format", Self.formats) ?? "text"
        try OutputFile.check(parsed.value("output"), inputs: parsed.positional)
        var reports: [ExplorationReport] = []
        for path in parsed.positional {
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw UsageError("cannot read \(path): \(error.localizedDescription)")
            }
            let report: ExplorationReport
            do {
                report = try ExplorationJSONReport.parse(text)
            } catch {
                throw UsageError("\(path): \(error.description)")
            }
            guard !report.interrupted else {
                throw UsageError("\(path): an interrupted exploration (\(report.runs) runs); run its shard to the end before merging")
            }
            reports.append(report)
        }
        let merged: ExplorationReport
        do {
            merged = try ExplorationReport.merge(reports)
        } catch {
            throw UsageError("cannot merge: \(error.description)")
        }
        let text: String
        switch format {
        case "json": text = ExplorationJSONReport.render(merged)
        case "html":
            let scenario = try? ScenarioParser.load(path: merged.file, registeredApps: apps.names)
            text = await ExplorationHTMLPage.render(merged, scenario: scenario, apps: apps)
        default: text = ExplorationTextReport.render(merged)
        }
        let status: Int32 = merged.passed ? 0 : 1
        if let output = parsed.value("output") {
            try OutputFile.write(text, to: output, inputs: parsed.positional)
            return CommandResult(status: status, output: "wrote \(output); \(merged.failedRuns) of \(merged.runs) runs failed a check\n")
        }
        return CommandResult(status: status, output: text)
    }
}
