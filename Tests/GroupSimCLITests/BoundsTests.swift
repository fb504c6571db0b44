import Foundation
import GroupSimCore
import GroupSimTesting
import Testing
import GroupSim
@testable import GroupSimCLI

/// Bounded by construction: an exhaustive search that stops at its memory budget, inputs
/// that are never outputs, command lines safe to paste, folders `test` cannot read, and
/// errors that quote a bounded excerpt. Every file is made in a temporary folder; the
/// processes run the built tool.
@Suite struct BoundsTests {
    /// A question, then `texts` plain texts from one phone 10 ms apart, with copies that take
    /// a second: every text is in flight at once, so each other device has texts! orders.
    static func chain(_ texts: Int) -> String {
        var lines = ["name: chain", "people:", "  alice: [alice-phone]", "  bob: [bob-phone]", "  carol: [carol-phone]",
                     "network:", "  latency: 1s", "steps:", "  - at: 0ms", "    device: bob-phone",
                     "    send: { session: q, caption: \"Lunch?\", data: { t: \"12\" } }"]
        for text in 0..<texts { lines += ["  - at: \(10 + 10 * text)ms", "    device: bob-phone", "    text: \"hi \(text)\""] }
        return (lines + ["expect:", "  - converged: q"]).joined(separator: "\n") + "\n"
    }

    // MARK: The memory budget of an exhaustive search

    /// The factored estimate counts the local orders it will simulate: 5 texts and the
    /// question in flight are 6! = 720 orders per device.
    @Test func theFactoredEstimateCountsTheLocalOrders() async throws {
        let folder = try TemporaryFolder.create("bounds")
        defer { TemporaryFolder.remove(folder) }
        let file = try TemporaryFolder.file("chain.yaml", Self.chain(5), in: folder)
        let result = await CLI.run(["explore", file, "--exhaustive"])
        #expect(result.status == 1 || result.status == 0, "\(result.error)")
        #expect(result.output.contains("518400 distinct delivery orders (seed 1; up-front estimate 720; 720 schedules simulated"),
                "\(result.output)")
    }

    /// The issue's chain of 10 texts: refused up front at the default --limit, as --no-factor
    /// refuses it; with the limit raised, stopped at the memory budget with exit 2 and the
    /// report of the orders searched, never killed by the allocator.
    @Test func aChainOfSendsStopsAtTheMemoryBudget() async throws {
        let folder = try TemporaryFolder.create("bounds")
        defer { TemporaryFolder.remove(folder) }
        let file = try TemporaryFolder.file("chain.yaml", Self.chain(10), in: folder)
        let refused = try await BuiltTool.run(["explore", file, "--exhaustive"], in: folder)
        #expect(refused.status == 2 && !refused.bySignal)
        #expect(refused.error.contains("an estimated 39916800, over the limit of 100000"), "\(refused.error)")

        let stopped = try await BuiltTool.run(["explore", file, "--exhaustive", "--limit", "100000000", "--max-memory", "4M"],
                                              in: folder, launcher: ["/bin/sh", "-c", "ulimit -v 2000000; exec \"$@\"", "sh"])
        #expect(!stopped.bySignal, "ended by signal \(stopped.status): \(stopped.error)")
        #expect(stopped.status == 2, "\(stopped.error)")
        #expect(stopped.output.contains("stopped at the memory budget: enumerated "), "\(stopped.output)")
        #expect(stopped.output.contains("of an estimated 39,916,800 orders"), "\(stopped.output)")
        #expect(stopped.output.contains("over --max-memory 4 MiB"), "\(stopped.output)")
        #expect(stopped.error.hasPrefix("groupsim: error: chain: stopped at the memory budget"), "\(stopped.error)")

        let json = try await BuiltTool.run(["explore", file, "--exhaustive", "--limit", "100000000", "--max-memory", "4M",
                                            "--format", "json"], in: folder)
        let report = try ExplorationJSONReport.parse(json.output)
        #expect(report.interrupted && report.memoryStop?.budget == 4 << 20 && (report.memoryStop?.held ?? 0) > 4 << 20)
        #expect(report.runs > 0)
    }

    /// The fuzzer's case: a lesson whose steps are repeated a hundred times. Its first
    /// schedule alone records more decisions than the budget allows; the recorder counts
    /// them as it goes, so the search stops with exit 2 and a report instead of being
    /// killed by the allocator under a memory limit, whether it enumerates or factors.
    @Test func aFirstScheduleOverTheBudgetStopsTheSearch() async throws {
        let folder = try TemporaryFolder.create("bounds")
        defer { TemporaryFolder.remove(folder) }
        let lesson = try String(contentsOfFile: CLI.path("Scenarios/lessons/conditional-write-fixed.yaml"), encoding: .utf8)
        let head = try #require(lesson.components(separatedBy: "steps:\n").first)
        let rest = try #require(lesson.components(separatedBy: "steps:\n").dropFirst().first)
        let steps = try #require(rest.components(separatedBy: "expect:\n").first)
        let checks = rest.components(separatedBy: "expect:\n").dropFirst().first ?? ""
        let file = try TemporaryFolder.file("repeated.yaml", head + "steps:\n" + String(repeating: steps, count: 100)
            + "expect:\n" + checks, in: folder)
        for factoring in [[], ["--no-factor"]] {
            let stopped = try await BuiltTool.run(["explore", file, "--exhaustive", "--limit", "100000000", "--max-memory", "4M"]
                + factoring, in: folder, launcher: ["/bin/sh", "-c", "ulimit -v 2000000; exec \"$@\"", "sh"])
            #expect(!stopped.bySignal, "ended by signal \(stopped.status): \(stopped.error)")
            #expect(stopped.status == 2, "\(factoring): \(stopped.error)")
            #expect(stopped.output.contains("stopped at the memory budget: the first schedule alone held more than the budget"),
                    "\(factoring): \(stopped.output)")
            // It stops at the decision that passes the budget: what it held prints as the budget does.
            #expect(stopped.output.contains("the search held just over --max-memory 4 MiB;"), "\(factoring): \(stopped.output)")
        }
        // With room for that schedule, the estimate its decisions give (past 10^308, now that
        // a tap fetches and Send pushes) refuses the search before it keeps any branch.
        let branches = try await BuiltTool.run(["explore", file, "--exhaustive", "--limit", "100000000", "--max-memory", "64M"],
                                               in: folder, launcher: ["/bin/sh", "-c", "ulimit -v 2000000; exec \"$@\"", "sh"])
        #expect(!branches.bySignal && branches.status == 2, "\(branches.status): \(branches.error)")
        #expect(branches.error.contains("has too many delivery orders to enumerate: an estimated more than 10^308, "
                                        + "over the limit of 100000000"), "\(branches.error)")
    }

    @Test func maxMemoryTakesSizes() async throws {
        #expect(ExploreCommand.parseSize("4M") == 4 << 20)
        #expect(ExploreCommand.parseSize("1.5GiB") == 3 << 29)
        #expect(ExploreCommand.parseSize("2048") == 2_048)
        for bad in ["", "M", "-1G", "1e9", "12 M", "99999999999T", "0"] { #expect(ExploreCommand.parseSize(bad) == nil, "\(bad)") }
        let result = await CLI.run(["explore", CLI.path("Scenarios/pickles-race.yaml"), "--exhaustive", "--max-memory", "lots"])
        #expect(result.status == 2 && result.error.contains("--max-memory: \"lots\" is not a size"), "\(result.error)")
        let alone = await CLI.run(["explore", CLI.path("Scenarios/pickles-race.yaml"), "--max-memory", "1G"])
        #expect(alone.status == 2 && alone.error.contains("--max-memory goes with --exhaustive"), "\(alone.error)")
    }

    // MARK: Inputs are never outputs

    /// A scenario that sends a real sticker file.
    static func stickerScenario(in folder: URL) throws -> (scenario: String, sticker: String, bytes: Data) {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: CLI.path("Scenarios/assets/pickle.png")))
        let sticker = folder.appendingPathComponent("pickle.png").path
        try bytes.write(to: URL(fileURLWithPath: sticker))
        let scenario = try TemporaryFolder.file("S.yaml", """
            name: sticker-input
            people:
              alice: [alice-phone]
              bob: [bob-phone]
            steps:
              - at: 0ms
                device: alice-phone
                sticker: { file: pickle.png, description: "a pickle" }
              - at: 10ms
                device: alice-phone
                send: { session: poll, caption: "Lunch?" }
            expect:
              - latest: { device: bob-phone, session: poll, from: bob }

            """, in: folder)
        return (scenario, sticker, bytes)
    }

    /// `--output` and `--junit` naming the scenario's sticker file, directly, through a
    /// symbolic link, a hard link or /dev/stdout, are refused and the PNG stays.
    @Test func aStickerFileIsNeverAnOutput() async throws {
        let folder = try TemporaryFolder.create("bounds")
        defer { TemporaryFolder.remove(folder) }
        let (scenario, sticker, bytes) = try Self.stickerScenario(in: folder)
        let symbolic = folder.appendingPathComponent("link.png").path
        try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: "pickle.png")
        let hard = folder.appendingPathComponent("hard.png").path
        try FileManager.default.linkItem(atPath: sticker, toPath: hard)
        for target in [sticker, symbolic, hard] {
            for arguments in [["run", scenario, "--output", target], ["explore", scenario, "--runs", "3", "--output", target],
                              ["explore", scenario, "--exhaustive", "--output", target], ["shrink", scenario, "--output", target],
                              ["test", scenario, "--junit", target]] {
                let result = await CLI.run(arguments)
                #expect(result.status == 2, "\(arguments): \(result.output)")
                #expect(result.error.contains("the output would overwrite the input"), "\(arguments): \(result.error)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: sticker)) == bytes, "\(arguments)")
            }
        }
        // Read from standard input, the sticker is relative to the working folder.
        let standardInput = try await BuiltTool.run(["run", "-", "--output", "pickle.png"], in: folder,
                                                    input: URL(fileURLWithPath: scenario))
        #expect(standardInput.status == 2 && standardInput.error.contains("the output would overwrite the input"),
                "\(standardInput.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sticker)) == bytes)
    }

    // MARK: Command lines safe to paste

    static let awkwardNames = ["a b", "x; touch PWNED #", "it's", "\"q\"", "$(touch PWNED)", "`id`", "new\nline", "tab\there",
                               "Zoë 🥒", "back\\slash", "-dash", "~tilde", "*", "esc\u{1B}[31m", "\u{202E}rtl"]

    /// Each quoted word, read back by /bin/sh, is the word itself; nothing runs.
    @Test func shellWordsReadBackAsThemselves() async throws {
        let folder = try TemporaryFolder.create("bounds")
        defer { TemporaryFolder.remove(folder) }
        for name in Self.awkwardNames {
            let quoted = ShellWord.quote(name)
            #expect(!quoted.contains("\n") && !quoted.contains("\u{1B}"), "\(quoted)")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "printf '%s' " + quoted]
            process.currentDirectoryURL = folder
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(String(decoding: data, as: UTF8.self) == name, "\(name) quoted as \(quoted)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("PWNED").path))
        #expect(ShellWord.quote("Scenarios/pickles-race.yaml") == "Scenarios/pickles-race.yaml")
    }

    /// A scenario file whose name has shell syntax: the replay line names it quoted.
    @Test func replayLinesAreQuoted() async throws {
        let folder = try TemporaryFolder.create("bounds")
        defer { TemporaryFolder.remove(folder) }
        let text = try String(contentsOfFile: CLI.path("Scenarios/pickles-race-window.yaml"), encoding: .utf8)
        let file = try TemporaryFolder.file("x; touch PWNED #.yaml", text, in: folder)
        let result = await CLI.run(["explore", file, "--runs", "50", "--quiet"])
        let line = result.output.split(separator: "\n").first { $0.hasPrefix("replay: ") }.map(String.init) ?? ""
        #expect(line.contains("groupsim run '\(file)' --seed "), "\(line)")
        let json = await CLI.run(["explore", file, "--runs", "50", "--format", "json"])
        #expect(json.output.contains("groupsim run '\(file)' --seed "))
    }

    // MARK: test DIR

    /// A nested folder whose path is past PATH_MAX: made with relative steps, since no
    /// call takes the whole path. Root reads it no better than anyone.
    @Test func aFolderPastPathMaxIsAnError() async throws {
        let folder = try TemporaryFolder.create("bounds")
        defer {
            // rm cannot take the whole path either: it walks the tree itself.
            let remove = Process()
            remove.executableURL = URL(fileURLWithPath: "/bin/rm")
            remove.arguments = ["-rf", folder.path]
            try? remove.run()
            remove.waitUntilExit()
        }
        _ = try TemporaryFolder.file("ok.yaml", try String(contentsOfFile: CLI.path("Scenarios/pickles-race.yaml"), encoding: .utf8),
                                     in: folder)
        let name = String(repeating: "d", count: 200)
        var descriptor = open(folder.path, O_RDONLY | O_DIRECTORY)
        for _ in 0..<25 {
            #expect(mkdirat(descriptor, name, 0o755) == 0)
            let next = openat(descriptor, name, O_RDONLY | O_DIRECTORY)
            close(descriptor)
            descriptor = next
        }
        let broken = openat(descriptor, "broken.yaml", O_WRONLY | O_CREAT, 0o644)
        #expect(broken >= 0 && write(broken, "name: [\n", 8) == 8)
        close(broken)
        close(descriptor)
        let ended = try await BuiltTool.run(["test", folder.path], in: folder)
        #expect(!ended.bySignal)
        #expect(ended.status == 2, "\(ended.output)")
        #expect(ended.output.contains("ERROR \(folder.path)/\(name)/") && ended.output.contains("File name too long"), "\(ended.output)")
        #expect(ended.output.contains("2 files: 1 passed, 0 failed, 1 invalid"), "\(ended.output)")
    }

    /// A subfolder the user may not read: skipped as root, who reads every folder.
    @Test(.enabled(if: geteuid() != 0, "root reads every folder; aFolderPastPathMaxIsAnError covers root"))
    func anUnreadableFolderIsAnError() async throws {
        let folder = try TemporaryFolder.create("bounds")
        defer {
            chmod(folder.appendingPathComponent("locked").path, 0o755)
            TemporaryFolder.remove(folder)
        }
        let locked = folder.appendingPathComponent("locked")
        try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false)
        _ = try TemporaryFolder.file("broken.yaml", "name: [\n", in: locked)
        _ = try TemporaryFolder.file("ok.yaml", try String(contentsOfFile: CLI.path("Scenarios/pickles-race.yaml"), encoding: .utf8),
                                     in: folder)
        chmod(locked.path, 0)
        let ended = try await BuiltTool.run(["test", folder.path], in: folder)
        #expect(ended.status == 2, "\(ended.output)")
        #expect(ended.output.contains("ERROR \(locked.path)  ") && ended.output.contains("Permission denied"), "\(ended.output)")
    }

    // MARK: Signals during an --output write

    /// SIGQUIT is ignored, and SIGINT, SIGTERM or SIGHUP at any moment of a large --output
    /// write leave no temporary file: the target is the old report or the new one.
    @Test func signalsDuringAWriteLeaveNoTemporaryFile() async throws {
        let folder = try TemporaryFolder.create("bounds")
        defer { TemporaryFolder.remove(folder) }
        let file = try TemporaryFolder.file("chain.yaml", Self.chain(40), in: folder)
        let target = folder.appendingPathComponent("page.html").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let quit = try BuiltTool.Running(["run", file, "--format", "html", "--output", target], in: folder)
        // Sent once the process ignores it: before `main` runs, no program has said what it does with it.
        await Self.waitUntilIgnoring(SIGQUIT, quit.pid)
        for _ in 0..<5 {
            quit.send(SIGQUIT)
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        let quitEnded = await quit.wait()
        #expect(quitEnded.status == 0 || quitEnded.status == 1, "\(quitEnded.error)")
        #expect(!quitEnded.bySignal && !quitEnded.error.contains("crashed"), "\(quitEnded.error)")
        for (round, signal) in [SIGINT, SIGTERM, SIGHUP, SIGINT, SIGTERM, SIGHUP].enumerated() {
            let running = try BuiltTool.Running(["run", file, "--format", "html", "--output", target], in: folder)
            try await Task.sleep(nanoseconds: UInt64(100_000_000 * (round + 1)))
            running.send(signal)
            _ = await running.wait()
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
            #expect(names == ["chain.yaml", "page.html"], "after signal \(signal): \(names)")
        }
    }

    /// Waits until process `pid` ignores `signal` (Linux: its SigIgn mask in /proc).
    static func waitUntilIgnoring(_ signal: Int32, _ pid: Int32) async {
        for _ in 0..<600 {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
               let line = text.split(separator: "\n").first(where: { $0.hasPrefix("SigIgn:") }),
               let mask = UInt64(line.dropFirst("SigIgn:".count).trimmingCharacters(in: .whitespaces), radix: 16),
               mask & (1 << UInt64(signal - 1)) != 0 {
                return
            }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    // MARK: Errors quote a bounded excerpt

    @Test func errorsQuoteAtMostAboutEightyCharacters() async throws {
        let folder = try TemporaryFolder.create("bounds")
        defer { TemporaryFolder.remove(folder) }
        let digits = String(repeating: "9", count: 1_000_000)
        let file = try TemporaryFolder.file("big.yaml", "name: big\nseed: \(digits)\npeople:\n  a: [a-phone]\nsteps: []\n", in: folder)
        let run = await CLI.run(["run", file])
        #expect(run.status == 2)
        #expect(run.error.contains("number too large: 999"), "\(run.error.prefix(300))")
        #expect(run.error.contains("(1000000 characters)") && run.error.utf8.count < 1_000, "\(run.error.prefix(300))")
        let option = await CLI.run(["explore", file, "--runs", digits])
        #expect(option.status == 2 && option.error.utf8.count < 1_000 && option.error.contains("(1000000 characters)"))
        #expect(Excerpt.of("short") == "short")
    }
}
