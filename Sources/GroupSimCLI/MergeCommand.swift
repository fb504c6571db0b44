import Foundation
import GroupSim

/// `groupsim merge FILE|DIR... [--partial] [--format text|json]`: merges the JSON
/// reports of `groupsim explore --shard I/N` runs (files, or every `*.json` in a folder)
/// into the report of the whole exploration.
struct MergeCommand: Subcommand {
    static let name = "merge"
    static let summary = "merge the JSON reports of explore --shard runs (files or a folder) into one report"
    static let formats = ["text", "json", "html"]
    static let usage = "Usage: groupsim merge FILE|DIR... [--partial] [--format text|json|html] [--output PATH]"

    static let help = """
    \(usage)

    Reads the JSON reports written by `groupsim explore FILE --shard I/N --format json`
    (one per shard, in any order) and prints the report of the whole exploration: exactly
    what one `groupsim explore FILE` with the same --runs and --seed prints. A folder
    stands for every *.json file directly in it (hidden files left out), so
    `groupsim merge results/` gathers what a Kubernetes Job, a CI matrix or a Slurm array
    left there.

    Shards merge only when they are of the same scenario text (each report carries a
    fingerprint of the parsed scenario) and the same groupsim version, seed and --runs,
    and when their counts can be those of an exploration. When a shard is missing, merge
    names it and exits 2; --partial merges what is there and says which shards are
    missing, in the text and in the JSON (`shard.missing`, such as "2" or "0,2-3").

    Options:
      --partial         merge the shards that are there when some are missing
      --format F        text (default), json, or html (the page `explore --format html`
                        writes; the failing runs' reports are embedded when the scenario
                        file named in the reports can still be read)
      --output PATH     write the report to PATH instead of standard output

    Exit status: 0 every check held in every run; 1 a check failed in some run; 2 usage
    error, reports that cannot be read, are not shards of one exploration, or miss a
    shard (without --partial).

    """

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        let parsed = try Arguments(arguments, command: "merge", valued: ["format", "output"], flags: ["partial"])
        guard !parsed.positional.isEmpty else {
            throw UsageError("merge needs the JSON reports of explore --shard runs, or a folder that holds them", hint: Self.usage)
        }
        let format = try parsed.choice("format", Self.formats) ?? "text"
        var paths: [String] = []
        for path in parsed.positional { paths += try Self.reportPaths(path) }
        try OutputFile.check(parsed.value("output"), inputs: paths)
        var reports: [ExplorationReport] = []
        for path in paths {
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
            merged = try ExplorationReport.merge(reports, names: paths, partial: parsed.flag("partial"))
        } catch .missingShards(let covered, let requested) {
            let error = ExplorationError.missingShards(covered: covered, requestedRuns: requested)
            let next = covered.missing(limit: 1).first.map { "\($0)/\(covered.count)" } ?? ""
            throw UsageError("cannot merge: \(error.description)",
                             hint: "Explore each missing shard again with the same command line as the others (--shard \(next) first), or pass --partial to merge what is there.")
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

    /// The report files `path` stands for: itself, or for a folder every `*.json` file
    /// directly in it that is not hidden, sorted by name (the order does not change the
    /// merged report; it only makes messages the same on every machine).
    static func reportPaths(_ path: String) throws -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw UsageError("cannot read the folder \(path): \(error.localizedDescription)")
        }
        let folder = path.hasSuffix("/") ? path : path + "/"
        let reports = names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map { folder + $0 }.filter { file in
            var isSubfolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: file, isDirectory: &isSubfolder) && !isSubfolder.boolValue
        }
        guard !reports.isEmpty else {
            throw UsageError("the folder \(path) holds no *.json report; explore with --shard I/N --format json --output \(folder)shard-I.json")
        }
        return reports
    }
}
