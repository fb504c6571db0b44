import Foundation
import GroupSim

/// `groupsim merge FILE|DIR... [--partial] [--format text|json|html]`: merges the JSON
/// reports of `groupsim explore --shard I/N` runs (files, or every `*.json` in a folder)
/// into the report of the whole exploration.
struct MergeCommand: Subcommand {
    static let name = "merge"
    static let summary = "merge the JSON reports of explore --shard runs (files or a folder) into one report"
    static let operands = "FILE|DIR..."

    static let partial = Option.flag("partial", "merge the shards that are there when some are missing")
    static let format = Option.choice("format", ExploreCommand.Format.self, default: .text, """
        what to print, as `explore` prints it (the html page embeds the failing runs' reports when the scenario file named
        in the reports can still be read)
        """)
    static let options = [partial, format, Option.output.explained("write the report to PATH instead of standard output")]

    static let about = """
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
    """

    static let epilogue = """
    Exit status: 0 every check held in every run; 1 a check failed in some run; 2 usage
    error, reports that cannot be read, are not shards of one exploration, or miss a
    shard (without --partial).
    """

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        let parsed = try Self.parse(arguments)
        guard !parsed.positional.isEmpty else {
            throw UsageError("merge needs the JSON reports of explore --shard runs, or a folder that holds them", hint: Self.usage)
        }
        let format = try parsed.choice(Self.format, as: ExploreCommand.Format.self)
        var paths: [String] = []
        for path in parsed.positional { paths += try Self.reportPaths(path) }
        var inputs = paths
        var warnings = ""
        try OutputFile.check(parsed.value(.output), inputs: inputs)
        var reports: [ExplorationReport] = []
        for path in paths {
            let report: ExplorationReport
            do {
                report = try ExplorationJSONReport.parse(try Self.reportBytes(path))
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
            merged = try ExplorationReport.merge(reports, names: paths, partial: parsed.flag(Self.partial))
        } catch .missingShards(let covered, let requested) {
            let error = ExplorationError.missingShards(covered: covered, requestedRuns: requested)
            let next = covered.missing(limit: 1).first.map { "\($0)/\(covered.count)" } ?? ""
            throw UsageError("cannot merge: \(error.description)",
                             hint: "Explore each missing shard again with the same command line as the others (--shard \(next) first), "
                                + "or pass --partial to merge what is there.")
        } catch {
            throw UsageError("cannot merge: \(error.description)")
        }
        let text: String
        switch format {
        case .json: text = ExplorationJSONReport.render(merged)
        case .html:
            // The page reads the scenario file too, to replay the failing runs: it is an input.
            inputs.append(merged.file)
            try OutputFile.check(parsed.value(.output), inputs: inputs)
            let (scenario, note) = Self.exploredScenario(merged, apps: apps)
            if let note { warnings += note }
            // Its sticker files too, which the replays read.
            if let scenario {
                inputs += scenario.stickerFiles
                try OutputFile.check(parsed.value(.output), inputs: inputs)
            }
            text = await ExplorationHTMLPage.render(merged, scenario: scenario, apps: apps)
        case .text: text = ExplorationTextReport.render(merged)
        }
        let status = ExitStatus.checks(passed: merged.passed)
        if let output = parsed.value(.output) {
            try OutputFile.write(text, to: output, inputs: inputs)
            let summary = "wrote \(output); \(merged.failedRuns) of \(merged.runs) runs failed a check\n"
            return CommandResult(status, output: summary, error: warnings)
        }
        return CommandResult(status, output: text, error: warnings)
    }

    /// The largest report read: far more than any exploration writes.
    static let reportLimit = 256 * 1_048_576

    /// The bytes of the report at `path`, or why it is not one: what the path is when it
    /// is not a file (`/dev/null` is a character device). A named pipe is read as `cat`
    /// reads it, waiting for its writer.
    static func reportBytes(_ path: String) throws(ExplorationError) -> [UInt8] {
        if let what = BoundedFile.description(of: path), what != "a file", what != "a named pipe (FIFO)" {
            throw .invalidReport("it is \(what), not a report file")
        }
        let bytes: [UInt8]
        switch BoundedFile.read(path, limit: reportLimit, allowSpecial: true) {
        case .success(let read): bytes = read
        case .failure(.notFound): throw .invalidReport("no such file")
        case .failure(.notAFile): throw .invalidReport("it is \(BoundedFile.description(of: path) ?? "not a file"), not a report file")
        case .failure(.tooLarge):
            throw .invalidReport("larger than \(reportLimit / 1_048_576) MiB, far more than any exploration report; not a report")
        case .failure(.unreadable):
            throw .invalidReport(access(path, R_OK) == 0 ? "the file could not be read" : "permission denied")
        }
        guard !bytes.isEmpty else {
            let what = BoundedFile.description(of: path).map { $0 == "a file" ? "" : " (\($0))" } ?? ""
            throw .invalidReport("the file is empty\(what); not a report")
        }
        return bytes
    }

    /// The scenario of the reports, re-read from the file they name, for the page's
    /// replays; nil, with a note for standard error, when the file cannot be read or is
    /// no longer the scenario the reports explored (its fingerprint differs).
    static func exploredScenario(_ report: ExplorationReport, apps: AppRegistry) -> (Scenario?, String?) {
        guard report.failedRuns > 0, case .random = report.mode else { return (nil, nil) }
        let leftOut = "the page leaves out the failing runs' reports"
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.load(path: report.file, registeredApps: apps.names)
        } catch {
            return (nil, "note: \(leftOut): the scenario file \(report.file) cannot be read as a scenario "
                    + "(\(error.errors.first?.message ?? "invalid"))\n")
        }
        guard scenario.fingerprint == report.fingerprint else {
            return (nil, "note: \(leftOut): \(report.file) is no longer the scenario the reports explored "
                    + "(fingerprint \(scenario.fingerprint), the reports' \(report.fingerprint))\n")
        }
        return (scenario, nil)
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
            throw UsageError("the folder \(path) holds no *.json report; "
                             + "explore with --shard I/N --format json --output \(ShellWord.quote(folder + "shard-I.json"))")
        }
        return reports
    }
}
