import Foundation
import GroupSimTesting
import Testing
import GroupSim
import GroupSimCLI

/// `groupsim merge` with what the engines leave behind, shards of the same scenario text
/// only, and counts near the integer limit.
@Suite struct MergeCommandTests {
    static let scenario = "Scenarios/pickles-race-window.yaml"

    /// Explores shards `indices` of `count` of a `runs`-run exploration of `file` into
    /// `folder/shard-I.json`.
    static func explore(_ indices: [Int], of count: Int, runs: Int = 400, file: String = CLI.path(scenario),
                        into folder: URL, extra: [String] = []) async throws {
        for index in indices {
            let path = folder.appendingPathComponent("shard-\(index).json").path
            let result = await CLI.run(["explore", file, "--runs", String(runs), "--shard", "\(index)/\(count)",
                                        "--format", "json", "--output", path, "--quiet"] + extra)
            #expect(result.status <= 1 && result.error.isEmpty, "\(result.error)")
        }
    }

    static func read(_ url: URL) throws -> ExplorationReport {
        try ExplorationJSONReport.parse(try String(contentsOf: url, encoding: .utf8))
    }

    static func write(_ report: ExplorationReport, to url: URL) throws {
        try Data(ExplorationJSONReport.render(report).utf8).write(to: url)
    }

    /// Acceptance: `groupsim merge DIR` of four shard reports equals the whole exploration
    /// (runs, failed runs, distinct outcomes, outcomes, checks), in text and JSON, and the
    /// files may be given in any order.
    @Test func folderOfFourShardsIsTheWhole() async throws {
        let folder = try TemporaryFolder.create("merge-folder")
        defer { TemporaryFolder.remove(folder) }
        try await Self.explore([3, 1, 0, 2], of: 4, into: folder)
        let file = CLI.path(Self.scenario)
        let wholeText = await CLI.run(["explore", file, "--runs", "400"])
        let wholeJSON = await CLI.run(["explore", file, "--runs", "400", "--format", "json"])
        let text = await CLI.run(["merge", folder.path])
        #expect(text.status == 1 && text.error.isEmpty, "\(text.error)")
        #expect(text.output == wholeText.output)
        let json = await CLI.run(["merge", folder.path, "--format", "json"])
        #expect(json.output == wholeJSON.output)
        let merged = try ExplorationJSONReport.parse(json.output)
        let whole = try ExplorationJSONReport.parse(wholeJSON.output)
        #expect(merged.runs == 400 && merged.runs == whole.runs)
        #expect(merged.failedRuns == whole.failedRuns && merged.failedRuns > 0)
        #expect(merged.distinctOutcomes == whole.distinctOutcomes)
        #expect(merged.outcomes == whole.outcomes)
        #expect(merged.checks == whole.checks)
        #expect(merged.shard == nil)
        let files = [2, 0, 3, 1].map { folder.appendingPathComponent("shard-\($0).json").path }
        #expect(await CLI.run(["merge"] + files + ["--format", "json"]).output == wholeJSON.output)
    }

    /// A missing shard is named (exit 2); --partial merges what is there and says which
    /// shards are missing, in text and JSON, never calling it the whole exploration.
    @Test func missingShardIsNamed() async throws {
        let folder = try TemporaryFolder.create("merge-missing")
        defer { TemporaryFolder.remove(folder) }
        try await Self.explore([0, 1, 3], of: 4, into: folder)
        let refused = await CLI.run(["merge", folder.path])
        #expect(refused.status == 2 && refused.output.isEmpty)
        #expect(refused.error.contains("cannot merge: shard 2/4 is missing: the reports cover shards 0/4, 1/4, 3/4 of 400 runs"),
            "\(refused.error)")
        #expect(refused.error.contains("--shard 2/4") && refused.error.contains("--partial"))

        let partial = await CLI.run(["merge", folder.path, "--partial"])
        #expect(partial.status == 1)
        let lines = partial.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix("shards 0/4, 1/4, 3/4 of 400 runs") ?? false, "\(lines.first ?? "")")
        #expect(lines.dropFirst().first == "partial: shard 2/4 is missing, so this is not the whole exploration")
        #expect(lines.contains { $0.hasSuffix("distinct outcomes (partial: 1 of 4 shards missing)") })
        let json = try ExplorationJSONReport.parse(await CLI.run(["merge", folder.path, "--partial", "--format", "json"]).output)
        #expect(json.runs == 300 && json.shard == ExplorationReport.ShardCoverage(count: 4, indices: [0, 1, 3]))
        let raw = try JSONValue.parse(await CLI.run(["merge", folder.path, "--partial", "--format", "json"]).output)
        #expect(raw["shard"]?["missing"] == .string("2"))

        try FileManager.default.removeItem(at: folder.appendingPathComponent("shard-1.json"))
        let two = await CLI.run(["merge", folder.path])
        #expect(two.status == 2 && two.error.contains("shards 1/4 and 2/4 are missing"), "\(two.error)")
        let one = await CLI.run(["merge", folder.appendingPathComponent("shard-0.json").path])
        #expect(one.status == 2 && one.error.contains("shards 1/4, 2/4 and 3/4 are missing"), "\(one.error)")
    }

    /// A retried shard writes the same bytes as its first try, whatever the number of
    /// workers: the JSON holds no time, host name or folder of the machine.
    @Test func retriedShardIsByteIdentical() async throws {
        let folder = try TemporaryFolder.create("merge-retry")
        defer { TemporaryFolder.remove(folder) }
        try await Self.explore([2], of: 4, into: folder, extra: ["--workers", "1"])
        let first = try Data(contentsOf: folder.appendingPathComponent("shard-2.json"))
        try await Self.explore([2], of: 4, into: folder, extra: ["--workers", "2"])
        #expect(try Data(contentsOf: folder.appendingPathComponent("shard-2.json")) == first)
        let text = String(decoding: first, as: UTF8.self)
        #expect(!text.contains(folder.path))
        let host = ProcessInfo.processInfo.hostName
        #expect(host.count < 4 || !text.contains(host), "no host name in the report")
    }

    /// Shards of one scenario name whose steps were edited between
    /// shards do not merge; the message names both reports and both fingerprints. Only
    /// the parsed scenario counts: comments and spacing may differ.
    @Test func editedScenarioDoesNotMerge() async throws {
        let folder = try TemporaryFolder.create("merge-edited")
        defer { TemporaryFolder.remove(folder) }
        let original = try String(contentsOfFile: CLI.path(Self.scenario), encoding: .utf8)
        let file = folder.appendingPathComponent("race.yaml")
        let shards = folder.appendingPathComponent("shards")
        try FileManager.default.createDirectory(at: shards, withIntermediateDirectories: true)
        try original.write(to: file, atomically: true, encoding: .utf8)
        try await Self.explore([0], of: 2, runs: 40, file: file.path, into: shards)
        try (original.replacingOccurrences(of: "within: 2s", with: "within: 3s")).write(to: file, atomically: true, encoding: .utf8)
        try await Self.explore([1], of: 2, runs: 40, file: file.path, into: shards)
        let before = try Self.read(shards.appendingPathComponent("shard-0.json")).fingerprint
        let after = try Self.read(shards.appendingPathComponent("shard-1.json")).fingerprint
        #expect(before != after)
        let refused = await CLI.run(["merge", shards.path])
        #expect(refused.status == 2)
        #expect(refused.error.contains("shard-1.json and \(shards.path)/shard-0.json are of different scenario text under the name " +
            "pickles-race-window"), "\(refused.error)")
        #expect(refused.error.contains("fingerprint \(after) in \(shards.path)/shard-1.json, \(before) in \(shards.path)/shard-0.json"))

        try (original.replacingOccurrences(of: "  latency: 300ms", with: "  latency:   300ms   # spaced")
            + "# a comment\n").write(to: file, atomically: true, encoding: .utf8)
        try await Self.explore([1], of: 2, runs: 40, file: file.path, into: shards)
        #expect(try Self.read(shards.appendingPathComponent("shard-1.json")).fingerprint == before)
        #expect(await CLI.run(["merge", shards.path]).status == 1)
    }

    /// Shards explored by another version of groupsim do not merge; the message names both.
    @Test func otherVersionDoesNotMerge() async throws {
        let folder = try TemporaryFolder.create("merge-version")
        defer { TemporaryFolder.remove(folder) }
        try await Self.explore([0, 1], of: 2, runs: 40, into: folder)
        let url = folder.appendingPathComponent("shard-1.json")
        var report = try Self.read(url)
        report.toolVersion = "0.0.9"
        try Self.write(report, to: url)
        let refused = await CLI.run(["merge", folder.path])
        #expect(refused.status == 2)
        #expect(refused.error.contains("\(url.path) was explored by groupsim 0.0.9, \(folder.path)/shard-0.json by groupsim " +
            "\(GroupSimVersion.current)"), "\(refused.error)")
        #expect((await CLI.run(["--version"])).output == "groupsim \(GroupSimVersion.current)\n")
    }

    /// Counts that cannot be are refused with exit 2 and the file's name, not added up.
    @Test(arguments: [
        ("more failures than runs", "41 failed runs out of 20 runs"),
        ("a check failed more often than runs failed", "runs, but only"),
        ("more runs than the shard holds", "21 runs, but shard 1/2 of 40 runs holds 20"),
        ("a pitfall in more runs than there are", "in 21 runs out of 20 runs"),
        ("outcomes over the runs", "add up to more than its 20 runs"),
        ("a shard index out of range", "shard 5/2 is not I/N"),
        ("a seed its run does not derive", "not the seed run #"),
        ("cloud conflicts in more runs than there are", "cloud conflicts in 21 runs out of 20 runs"),
        ("cloud writes in no run", "refused cloud writes in 0 runs"),
        ("more cloud writes than runs times the most", "5 refused cloud writes in 2 runs, at most 2 in one run"),
        ("cloud writes past 64 bits", "340282366920938463426481119284349108225 refused cloud writes in 20 runs"),
    ])
    func impossibleCountsAreRefused(_ edit: String, _ message: String) async throws {
        let folder = try TemporaryFolder.create("merge-counts")
        defer { TemporaryFolder.remove(folder) }
        try await Self.explore([0, 1], of: 2, runs: 40, into: folder)
        let url = folder.appendingPathComponent("shard-1.json")
        var report = try Self.read(url)
        #expect(report.runs == 20 && report.failedRuns > 0 && !report.pitfalls.isEmpty)
        switch edit {
        case "more failures than runs": report.failedRuns = 41
        case "a check failed more often than runs failed": report.checks[0].failedRuns = report.failedRuns + 1
        case "more runs than the shard holds": report.runs = 21
        case "a pitfall in more runs than there are": report.pitfalls[0].runs = 21
        case "outcomes over the runs": report.outcomes[0].counts[0].runs = 21
        case "a shard index out of range": report.shard = ExplorationReport.ShardCoverage(count: 2, indices: [5])
        case "cloud conflicts in more runs than there are": (report.cloudConflicts, report.conflictRuns, report.mostConflicts) = (21, 21, 1)
        case "cloud writes in no run": (report.cloudConflicts, report.conflictRuns, report.mostConflicts) = (ExactCount("1" + String(repeating: "0", count: 30)) ?? 0, 0, 0)
        case "more cloud writes than runs times the most": (report.cloudConflicts, report.conflictRuns, report.mostConflicts) = (5, 2, 2)
        case "cloud writes past 64 bits":
            (report.cloudConflicts, report.conflictRuns, report.mostConflicts) = (ExactCount(UInt64.max) * ExactCount(UInt64.max), 20, .max)
        default: report.failures[0].reference.seed &+= 1
        }
        try Self.write(report, to: url)
        let refused = await CLI.run(["merge", folder.path])
        #expect(refused.status == 2 && refused.output.isEmpty)
        #expect(refused.error.contains("\(url.path): ") && refused.error.contains(message), "\(edit): \(refused.error)")
    }

    /// Shard reports whose counts are near the integer limit merge exactly (counts are
    /// `ExactCount`s, percentages computed in full width), and counts that cannot be an
    /// exploration's are refused with a message.
    @Test func countsNearTheIntegerLimitDoNotCrash() async throws {
        let folder = try TemporaryFolder.create("merge-limit")
        defer { TemporaryFolder.remove(folder) }
        try await Self.explore([0, 1], of: 2, runs: 4, file: CLI.path("Scenarios/pickles-race.yaml"), into: folder)
        for index in 0...1 {
            let url = folder.appendingPathComponent("shard-\(index).json")
            var report = try Self.read(url)
            #expect(report.passed && report.distinctOutcomes == 1)
            let runs = ExactCount(index == 0 ? Int.max / 2 + 1 : Int.max / 2)
            report.mode = .random(seed: report.seed, requested: Int.max)
            report.runs = runs
            for row in report.outcomes.indices { report.outcomes[row].counts[0].runs = runs }
            for pitfall in report.pitfalls.indices { report.pitfalls[pitfall].runs = runs }
            for entry in report.classes.indices { report.classes[entry].runs = runs }
            try Self.write(report, to: url)
        }
        let merged = await CLI.run(["merge", folder.path])
        #expect(merged.status == 0, "\(merged.error)")
        #expect(merged.output.contains("lost-update (M12): 9.223 × 10^18 of 9.223 × 10^18 (100.0%)"), "\(merged.output)")

        let url = folder.appendingPathComponent("shard-0.json")
        var report = try Self.read(url)
        report.outcomes[0].counts.append(report.outcomes[0].counts[0])
        try Self.write(report, to: url)
        let refused = await CLI.run(["merge", folder.path])
        #expect(refused.status == 2 && refused.error.contains("add up to more than its 4611686018427387904 runs"), "\(refused.error)")
    }

    /// Reading a folder: only its *.json files (not hidden ones); none is exit 2; a report
    /// of the format before fingerprints is named as such.
    @Test func folderReading() async throws {
        let folder = try TemporaryFolder.create("merge-reading")
        defer { TemporaryFolder.remove(folder) }
        let empty = await CLI.run(["merge", folder.path])
        #expect(empty.status == 2 && empty.error.contains("the folder \(folder.path) holds no *.json report"), "\(empty.error)")
        try await Self.explore([0, 1], of: 2, runs: 40, into: folder)
        try Data("not a report".utf8).write(to: folder.appendingPathComponent(".shard-0.json.tmp.json"))
        try Data("a log".utf8).write(to: folder.appendingPathComponent("explore.log"))
        #expect(await CLI.run(["merge", folder.path]).status == 1)
        let url = folder.appendingPathComponent("shard-1.json")
        let older = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "groupsim-exploration-3",
            with: "groupsim-exploration-1")
        try Data(older.utf8).write(to: url)
        let refused = await CLI.run(["merge", folder.path])
        #expect(refused.status == 2 && refused.error.contains("\(url.path): written by an older groupsim"), "\(refused.error)")
    }
}
