import Foundation
import GroupSimTesting
import Testing
import GroupSim
import GroupSimCLI

/// What the built `groupsim` does as a process: failed writes, closed pipes, standard input, the scenarios it ships with, and
/// interrupts. Each test runs it from a temporary folder of its own.
@Suite struct ProcessTests {
    static let pickles = CLI.path("Scenarios/pickles-race.yaml")
    static let window = CLI.path("Scenarios/pickles-race-window.yaml")

    // MARK: Writes that fail

    /// Standard output that cannot be written: exit 2 with a message, not a crash.
    @Test func aStandardOutputThatCannotBeWrittenExitsTwo() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        // A file opened for reading only, as standard output: every write fails.
        let readOnly = folder.appendingPathComponent("read-only.txt")
        try Data().write(to: readOnly)
        let ended = try await BuiltTool.run(["run", Self.pickles], in: folder, output: try FileHandle(forReadingFrom: readOnly))
        #expect(!ended.bySignal, "ended by signal \(ended.status): \(ended.error)")
        #expect(ended.status == 2)
        #expect(ended.error.hasPrefix("groupsim: error: cannot write to standard output: "), "\(ended.error)")
        #expect(!ended.error.contains("Fatal error"))
    }

    /// `groupsim explore ... | head -1`: the reader is gone; the process ends quietly, by
    /// SIGPIPE as any program does, with nothing on standard error.
    @Test func aClosedPipeEndsQuietly() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let pipe = Pipe()
        // The reading end is closed before the process starts: its first write finds no reader.
        try pipe.fileHandleForReading.close()
        let ended = try await BuiltTool.run(["run", Self.pickles, "--format", "html"], in: folder, output: pipe.fileHandleForWriting)
        try? pipe.fileHandleForWriting.close()
        #expect(ended.bySignal && ended.status == SIGPIPE, "status \(ended.status), by signal: \(ended.bySignal)")
        #expect(ended.error.isEmpty, "\(ended.error)")
    }

    // MARK: Standard input

    @Test func runCheckAndExploreReadStandardInput() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let input = URL(fileURLWithPath: Self.pickles)
        let run = try await BuiltTool.run(["run", "-"], in: folder, input: input)
        #expect(run.status == 0, "\(run.error)")
        let fromFile = await CLI.run(["run", Self.pickles])
        #expect(run.output == fromFile.output)
        let check = try await BuiltTool.run(["check", "-"], in: folder, input: input)
        #expect(check.status == 0)
        #expect(check.output.hasPrefix("<stdin>: ok (pickles-race: 4 devices"), "\(check.output)")
        let explore = try await BuiltTool.run(["explore", "-", "--runs", "20"], in: folder, input: input)
        #expect(explore.output == (await CLI.run(["explore", Self.pickles, "--runs", "20"])).output)
        let window = try await BuiltTool.run(["explore", "-", "--runs", "20"], in: folder, input: URL(fileURLWithPath: Self.window))
        #expect(window.output.contains("replay: groupsim run - --seed "), "\(window.output)")
    }

    @Test func messagesNameStandardInput() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let bad = folder.appendingPathComponent("bad.yaml")
        try Data("name: x\npeople: { alice: [alice-phone] }\nsteps: []\nfoo: 1\n".utf8).write(to: bad)
        let ended = try await BuiltTool.run(["check", "-"], in: folder, input: bad)
        #expect(ended.status == 2)
        #expect(ended.error.hasPrefix("<stdin>:4:1: error: unknown key \"foo\""), "\(ended.error)")
    }

    /// A file a scenario on standard input names by a relative path is taken from the
    /// working folder: the sticker of step 6 (`assets/pickle.png`) loads in a folder that
    /// holds it, and is missing in one that does not.
    @Test func relativePathsInStandardInputResolveFromTheWorkingFolder() async throws {
        let input = URL(fileURLWithPath: CLI.path("Scenarios/stickers.yaml"))
        let withAssets = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(withAssets) }
        try FileManager.default.createDirectory(at: withAssets.appendingPathComponent("assets"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.path("Scenarios/assets/pickle.png"),
            toPath: withAssets.appendingPathComponent("assets/pickle.png").path)
        let found = try await BuiltTool.run(["run", "-"], in: withAssets, input: input)
        #expect(found.output.contains("  500ms  bob-phone    sent m2"), "\(found.output)")
        #expect(!found.output.contains("failed step=6"))
        let empty = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(empty) }
        let elsewhere = try await BuiltTool.run(["run", "-"], in: empty, input: input)
        #expect(elsewhere.output.contains("failed step=6 fileNotFound"))
    }

    // MARK: The scenarios the tool ships with

    @Test func benchWorksFromAnyFolder() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let ended = try await BuiltTool.run(["bench", "--quick"], in: folder)
        #expect(ended.status == 0, "\(ended.error)")
        #expect(ended.output.contains("(b) runs of pickles-race.yaml: 20 in "), "\(ended.output)")
    }

    @Test func lessonsWorkFromAnyFolder() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let list = try await BuiltTool.run(["lessons"], in: folder)
        #expect(list.status == 0, "\(list.error)")
        for lesson in Lesson.all {
            #expect(list.output.contains(". \(lesson.name) "), "\(lesson.name)")
        }
        #expect(!list.output.contains("missing"))
        #expect(list.output.contains("lessons shipped with groupsim") && !list.output.contains(folder.path))
        let one = try await BuiltTool.run(["lessons", "simultaneous-replies"], in: folder)
        #expect(one.status == 0, "\(one.error)")
        #expect(one.output.contains("More: groupsim lessons simultaneous-replies --full") && !one.output.contains("warning:"))
    }

    /// The shipped lessons are Scenarios/lessons, file for file and byte for byte: they
    /// are copied from it at build time, never kept by hand.
    @Test func theShippedLessonsAreScenariosLessons() throws {
        let executable = try ProcessRunner.builtTool()
        let shipped = executable.deletingLastPathComponent()
            .appendingPathComponent("GroupSim_GroupSimScenarios.resources/Scenarios/lessons")
        let source = CLI.root.appendingPathComponent("Scenarios/lessons")
        let names = try FileManager.default.contentsOfDirectory(atPath: source.path).sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: shipped.path).sorted() == names)
        for name in names {
            #expect(FileManager.default.contentsEqual(atPath: source.appendingPathComponent(name).path,
                                                      andPath: shipped.appendingPathComponent(name).path), "\(name)")
        }
    }

    // MARK: Interrupts

    /// The first SIGINT stops the exploration: the report of the runs done so far, with
    /// the failing seeds and the replay line, on standard output and in --output, exit
    /// 130. The counts are exactly those of a whole exploration of that many runs.
    @Test func anInterruptedExplorationKeepsWhatItFound() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let report = folder.appendingPathComponent("report.txt").path
        let running = try BuiltTool.Running(["explore", Self.window, "--runs", "100000000", "--workers", "2", "--output", report],
            in: folder, launcher: BuiltTool.lowPriority)
        // The test explores again in process as many runs as the tool did in this time.
        await running.sendOnceCaught(SIGINT, after: TestSampling.count(default: 0.5, full: 1.5))
        let ended = await running.wait()
        #expect(!ended.bySignal && ended.status == 130, "status \(ended.status), by signal: \(ended.bySignal)\n\(ended.error)")
        let written = try String(contentsOfFile: report, encoding: .utf8)
        let line = try #require(written.split(separator: "\n").first { $0.hasPrefix("interrupted after ") }, "\(written)")
        #expect(line.hasSuffix(" of 100,000,000 runs: the counts below are of those runs"))
        #expect(ended.output.contains(line))
        let done = try #require(Int(line.dropFirst("interrupted after ".count).prefix { $0 != " " }
            .replacingOccurrences(of: ",", with: "")))
        // Deterministic: the same as exploring exactly `done` runs, apart from the heading.
        let whole = await CLI.run(["explore", Self.window, "--runs", String(done)])
        let lines = written.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(Array(lines.dropFirst(2)) == Array(whole.output.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()))
        if done >= 10 {
            #expect(written.contains("replay: groupsim run \(Self.window) --seed "))
            #expect(ended.output.contains("replay: groupsim run \(Self.window) --seed "))
        }
    }

    @Test func sigtermExitsOneHundredFortyThreeWithTheReport() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let running = try BuiltTool.Running(["explore", Self.window, "--runs", "100000000"], in: folder,
                                                launcher: BuiltTool.lowPriority)
        await running.sendOnceCaught(SIGTERM)
        let ended = await running.wait()
        #expect(!ended.bySignal && ended.status == 143, "status \(ended.status), by signal: \(ended.bySignal)")
        #expect(ended.output.contains(" of 100,000,000 runs: the counts below are of those runs"), "\(ended.output)")
    }

    /// A second SIGINT ends it at once: here the report waits for a reader of a named
    /// pipe that never comes, and the second signal ends the wait.
    @Test func aSecondInterruptExitsAtOnce() async throws {
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let fifo = folder.appendingPathComponent("nobody-reads").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let running = try BuiltTool.Running(["explore", Self.window, "--runs", "100000000", "--output", fifo], in: folder,
                                          launcher: BuiltTool.lowPriority)
        await running.sendOnceCaught(SIGINT, again: 0.5)
        let ended = await running.wait(limit: 120)
        #expect(ended.status == 130 || (ended.bySignal && ended.status == SIGINT), "status \(ended.status), by signal: \(ended.bySignal)")
    }
}
