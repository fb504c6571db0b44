import Foundation
import GroupSim

/// `groupsim test [PATH...] [--explore N] [--junit PATH] [--format text|github]`: runs
/// every scenario file in the given files and folders as a test, for CI.
struct TestCommand: Subcommand {
    static let name = "test"
    static let summary = "run every scenario in files and folders as tests, for CI (JUnit XML, GitHub annotations)"
    static let formats = ["text", "github"]
    static let defaultPath = "Scenarios"
    static let usage = "Usage: groupsim test [PATH...] [--explore N] [--seed N] [--junit PATH] [--format text|github]"

    static let help = """
    \(usage)

    Runs every scenario file (*.yaml) in the given files and folders (folders are searched
    recursively, in name order; default \(defaultPath)/) and prints one line per file: PASS
    or FAIL, how many checks held, how many pitfalls the run reported, and the start of
    the trace digest. A summary line follows. An invalid file is an ERROR line with its
    first problem as FILE:LINE:COLUMN.

    Options:
      --explore N       also explore each file with N runs (fresh latency, jitter and race
                        draws per run); a check that fails in any run fails the file
      --seed N          the seed of the single run (and the base seed of --explore);
                        default each file's own
      --junit PATH      also write JUnit XML to PATH: one testsuite per file, one testcase
                        per check, a failure with what was found and the command that
                        replays it
      --format F        text (default) or github: after each failing file, print GitHub
                        Actions annotations (::error file=F,line=L::...) at the line of each
                        failing check, so the pull request shows them in place

    Exit status: 0 every check of every file held; 1 a check failed; 2 usage error or an
    invalid scenario file.

    """

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        try await execute(arguments, progress: .silent)
    }

    func execute(_ arguments: [String], progress: ProgressSink) async throws -> CommandResult {
        let parsed = try Arguments(arguments, command: Self.name, valued: ["explore", "seed", "junit", "format"], flags: [])
        let runs = try parsed.integer("explore", Int.self, in: 1...100_000_000)
        let seed = try parsed.integer("seed", UInt64.self, in: 0...UInt64.max)
        let format = try parsed.choice("format", Self.formats) ?? "text"
        let paths = try Self.scenarioFiles(in: parsed.positional.isEmpty ? [Self.defaultPath] : parsed.positional)

        var results: [ScenarioTestResult] = []
        for path in paths {
            results.append(await test(path, seed: seed, runs: runs))
        }
        var output = ""
        for result in results {
            output += result.line + "\n"
            if format == "github" { output += result.annotations.map { $0 + "\n" }.joined() }
        }
        output += Self.summary(results) + "\n"
        if let junit = parsed.value("junit") {
            try OutputFile.write(JUnitReport.render(results), to: junit)
            output += "wrote \(junit)\n"
        }
        let status: Int32 = results.contains { $0.invalid != nil } ? 2 : results.allSatisfy(\.passed) ? 0 : 1
        return CommandResult(status: status, output: output)
    }

    /// Runs one file once (and explores it when asked).
    private func test(_ path: String, seed: UInt64?, runs: Int?) async -> ScenarioTestResult {
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.load(path: path, registeredApps: apps.names)
        } catch {
            return ScenarioTestResult(path: path, invalid: error.errors.first ?? ScenarioError("invalid scenario", at: nil))
        }
        do {
            let report = try await scenario.run(seed: seed, apps: apps)
            var result = ScenarioTestResult(path: path, scenario: scenario.name, seed: seed ?? scenario.seed, report: report)
            if let runs {
                let workers = ProcessInfo.processInfo.activeProcessorCount
                result.exploration = try await Explorer(scenario: scenario, apps: apps, workers: workers).explore(runs: runs, seed: seed)
            }
            return result
        } catch let error as ScenarioErrors {
            return ScenarioTestResult(path: path, invalid: error.errors.first ?? ScenarioError("invalid scenario", at: nil))
        } catch {
            return ScenarioTestResult(path: path, invalid: ScenarioError("\(error)", at: nil))
        }
    }

    /// The `.yaml` files of `paths`: files as given, folders searched recursively, each
    /// folder's files in name order. A path that does not exist is a usage error.
    static func scenarioFiles(in paths: [String]) throws -> [String] {
        let manager = FileManager.default
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw UsageError("no such file or folder: \(path)", hint: usage)
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let found = (manager.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".yaml") }
                .sorted()
            if found.isEmpty { throw UsageError("no scenario files (*.yaml) in \(path)", hint: usage) }
            let base = path.hasSuffix("/") ? path : path + "/"
            files += found.map { base + $0 }
        }
        return files
    }

    /// `12 files: 11 passed, 1 failed; 80 of 81 checks held; 27 pitfalls`.
    static func summary(_ results: [ScenarioTestResult]) -> String {
        let passed = results.filter(\.passed).count
        let invalid = results.filter { $0.invalid != nil }.count
        let failed = results.count - passed - invalid
        let checks = results.reduce(0) { $0 + ($1.report?.checks.count ?? 0) }
        let held = results.reduce(0) { $0 + $1.checksHeld }
        let pitfalls = results.reduce(0) { $0 + ($1.report?.pitfalls.count ?? 0) }
        var parts = ["\(Plural.count(results.count, "file")): \(passed) passed, \(failed) failed"]
        if invalid > 0 { parts[0] += ", \(invalid) invalid" }
        parts.append("\(held) of \(Plural.count(checks, "check")) held")
        parts.append(Plural.count(pitfalls, "pitfall"))
        return parts.joined(separator: "; ")
    }
}
