import Foundation
import Testing
import GroupSimCLI
import GroupSimTesting

@Suite struct RunCommandTests {
    /// Every scenario in Scenarios/ runs twice with the same digest (determinism rule 6, README) and
    /// all its checks hold (exit 0).
    @Test(arguments: CLI.scenarioFiles)
    func everyScenarioIsDeterministicAndHolds(file: String) async throws {
        let first = await CLI.run(["run", CLI.path(file)])
        let second = await CLI.run(["run", CLI.path(file)])
        #expect(first.status == 0, "\(file): \(first.error)\(first.output.split(separator: "\n").filter { $0.contains("FAIL") })")
        let digest = first.output.split(separator: "\n").last { $0.hasPrefix("trace: ") }
        #expect(digest != nil)
        #expect(digest?.count == 7 + 64)
        #expect(first.output == second.output)
    }

    @Test func scenariosExist() {
        #expect(CLI.scenarioFiles.contains("Scenarios/pickles-race.yaml"))
        #expect(CLI.scenarioFiles.count >= 3)
    }

    /// Three transcripts with different live bubbles (M12).
    @Test func picklesRaceShowsThreeDifferentLiveBubbles() async throws {
        let result = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml")])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        let bubbles = lines.filter { $0.hasPrefix("    bubble ") }
        #expect(bubbles.contains { $0.contains("from Bob: \"Bob picked tomatoes\"") })
        #expect(bubbles.contains { $0.contains("from Carol: \"Carol picked pickles\"") })
        #expect(bubbles.contains { $0.contains("from Alice: \"Alice picked olives\"") })
        #expect(result.output.contains("7 of 7 checks held"))
    }

    /// `--seed` changes the run; the same seed gives the same digest.
    @Test func seedOverride() async throws {
        let file = CLI.path("Scenarios/pickles-race.yaml")
        let a = await CLI.run(["run", file, "--seed", "99"])
        let b = await CLI.run(["run", file, "--seed=99"])
        let c = await CLI.run(["run", file])
        #expect(a.output == b.output)
        #expect(a.output.contains("(seed 99)"))
        #expect(c.output.contains("(seed 7)"))
    }

    /// `--format json`: one object with seed, trace, checks (boolean passed), pitfalls
    /// (with kind) and devices (with transcript).
    @Test func jsonFormat() async throws {
        let result = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml"), "--format", "json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["seed"] as? String == "7")
        let trace = try #require(object["trace"] as? String)
        #expect(trace.count == 64)
        let checks = try #require(object["checks"] as? [[String: Any]])
        #expect(checks.count == 7)
        #expect(checks.allSatisfy { $0["passed"] as? Bool == true })
        let pitfalls = try #require(object["pitfalls"] as? [[String: Any]])
        #expect(Set(pitfalls.compactMap { $0["kind"] as? String }) == ["lost-update", "divergence"])
        let devices = try #require(object["devices"] as? [[String: Any]])
        #expect(devices.compactMap { $0["name"] as? String } == ["alice-phone", "bob-phone", "bob-ipad", "carol-phone"])
        #expect(devices.allSatisfy { ($0["transcript"] as? [[String: Any]])?.isEmpty == false })
        let text = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml")])
        #expect(text.output.hasSuffix("trace: \(trace)\n"))
    }

    /// A failing check exits 1 and says FAIL with what was found.
    @Test func failingCheckExitsOne() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let file = try CLI.temporaryFile(in: scratch, "fails.yaml", """
        name: fails
        people:
          alice: [alice-phone]
          bob: [bob-phone]
        steps:
          - at: 0ms
            device: alice-phone
            send: { session: poll, data: { q: a } }
        expect:
          - latest: { device: bob-phone, session: poll, from: bob }

        """)
        let result = await CLI.run(["run", file])
        #expect(result.status == 1)
        #expect(result.output.contains("FAIL  latest bob-phone poll from=bob"))
        #expect(result.output.contains("bob-phone shows m1 from alice"))
    }

    @Test func outputFile() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let target = try CLI.temporaryFile(in: scratch, "report.json", "")
        let result = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml"), "--format", "json", "--output", target])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("wrote \(target)"))
        let written = try String(contentsOfFile: target, encoding: .utf8)
        #expect(written.hasPrefix("{"))
    }

    @Test func help() async {
        let general = await CLI.run(["help"])
        #expect(general.status == 0)
        #expect(general.output.contains("groupsim run FILE"))
        let run = await CLI.run(["run", "--help"])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("Usage: groupsim run FILE"))
        let none = await CLI.run([])
        #expect(none.status == 2)
    }
}

@Suite struct ReadmeTests {
    /// The README shows the real output of its first scenario, so it stays true.
    @Test func readmeShowsTheRealOutputOfPicklesRace() async throws {
        let readme = try String(contentsOfFile: CLI.path("README.md"), encoding: .utf8)
        let marker = "<!-- BEGIN pickles-race output"
        let block = try #require(readme.components(separatedBy: marker).dropFirst().first)
        let shown = try #require(block.components(separatedBy: "```text\n").dropFirst().first?.components(separatedBy: "```\n").first)
        let result = await CLI.run(["run", "Scenarios/pickles-race.yaml"].map { $0.hasPrefix("Scenarios") ? CLI.path($0) : $0 })
        #expect(shown == result.output, "regenerate the README block with: swift run groupsim run Scenarios/pickles-race.yaml")
    }

    /// The two set-up commands are in the README.
    @Test func readmeHasTheTwoCommands() throws {
        let readme = try String(contentsOfFile: CLI.path("README.md"), encoding: .utf8)
        #expect(readme.contains("swift run groupsim run Scenarios/pickles-race.yaml"))
        #expect(readme.contains("swift test"))
    }
}
