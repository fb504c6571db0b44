import Foundation
import Testing
import GroupSimCLI
import GroupSimTesting

/// End to end: conditional writes explored, the identity scenarios, and the
/// README's explore output for each identity mode.
@Suite struct IdentityCommandTests {
    /// Acceptance: the race with `state: cloud-cas` exits 0 over 1,000 runs, reports no
    /// lost-update, and says how many retries the race caused.
    @Test func casRaceHoldsOverAThousandRuns() async throws {
        let result = await CLI.run(["explore", CLI.path("Scenarios/pickles-race-cloud-cas.yaml"), "--runs", "1000"])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("lost-update"))
        #expect(result.output.contains("0 of 1000 runs failed a check"))
        let line = try #require(result.output.split(separator: "\n").first { $0.hasPrefix("Cloud conflicts") }.flatMap { _ in
            result.output.split(separator: "\n").first { $0.contains(" of 1000 runs (") && $0.contains("at most") }
        })
        let words = line.split(separator: " ")
        let retries = Int(words[0]) ?? 0
        #expect(retries > 0, "\(line)")
        let readme = try String(contentsOfFile: CLI.path("README.md"), encoding: .utf8)
        #expect(readme.contains("\(retries) refused writes in \(words[2]) runs"), "README's count of retries: \(line)")
        let json = await CLI.run(["explore", CLI.path("Scenarios/pickles-race-cloud-cas.yaml"), "--runs", "50", "--format", "json"])
        #expect(json.output.contains("\"cloudConflicts\""))
    }

    /// Shards of a cloud-cas exploration merge into the whole, conflict counts included.
    @Test func conflictCountsMergeAcrossShards() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let file = CLI.path("Scenarios/pickles-race-cloud-cas.yaml")
        var paths: [String] = []
        for shard in 0..<2 {
            let result = await CLI.run(["explore", file, "--runs", "60", "--shard", "\(shard)/2", "--format", "json"])
            paths.append(try CLI.temporaryFile(in: scratch, "cas-shard-\(shard).json", result.output))
        }
        let merged = await CLI.run(["merge"] + paths)
        let whole = await CLI.run(["explore", file, "--runs", "60"])
        #expect(merged.status == 0, "\(merged.error)")
        #expect(merged.output == whole.output)
        #expect(whole.output.contains("Cloud conflicts"))
    }

    /// Each identity mode's scenario holds its checks (exit 0).
    @Test(arguments: ["participant-id", "install-id", "account"])
    func identityScenariosHold(mode: String) async {
        let result = await CLI.run(["run", CLI.path("Scenarios/identity-\(mode).yaml")])
        #expect(result.status == 0, "\(result.output)")
    }

    /// The README shows, per identity mode, the pitfalls explore finds; it stays true.
    @Test(arguments: ["participant-id", "install-id", "account"])
    func readmeShowsThePitfallsEachIdentityModeStillHas(mode: String) async throws {
        let readme = try String(contentsOfFile: CLI.path("README.md"), encoding: .utf8)
        let marker = "<!-- explore identity-\(mode) pitfalls: `swift run groupsim explore Scenarios/identity-\(mode).yaml --runs 200`; " +
            "a test compares it -->\n```text\n"
        let block = try #require(readme.components(separatedBy: marker).dropFirst().first?.components(separatedBy: "```").first,
                                 "README has no explore block for \(mode)")
        let result = await CLI.run(["explore", CLI.path("Scenarios/identity-\(mode).yaml"), "--runs", "200"])
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("Pitfalls") })
        let end = lines[start...].firstIndex { $0.isEmpty } ?? lines.endIndex
        let shown = lines[start..<end].joined(separator: "\n") + "\n"
        #expect(block == shown, "regenerate the README block for \(mode)")
    }
}
