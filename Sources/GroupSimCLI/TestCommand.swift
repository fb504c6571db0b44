import Foundation
import GroupSim

/// `groupsim test [PATH...] [--explore N] [--junit PATH] [--format text|github]`: runs
/// every scenario file in the given files and folders as a test, for CI.
struct TestCommand: Subcommand {
    static let name = "test"
    static let summary = "run every scenario in files and folders as tests, for CI (JUnit XML, GitHub annotations)"
    static let operands = "[PATH...]"
    static let defaultPath = "Scenarios"

    /// What `test --format` prints.
    enum Format: String, OptionChoice {
        case text, github

        var summary: String {
            switch self {
            case .text: "one line per file and a summary line"
            case .github:
                "the same, and after each failing file GitHub Actions annotations (::error file=F,line=L::...) at the line "
                    + "of each failing check, so the pull request shows them in place"
            }
        }
    }

    static let explore = Option.integer("explore", in: 1...100_000_000, default: nil, """
        also explore each file with N runs (fresh latency, jitter and race draws per run); a check that fails in any run fails
        the file
        """)
    static let seed = Option.seed("the seed of the single run (and the base seed of --explore)", default: "each file's own")
    static let junit = Option.text("junit", "PATH", """
        also write JUnit XML to PATH: one testsuite per file, one testcase per check, a failure with what was found and the
        command that replays it
        """)
    static let format = Option.choice("format", Format.self, default: .text, "what to print")
    static let options = [explore, seed, junit, format, ScenarioInput.maxCopies.explained("""
        the memory budget: a file whose run would deliver more copies, or use more memory, than N copies would is an ERROR
        with the estimate
        """), .noDeterminismCheck]

    static let about = """
    Runs every scenario file (*.yaml) in the given files and folders (folders are searched
    recursively, in name order; default \(defaultPath)/) and prints one line per file: PASS
    or FAIL, how many checks held, how many pitfalls the run reported, and the start of
    the trace digest. A summary line follows. An invalid file is an ERROR line with its
    first problem as FILE:LINE:COLUMN.

    A file whose app is registered from Swift is run twice (and the seeds its exploration
    prints, twice each): an app that gives two different runs of one seed is an ERROR line
    naming the first event where the runs parted.
    """

    static let epilogue = """
    Ctrl-C (SIGINT) or SIGTERM stops after the file in progress: the results of the files
    finished are printed, and written to --junit marked interrupted; exit 130 (143 for
    SIGTERM).

    Exit status: 0 every check of every file held; 1 a check failed; 2 usage error, an
    invalid scenario file or one over the budget, or an app that gave two different runs of
    one seed; 130 or 143 interrupted.
    """

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        try await execute(arguments, progress: .silent)
    }

    func execute(_ arguments: [String], progress: ProgressSink) async throws -> CommandResult {
        let parsed = try Self.parse(arguments)
        let runs = try parsed.integer(Self.explore, as: Int.self)
        let seed = try parsed.integer(Self.seed, as: UInt64.self)
        let format = try parsed.choice(Self.format, as: Format.self)
        let budget = try ScenarioInput.budget(parsed)
        let checksDeterminism = !parsed.flag(.noDeterminismCheck)
        let (paths, unreadable) = try Self.scenarioFiles(in: parsed.positional.isEmpty ? [Self.defaultPath] : parsed.positional)
        // The JUnit file is an output like --output: never one of the scenarios under test.
        try OutputFile.check(parsed.value(Self.junit), inputs: paths)

        // The first SIGINT or SIGTERM stops after the scenario in progress: the results
        // of the scenarios finished are printed (and written to --junit), marked interrupted.
        let (results, signal) = await Interrupts.run { () async -> [ScenarioTestResult] in
            // A folder that could not be read is an ERROR of its own, never a skipped pass.
            var results = unreadable.map { entry in
                ScenarioTestResult(path: entry.path, invalid: ScenarioError("cannot read it: \(entry.reason)", at: nil))
            }
            for path in paths {
                if Task.isCancelled { break }
                let result = await test(path, seed: seed, runs: runs, budget: budget, checksDeterminism: checksDeterminism)
                // An exploration cut short is not a finished result.
                if result.exploration?.interrupted == true { break }
                results.append(result)
            }
            return results
        }
        var output = ""
        for result in results {
            output += result.line + "\n"
            if format == .github { output += result.annotations.map { $0 + "\n" }.joined() }
        }
        var interruption: String?
        if let signal {
            let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
            interruption = "interrupted by \(name) after \(results.count - unreadable.count) of \(Plural.count(paths.count, "file"))"
            output += interruption.map { $0 + ": the results above are of those files\n" } ?? ""
        }
        output += Self.summary(results) + "\n"
        if let junit = parsed.value(Self.junit) {
            try OutputFile.write(JUnitReport.render(results, interrupted: interruption), to: junit,
                                 inputs: paths + results.flatMap(\.stickerFiles))
            output += "wrote \(junit)\n"
        }
        var status = results.contains { $0.invalid != nil } ? ExitStatus.usage : .checks(passed: results.allSatisfy(\.passed))
        if let signal { status = .interrupted(signal: signal) }
        return CommandResult(status, output: output)
    }

    /// Runs one file once (and explores it when asked), after checking it against the
    /// memory budget: a file over it is an ERROR with the estimate, as `run` refuses it.
    private func test(_ path: String, seed: UInt64?, runs: Int?, budget: ScenarioBudget,
                      checksDeterminism: Bool) async -> ScenarioTestResult {
        let scenario: ValidatedScenario
        do {
            scenario = ValidatedScenario(parsed: try ScenarioParser.load(path: path, registeredApps: apps.names))
            try budget.check(scenario.scenario)
        } catch {
            return ScenarioTestResult(path: path, invalid: error.errors.first ?? ScenarioError("invalid scenario", at: nil))
        }
        do {
            let report = try await scenario.run(seed: seed, apps: apps)
            let checked = checksDeterminism && DeterminismCheck.applies(to: scenario, apps: apps)
            if checked, let divergence = try await DeterminismCheck.compare(report.outcome, rerunning: scenario, apps: apps) {
                return ScenarioTestResult(path: path, invalid: ScenarioError(divergence.description, at: nil))
            }
            var result = ScenarioTestResult(path: path, scenario: scenario.name, seed: seed ?? scenario.seed, report: report)
            result.stickerFiles = scenario.stickerFiles
            if let runs {
                let workers = ScenarioInput.workers(ProcessInfo.processInfo.activeProcessorCount, for: scenario.scenario, budget: budget).count
                let exploration = try await Explorer(scenario, apps: apps, workers: workers).explore(runs: runs, seed: seed)
                if checked, !exploration.interrupted,
                   let divergence = try await DeterminismCheck.verify(exploration, scenario: scenario, apps: apps) {
                    return ScenarioTestResult(path: path, invalid: ScenarioError(divergence.description, at: nil))
                }
                result.exploration = exploration
            }
            return result
        } catch let error as ScenarioErrors {
            return ScenarioTestResult(path: path, invalid: error.errors.first ?? ScenarioError("invalid scenario", at: nil))
        } catch {
            return ScenarioTestResult(path: path, invalid: ScenarioError("\(error)", at: nil))
        }
    }

    /// The `.yaml` files of `paths`: files as given, folders searched recursively, each
    /// folder's files sorted by path (symbolic links to folders are not followed), and the
    /// folders that could not be read with why (`unreadable`: a folder the user may not
    /// read, a path past PATH_MAX), each a failure of its own, never skipped. A path that
    /// does not exist is a usage error.
    static func scenarioFiles(in paths: [String]) throws -> (files: [String], unreadable: [(path: String, reason: String)]) {
        var files: [String] = []
        var unreadable: [(path: String, reason: String)] = []
        for path in paths {
            var info = stat()
            guard stat(path, &info) == 0 else {
                if errno == ENOENT { throw UsageError("no such file or folder: \(path)", hint: usage) }
                unreadable.append((path, OutputFile.reason(errno)))
                continue
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                files.append(path)
                continue
            }
            var found: [String] = []
            let before = unreadable.count
            walk(path.hasSuffix("/") ? String(path.dropLast()) : path, into: &found, unreadable: &unreadable)
            if found.isEmpty, unreadable.count == before { throw UsageError("no scenario files (*.yaml) in \(path)", hint: usage) }
            files += found.sorted()
        }
        return (files, unreadable)
    }

    /// The `.yaml` files under `folder`, and the folders under it that could not be read.
    private static func walk(_ folder: String, into files: inout [String], unreadable: inout [(path: String, reason: String)]) {
        guard let directory = opendir(folder) else {
            unreadable.append((folder, OutputFile.reason(errno)))
            return
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        closedir(directory)
        for name in names.sorted() {
            let path = folder + "/" + name
            var info = stat()
            // A name lstat cannot reach (past PATH_MAX) is a folder's entry that cannot be read.
            guard lstat(path, &info) == 0 else {
                unreadable.append((path, OutputFile.reason(errno)))
                continue
            }
            if info.st_mode & S_IFMT == S_IFDIR {
                walk(path, into: &files, unreadable: &unreadable)
            } else if name.hasSuffix(".yaml") {
                // A named pipe, a socket or a device (through a link too) is never read: it would
                // wait for a writer that never comes.
                var target = stat()
                if stat(path, &target) == 0, target.st_mode & S_IFMT != S_IFREG {
                    unreadable.append((path, "it is \(BoundedFile.description(of: path) ?? "not a file"), not a scenario file"))
                } else {
                    files.append(path)
                }
            }
        }
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
