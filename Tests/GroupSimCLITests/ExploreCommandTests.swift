import Foundation
import Testing
import GroupSimCLI
import GroupSimTesting

/// `groupsim explore` and `groupsim merge` on the Scenarios/ files, as docs/exploration.md
/// describes them (M11, M12, M13).
@Suite struct ExploreCommandTests {
    /// Lines of the outcome section for one device and session.
    static func outcomeLines(_ output: String, _ device: String, _ session: String = "poll") -> [String] {
        output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("    \(device) \(session):") }
    }

    /// The replay seed the text report prints, if any.
    static func replaySeed(_ output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("replay: groupsim run ") }?.split(separator: " ").last.map(String.init)
    }

    /// Acceptance: `explore Scenarios/pickles-race.yaml --runs 1000` reports the outcome
    /// distribution at each device. Its latencies are fixed (no jitter, no race window),
    /// so every run ends alike and every check holds (exit 0).
    @Test func picklesRaceReportsEveryDevice() async {
        let result = await CLI.run(["explore", CLI.path("Scenarios/pickles-race.yaml"), "--runs", "1000"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("pickles-race: 1000 runs"))
        for (device, sender) in [("alice-phone", "Bob"), ("bob-phone", "Carol"), ("bob-ipad", "Carol"), ("carol-phone", "Alice")] {
            #expect(Self.outcomeLines(result.output, device).map { $0.contains("from \(sender)") && $0.contains("100.0% (1000)") }
                == [true], "\(device)")
        }
        #expect(result.output.contains("lost-update (M12): 1000 of 1000 (100.0%)"))
        #expect(result.output.contains("0 of 1000 runs failed a check; 1 distinct outcome"))
    }

    /// Acceptance: the race-window version with message state exits 1 and shows both
    /// Bob's and Carol's reply surviving at Alice's device in some runs (M12); the seed it
    /// prints replays a failing run with `groupsim run --seed`.
    @Test func raceWindowFailsInSomeRunsAndReplays() async throws {
        let file = CLI.path("Scenarios/pickles-race-window.yaml")
        let result = await CLI.run(["explore", file, "--runs", "1000"])
        #expect(result.status == 1)
        let alice = Self.outcomeLines(result.output, "alice-phone")
        #expect(alice.contains { $0.contains("from Bob") })
        #expect(alice.contains { $0.contains("from Carol") })
        #expect(result.output.contains("FAIL"))
        let seed = try #require(Self.replaySeed(result.output))
        let replay = await CLI.run(["run", file, "--seed", seed])
        #expect(replay.status == 1, "the printed seed fails a check when replayed")
        #expect(await CLI.run(["run", file]).status == 0, "the file's own seed holds its checks")
    }

    /// The README quotes this output: every line it shows is what explore prints.
    @Test func readmeQuotesTheRaceWindowOutput() async throws {
        let readme = try String(contentsOfFile: CLI.path("README.md"), encoding: .utf8)
        let command = "$ swift run groupsim explore Scenarios/pickles-race-window.yaml --runs 1000\n"
        let quoted = try #require(readme.components(separatedBy: command).dropFirst().first?.components(separatedBy: "```").first)
        let file = CLI.path("Scenarios/pickles-race-window.yaml")
        let output = (await CLI.run(["explore", file, "--runs", "1000"])).output.replacingOccurrences(of: file,
            with: "Scenarios/pickles-race-window.yaml")
        let lines = Set(output.split(separator: "\n", omittingEmptySubsequences: false))
        for line in quoted.split(separator: "\n") where line != "  ..." {
            #expect(lines.contains(line), "README line not in the output: \(line)")
        }
    }

    /// Acceptance: the cloud-merge race exits 0 over 1,000 runs and with --exhaustive,
    /// `converged` and `complete` holding (M13).
    @Test func cloudMergeHoldsEverywhere() async {
        let file = CLI.path("Scenarios/pickles-race-cloud-merge.yaml")
        let random = await CLI.run(["explore", file, "--runs", "1000"])
        #expect(random.status == 0, "\(random.output)")
        #expect(random.output.contains("PASS  0 of 1000 (0.0%)    line 43: converged poll"))
        #expect(random.output.contains("PASS  0 of 1000 (0.0%)    line 44: complete poll {bob: tomatoes, carol: pickles, q: topping}"))
        let exhaustive = await CLI.run(["explore", file, "--exhaustive"])
        #expect(exhaustive.status == 0, "\(exhaustive.output)")
        // The race's two replies run anywhere in their 2s window, relative to each other
        // and to the copies and cloud messages in flight; two fetches that no write
        // separates are one order whichever reaches the store first. Each write is pushed
        // on Send, as its message leaves, so writes and copies are in flight together.
        #expect(exhaustive.output.hasPrefix("pickles-race-cloud-merge: 80 distinct delivery orders"))
        #expect(exhaustive.output.contains("0 of 80 orders failed a check"))
    }

    /// Acceptance: with cloud-overwrite, explore reports lost-update (M13).
    @Test func cloudOverwriteReportsLostUpdate() async throws {
        let result = await CLI.run(["explore", CLI.path("Scenarios/pickles-race-cloud-overwrite.yaml"), "--runs", "300"])
        let line = try #require(result.output.split(separator: "\n").first { $0.hasPrefix("  lost-update (M13): ") })
        let count = Int(line.split(separator: " ")[2]) ?? 0
        #expect(count > 0 && count < 300, "\(line)")
        #expect(result.status == 1, "this seed's lost-update check fails in the runs where the replies do not overlap")
    }

    /// The text and JSON reports are the same with one worker or two, and
    /// shard files merge into the report of the whole.
    @Test func workersAndShardsGiveTheSameReport() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let file = CLI.path("Scenarios/pickles-race-window.yaml")
        let whole = await CLI.run(["explore", file, "--runs", "200", "--format", "json", "--workers", "1"])
        let two = await CLI.run(["explore", file, "--runs", "200", "--format", "json", "--workers", "2"])
        #expect(whole.output == two.output)
        var paths: [String] = []
        for index in [1, 0] {
            let path = try CLI.temporaryFile(in: scratch, "shard-\(index).json", "")
            let shard = await CLI.run(["explore", file, "--runs", "200", "--shard", "\(index)/2", "--format", "json", "--output", path])
            #expect(shard.status == 1 && shard.output.hasPrefix("wrote \(path)"))
            paths.append(path)
        }
        let merged = await CLI.run(["merge"] + paths + ["--format", "json"])
        #expect(merged.status == 1)
        #expect(merged.output == whole.output)
        let text = await CLI.run(["merge"] + paths)
        #expect(text.output == (await CLI.run(["explore", file, "--runs", "200"])).output)
    }

    /// Usage errors and refusals exit 2 with the message on standard error.
    @Test(arguments: [
        (["explore"], "explore needs a scenario file"),
        (["explore", "Scenarios/pickles-race.yaml", "--shard", "2/2"], "--shard: a shard is I/N with 0 <= I < N, found 2/2"),
        (["explore", "Scenarios/pickles-race.yaml", "--shard", "half"], "a shard is written I/N"),
        (["explore", "Scenarios/pickles-race.yaml", "--exhaustive", "--runs", "5"], "it takes no --runs"),
        (["explore", "Scenarios/pickles-race.yaml", "--limit", "5"], "--limit goes with --exhaustive"),
        (["explore", "Scenarios/pickles-race.yaml", "--exhaustive", "--no-factor", "--limit", "10"],
            "an estimated 48, over the limit of 10"),
        (["explore", "Scenarios/pickles-race.yaml", "--runs", "0"], "--runs takes a whole number"),
        (["explore", "Scenarios/pickles-race.yaml", "--wokers", "2"], "did you mean \"--workers\"?"),
        (["merge"], "merge needs the JSON reports"),
        (["merge", "Scenarios/pickles-race.yaml"], "not JSON"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) async {
        let resolved = arguments.map { $0.hasPrefix("Scenarios/") ? CLI.path($0) : $0 }
        let result = await CLI.run(resolved)
        #expect(result.status == 2)
        #expect(result.error.contains(message), "\(result.error)")
        #expect(result.output.isEmpty)
    }

    /// `help explore` documents the options.
    @Test func help() async {
        let result = await CLI.run(["help", "explore"])
        #expect(result.status == 0)
        for option in ["--runs", "--seed", "--exhaustive", "--format", "--workers", "--shard"] {
            #expect(result.output.contains(option))
        }
        #expect((await CLI.run(["help", "merge"])).output.hasPrefix("Usage: groupsim merge FILE|DIR..."))
    }
}
