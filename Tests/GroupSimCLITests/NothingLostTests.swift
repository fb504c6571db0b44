import Foundation
import GroupSimTesting
import Testing
import GroupSim
import GroupSimCLI

/// Output safety, interrupts, the memory budget and merge, as the built `groupsim` does
/// them as a process: an output that is an input by another road, files the user may not
/// write, signals with several workers and signals that come twice, `test` cut short, the
/// budget of `test`, `bench` and workers together, and reports merge refuses. Each test
/// works in a temporary folder of its own and removes it.
@Suite struct NothingLostTests {
    static let window = CLI.path("Scenarios/pickles-race-window.yaml")
    static let pickles = CLI.path("Scenarios/pickles-race.yaml")

    /// A folder for one test, with a copy of the pickles race as `S.yaml`.
    static func folder() throws -> URL {
        let folder = try TemporaryFolder.create("nothing-lost")
        try FileManager.default.copyItem(atPath: pickles, toPath: folder.appendingPathComponent("S.yaml").path)
        return folder
    }

    static func text(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

    /// Runs `groupsim ARGUMENTS` from a shell that sends it SIGINT `seconds` after it
    /// starts catching the signal: the tool replaces the shell (`exec`), so it is the
    /// signalled process, and a background copy of the shell watches its SigCgt mask on
    /// Linux (elsewhere it waits 2 seconds more instead). A sleep in this test process
    /// could wake minutes late while the suite keeps the thread pool busy, and let the
    /// tool run on meanwhile.
    static func interrupted(_ arguments: String, after seconds: Int, in folder: URL) async throws -> ProcessRunner.Result {
        let catching = "sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$$/status 2>/dev/null | tail -c 2"
        let waiting = "for i in $(seq 1 600); do case $(\(catching)) in [2367abefABEF]*) break;; esac; "
            + "[ -r /proc/$$/status ] || { sleep 2; break; }; sleep 0.05; done"
        return try await ProcessRunner.sh("(\(waiting); sleep \(seconds); kill -INT $$) & exec groupsim \(arguments)", in: folder)
    }

    /// A valid scenario of `people` people with a device each, everyone sending `sends`
    /// texts: `people × (people - 1) × sends` copies.
    static func crowd(people: Int, sends: Int, jitter: Bool = true) -> String {
        var lines = ["name: crowd", "seed: 1", "people:"]
        for index in 0..<people { lines.append("  p\(index): [d\(index)]") }
        lines += ["network:", "  latency: 300ms", "  jitter: \(jitter ? "700ms" : "0ms")", "steps:"]
        var time = 0
        for round in 0..<sends {
            for index in 0..<people {
                lines.append("  - { at: \(time)ms, device: d\(index), text: \"hi \(round)\" }")
                time += 1
            }
        }
        lines += ["expect:", "  - no-pitfalls: true"]
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: An output that is an input by another road

    /// `run - --output S.yaml < S.yaml` (and `explore -`, `shrink -`): standard input is
    /// the output's file, by device and inode; refused, the scenario left as it was.
    @Test(arguments: ["run", "explore", "shrink"])
    func standardInputIsNotOverwritten(command: String) async throws {
        let folder = try Self.folder()
        defer { TemporaryFolder.remove(folder) }
        let scenario = folder.appendingPathComponent("S.yaml")
        let before = Self.text(scenario)
        let ended = try await BuiltTool.run([command, "-", "--output", "S.yaml"], in: folder, input: scenario)
        #expect(ended.status == 2, "\(ended.error)")
        #expect(ended.error.contains("the output would overwrite the scenario on standard input (S.yaml is the file it reads)"),
            "\(ended.error)")
        #expect(Self.text(scenario) == before)
    }

    /// `test S.yaml --junit S.yaml`: the JUnit file is checked against the scenarios as
    /// `--output` is.
    @Test func junitIsNotWrittenOverAScenario() async throws {
        let folder = try Self.folder()
        defer { TemporaryFolder.remove(folder) }
        let scenario = folder.appendingPathComponent("S.yaml")
        let before = Self.text(scenario)
        let ended = try await BuiltTool.run(["test", "S.yaml", "--junit", "./S.yaml"], in: folder)
        #expect(ended.status == 2, "\(ended.error)")
        #expect(ended.error.contains("the output would overwrite the input S.yaml"), "\(ended.error)")
        #expect(Self.text(scenario) == before)
        let folderRun = try await BuiltTool.run(["test", ".", "--junit", "S.yaml"], in: folder)
        #expect(folderRun.status == 2 && Self.text(scenario) == before, "\(folderRun.error)")
    }

    /// Shards of the window race, explored from `W.yaml` in `folder`, as `shard-I.json`.
    static func shards(in folder: URL, scenario: String = "W.yaml", runs: Int = 300) async throws {
        for index in 0..<2 {
            let ended = try await BuiltTool.run(["explore", scenario, "--runs", String(runs), "--shard", "\(index)/2", "--format", "json",
                                                 "--output", "shard-\(index).json", "--quiet"], in: folder)
            #expect(ended.status <= 1, "\(ended.error)")
        }
    }

    /// `merge --format html --output W.yaml`: the page reads the scenario the reports name,
    /// so that file is an input too.
    @Test func mergeDoesNotOverwriteTheScenarioItReads() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        try FileManager.default.copyItem(atPath: Self.window, toPath: folder.appendingPathComponent("W.yaml").path)
        try await Self.shards(in: folder)
        let before = Self.text(folder.appendingPathComponent("W.yaml"))
        let ended = try await BuiltTool.run(["merge", "shard-0.json", "shard-1.json", "--format", "html", "--output", "W.yaml"], in: folder)
        #expect(ended.status == 2, "\(ended.error)")
        #expect(ended.error.contains("the output would overwrite the input W.yaml"), "\(ended.error)")
        #expect(Self.text(folder.appendingPathComponent("W.yaml")) == before)
    }

    /// A file of mode 0444, owned by the user in a folder it may write, is refused as the
    /// shell's `>` refuses it. Root may write any file (and `>` writes it), so the test
    /// means nothing as root and is skipped there; `aFolderThatForbidsNewFiles` is the
    /// variant that holds for root too.
    @Test(.disabled(if: geteuid() == 0, "root may write a file of mode 0444, as the shell's > does"))
    func aReadOnlyFileIsRefused() async throws {
        let folder = try Self.folder()
        defer { TemporaryFolder.remove(folder) }
        let target = folder.appendingPathComponent("report.txt")
        try Data("keep me\n".utf8).write(to: target)
        #expect(chmod(target.path, 0o444) == 0)
        let ended = try await BuiltTool.run(["run", "S.yaml", "--output", "report.txt"], in: folder)
        #expect(ended.status == 2)
        #expect(ended.error.contains("cannot write report.txt: Permission denied"), "\(ended.error)")
        #expect(Self.text(target) == "keep me\n")
    }

    /// A file the user may write in a folder that forbids new files (so no temporary file
    /// can be renamed over it) is written in place, as `>` writes it; for root, whom the
    /// folder does not stop, it is replaced: either way the file holds the whole report.
    @Test func aFolderThatForbidsNewFiles() async throws {
        let folder = try Self.folder()
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
        let target = locked.appendingPathComponent("report.txt")
        try Data("old\n".utf8).write(to: target)
        #expect(chmod(locked.path, 0o555) == 0)
        defer {
            _ = chmod(locked.path, 0o755)
            TemporaryFolder.remove(folder)
        }
        let ended = try await BuiltTool.run(["run", "S.yaml", "--output", "locked/report.txt"], in: folder)
        #expect(ended.status == 0, "\(ended.error)")
        let written = Self.text(target)
        #expect(written.hasPrefix("pickles-race") && written.contains("\ntrace: "), "\(written.prefix(200))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked.path) == ["report.txt"])
    }

    // MARK: Interrupts

    /// With two workers and runs of about a second each, SIGINT stops both workers at
    /// once: a run in progress finishes, no run starts. A worker used to finish its batch
    /// of 64 runs first. A shell sends the signal 3 seconds after the tool starts catching
    /// it (`interrupted(_:after:in:)`).
    @Test func everyWorkerStopsStartingRunsAtOnce() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        try Data(Self.crowd(people: 200, sends: 3).utf8).write(to: folder.appendingPathComponent("crowd.yaml"))
        let ended = try await Self.interrupted("explore crowd.yaml --runs 100000 --workers 2", after: 3, in: folder)
        #expect(ended.status == 130, "status \(ended.status): \(ended.error)")
        let line = try #require(ended.output.split(separator: "\n").first { $0.hasPrefix("interrupted after ") },
            "\(ended.output.prefix(300))")
        let done = try #require(Int(line.dropFirst("interrupted after ".count).prefix { $0 != " " }
            .replacingOccurrences(of: ",", with: "")))
        #expect(done < 64, "\(line)")
    }

    /// GNU `timeout` signals the process and then its process group: two signals less than
    /// a millisecond apart. The second is a copy, not a second Ctrl-C, so the interrupted
    /// report is printed every time. (The test sends the two signals itself: `timeout`
    /// 9.1 sometimes waits on after its child has ended, which would hang the test.)
    @Test func aSignalThatComesTwiceIsOneInterrupt() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        for _ in 0..<5 {
            let running = try BuiltTool.Running(["explore", Self.window, "--runs", "100000000"], in: folder,
                                                launcher: BuiltTool.lowPriority)
            await running.sendOnceCaught(SIGINT, after: 0.3, again: 0)
            let ended = await running.wait(limit: 120)
            #expect(!ended.bySignal && ended.status == 130, "status \(ended.status), by signal: \(ended.bySignal)")
            #expect(ended.output.contains(" of 100,000,000 runs: the counts below are of those runs"), "\(ended.output.prefix(300))")
        }
    }

    /// An interrupted `explore --format html` page says so, as the text and JSON do.
    @Test func anInterruptedPageSaysSo() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let running = try BuiltTool.Running(["explore", Self.window, "--runs", "100000000", "--format", "html", "--output", "page.html"],
            in: folder, launcher: BuiltTool.lowPriority)
        await running.sendOnceCaught(SIGINT, after: 1)
        let ended = await running.wait()
        #expect(ended.status == 130, "\(ended.error)")
        let page = Self.text(folder.appendingPathComponent("page.html"))
        #expect(page.contains("interrupted after "), "\(page.prefix(500))")
        #expect(page.contains(" of 100,000,000 runs: the counts below are of those runs"))
    }

    /// `test` on a folder, interrupted: the files it finished are printed, and --junit is
    /// written with them and an error saying it was interrupted. A shell sends the signal
    /// 3 seconds after the tool starts catching it, long before the 81 files are done.
    /// The tool used to hash every finished file's trace only once interrupted, to print
    /// it: minutes under the suite's load, although it stopped running files at once.
    @Test func anInterruptedTestKeepsTheFilesItFinished() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let scenarios = folder.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.pickles, toPath: scenarios.appendingPathComponent("a-pickles.yaml").path)
        let crowd = Self.crowd(people: 60, sends: 3)
        for index in 0..<80 {
            try Data(crowd.utf8).write(to: scenarios.appendingPathComponent("crowd-\(index).yaml"))
        }
        let ended = try await Self.interrupted("test scenarios --junit junit.xml", after: 3, in: folder)
        #expect(ended.status == 130, "status \(ended.status): \(ended.error)")
        let line = try #require(ended.output.split(separator: "\n").first { $0.hasPrefix("interrupted by SIGINT after ") },
            "\(ended.output)")
        #expect(line.hasSuffix(" of 81 files: the results above are of those files"))
        #expect(ended.output.contains("PASS  scenarios/a-pickles.yaml") || ended.output.contains("FAIL  scenarios/a-pickles.yaml"),
            "\(ended.output)")
        let junit = Self.text(folder.appendingPathComponent("junit.xml"))
        #expect(junit.contains("<testsuite name=\"interrupted\" tests=\"0\" failures=\"0\" errors=\"1\">"), "\(junit)")
        #expect(junit.contains("file=\"scenarios/a-pickles.yaml\""))
        #expect(ended.output.contains("wrote junit.xml"))
    }

    // MARK: The memory budget everywhere

    /// `test` and `bench --scenario` refuse a scenario over the budget with the estimate,
    /// exit 2, before any run: 2,000 people × 5 sends is 19,990,000 copies.
    @Test func testAndBenchCheckTheBudget() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        try Data(Self.crowd(people: 2_000, sends: 5).utf8).write(to: folder.appendingPathComponent("huge.yaml"))
        for arguments in [["test", "huge.yaml"], ["bench", "--quick", "--scenario", "huge.yaml"]] {
            let ended = try await BuiltTool.run(arguments, in: folder)
            #expect(!ended.bySignal && ended.status == 2, "\(arguments): \(ended.status) \(ended.error)")
            let all = ended.output + ended.error
            #expect(all.contains("the scenario is too large to run: about 19,990,000 copies to deliver to 2,000 devices"),
                "\(arguments): \(all)")
            #expect(!all.contains("Fatal error"))
        }
    }

    /// With more than one worker, the budget covers the runs in flight together: when two
    /// would go over it, one runs at a time, a note says so, and the report is the same.
    @Test func workersTogetherStayWithinTheBudget() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let scenario = try ScenarioParser.load(path: Self.window)
        let estimate = ScenarioBudget.estimate(scenario)
        let oneRun = max(estimate.copies, (estimate.bytes + ScenarioBudget.bytesPerCopy - 1) / ScenarioBudget.bytesPerCopy)
        let arguments = ["explore", Self.window, "--runs", "50", "--max-copies", String(oneRun)]
        let two = try await BuiltTool.run(arguments + ["--workers", "2"], in: folder)
        #expect(two.status <= 1, "\(two.error)")
        #expect(two.error.contains("running 1 at a time (the report is the same; raise --max-copies to run more)"), "\(two.error)")
        let one = try await BuiltTool.run(arguments + ["--workers", "1"], in: folder)
        #expect(one.error.isEmpty, "\(one.error)")
        #expect(one.output == two.output)
    }

    // MARK: Merge

    /// One shard's failedRuns raised by one, past what its checks account for: refused.
    @Test func mergeRefusesFailedRunsItsChecksDoNotExplain() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        // One check: every failed run is a run that failed it.
        let text = try String(contentsOfFile: Self.window, encoding: .utf8)
            .replacingOccurrences(of: "  - complete: { session: poll, data: { q: topping, bob: tomatoes, carol: pickles } }\n", with: "")
        try Data(text.utf8).write(to: folder.appendingPathComponent("W.yaml"))
        try await Self.shards(in: folder)
        let shard = folder.appendingPathComponent("shard-1.json")
        var report = try ExplorationJSONReport.parse(Self.text(shard))
        #expect(report.checks.count == 1 && report.failedRuns > ExactCount(ExplorationReport.failureSampleLimit), "\(report.failedRuns)")
        report.failedRuns += 1
        try Data(ExplorationJSONReport.render(report).utf8).write(to: shard)
        let ended = try await BuiltTool.run(["merge", "shard-0.json", "shard-1.json"], in: folder)
        #expect(ended.status == 2)
        #expect(ended.error.contains("shard 1/2: \(report.failedRuns) failed runs, but its checks and unexpected failures account for " +
            "at most \(report.failedRuns - 1)"),
                "\(ended.error)")
    }

    /// `merge --format html` after the scenario file changed: the failing runs are left
    /// out, with a note saying why, instead of timelines of another scenario.
    @Test func mergeChecksTheScenarioItReplays() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let file = folder.appendingPathComponent("W.yaml")
        try FileManager.default.copyItem(atPath: Self.window, toPath: file.path)
        try await Self.shards(in: folder)
        let same = try await BuiltTool.run(["merge", ".", "--format", "html", "--output", "same.html"], in: folder)
        #expect(same.status == 1 && same.error.isEmpty, "\(same.error)")
        #expect(Self.text(folder.appendingPathComponent("same.html")).contains("carol-phone"))
        let edited = Self.text(file).replacingOccurrences(of: "carol", with: "dave")
        try Data(edited.utf8).write(to: file)
        let ended = try await BuiltTool.run(["merge", "shard-0.json", "shard-1.json", "--format", "html", "--output", "page.html"],
            in: folder)
        #expect(ended.status == 1)
        #expect(ended.error.contains("note: the page leaves out the failing runs' reports: W.yaml is no longer the scenario the " +
            "reports explored"),
                "\(ended.error)")
        #expect(!Self.text(folder.appendingPathComponent("page.html")).contains("dave"))
    }

    /// `/dev/null`, a named pipe and random bytes: merge says what the file is and where
    /// it stops being JSON.
    @Test func mergeSaysWhatAFileThatIsNotAReportIs() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let null = try await BuiltTool.run(["merge", "/dev/null"], in: folder)
        #expect(null.status == 2)
        #expect(null.error.contains("groupsim: error: /dev/null: it is a character device, not a report file"), "\(null.error)")

        try Data([0x7B, 0x0A, 0x20, 0xFF, 0xFE, 0x00]).write(to: folder.appendingPathComponent("bytes.json"))
        let bytes = try await BuiltTool.run(["merge", "bytes.json"], in: folder)
        #expect(bytes.error.contains("bytes.json: not JSON: 2:2: bytes that are not UTF-8 text"), "\(bytes.error)")
        try Data("{\"format\": \n  [1, 2,, 3]\n}".utf8).write(to: folder.appendingPathComponent("broken.json"))
        let broken = try await BuiltTool.run(["merge", "broken.json"], in: folder)
        #expect(broken.error.contains("broken.json: not JSON: 2:9: expected a JSON value"), "\(broken.error)")

        #expect(mkfifo(folder.appendingPathComponent("pipe.json").path, 0o600) == 0)
        let script = "\"$GROUPSIM\" merge pipe.json & sleep 1; printf 'garbage' > pipe.json; wait $!"
        let tool = try ProcessRunner.builtTool()
        let pipe = try await ProcessRunner.sh(script, in: folder, environment: ["GROUPSIM": tool.path])
        #expect(pipe.status == 2)
        #expect(pipe.error.contains("pipe.json: not JSON: 1:1: expected a JSON value"), "\(pipe.error)")
    }

    // MARK: Smaller

    /// A scenario named by a named pipe whose writer comes later is read once it comes,
    /// as `cat` reads it, not taken for an empty file.
    @Test func aNamedPipeIsWaitedFor() async throws {
        let folder = try Self.folder()
        defer { TemporaryFolder.remove(folder) }
        #expect(mkfifo(folder.appendingPathComponent("pipe.yaml").path, 0o600) == 0)
        let tool = try ProcessRunner.builtTool()
        let ended = try await ProcessRunner.sh("\"$GROUPSIM\" check pipe.yaml & sleep 1; cat S.yaml > pipe.yaml; wait $!",
                                               in: folder, environment: ["GROUPSIM": tool.path])
        #expect(ended.status == 0, "\(ended.error)")
        #expect(ended.output.hasPrefix("pipe.yaml: ok (pickles-race: 4 devices"), "\(ended.output)")
    }

    /// Standard input over the limit is refused in the words used for a file.
    @Test func theStandardInputLimitReadsAsTheFileLimit() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let limit = ScenarioLimits.default.maximumFileBytes
        let big = folder.appendingPathComponent("big.yaml")
        try Data(repeating: UInt8(ascii: "#"), count: limit + 1).write(to: big)
        let fromInput = try await BuiltTool.run(["check", "-"], in: folder, input: big)
        let fromFile = try await BuiltTool.run(["check", "big.yaml"], in: folder)
        let words = "the file is larger than the limit of 64 MiB (67108864 bytes) for a scenario"
        #expect(fromInput.status == 2 && fromInput.error.contains("<stdin>:1:1: error: \(words)"), "\(fromInput.error)")
        #expect(fromFile.error.contains("big.yaml:1:1: error: \(words)"), "\(fromFile.error)")
    }

    /// A run with thousands of failing steps: explore's line naming the first failing run
    /// lists 20 and counts the rest.
    @Test func thousandsOfFailingStepsStayReadable() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        var lines = ["name: fails", "seed: 1", "people:", "  alice: [alice-phone]", "  bob: [bob-phone]", "network:", "  latency: 10s",
            "steps:",
                     "  - { at: 0ms, device: alice-phone, send: { session: poll, caption: q, data: { q: x } } }"]
        for index in 1...3_000 { lines.append("  - { at: \(index)ms, device: bob-phone, reply: { session: poll, data: { b: x } } }") }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("fails.yaml"))
        let ended = try await BuiltTool.run(["explore", "fails.yaml", "--runs", "2", "--quiet"], in: folder)
        #expect(ended.status == 1, "\(ended.error)")
        let first = try #require(ended.output.split(separator: "\n").first { $0.hasPrefix("first failing run: ") })
        #expect(first.hasSuffix("step 21 on bob-phone failed unexpectedly: noBubble; and 2,980 more"), "\(first.suffix(200))")
        #expect(ended.output.split(separator: "\n").allSatisfy { $0.count < 2_000 })
    }
}
