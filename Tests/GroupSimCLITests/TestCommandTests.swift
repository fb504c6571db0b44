import Foundation
import Testing
import GroupSimCLI
import GroupSim
import GroupSimTesting

/// `groupsim test` runs folders of scenarios for CI; `groupsim schema` prints the schema
/// the scenario files point to.
@Suite struct TestCommandTests {
    static let failing = """
        name: failing
        people: { alice: [alice-phone], bob: [bob-phone] }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: x } } }
        expect:
          - converged: poll
          - latest: { device: bob-phone, session: poll, from: bob }
        """

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func scenariosFolderPassesWithOneLinePerFile() async throws {
        let result = await CLI.run(["test", CLI.path("Scenarios")])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n")
        let files = CLI.scenarioFiles
        #expect(lines.filter { $0.hasPrefix("PASS  ") }.count == files.count)
        let race = try #require(lines.first { $0.contains("Scenarios/pickles-race.yaml") })
        let run = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml")])
        let digest = try #require(run.output.split(separator: "\n").last { $0.hasPrefix("trace: ") }?.dropFirst(7).prefix(16))
        #expect(race.hasSuffix("pickles-race.yaml  7 of 7 checks held  4 pitfalls  trace \(digest)"))
        #expect(lines.last == "\(files.count) files: \(files.count) passed, 0 failed; 161 of 161 checks held; 37 pitfalls")
    }

    @Test func junitHasOneTestcasePerCheck() async throws {
        let folder = try TemporaryFolder.create("test-command-junit")
        defer { TemporaryFolder.remove(folder) }
        let xml = folder.appendingPathComponent("out.xml").path
        let result = await CLI.run(["test", CLI.path("Scenarios"), "--junit", xml])
        #expect(result.status == 0)
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        var checks = 0
        for file in CLI.scenarioFiles {
            checks += try ScenarioParser.load(path: CLI.path(file)).checks.count
        }
        #expect(Self.count("<testcase ", in: text) == checks)
        #expect(text.contains("<testsuites name=\"groupsim\" tests=\"\(checks)\" failures=\"0\" errors=\"0\">"))
        #expect(Self.count("<testsuite ", in: text) == CLI.scenarioFiles.count)
        #expect(!text.contains("<failure"))
    }

    @Test func aFailingFileFailsWithAFailingTestcaseAndAnAnnotationAtItsLine() async throws {
        let folder = try TemporaryFolder.create("test-command-failing")
        defer { TemporaryFolder.remove(folder) }
        let file = folder.appendingPathComponent("failing.yaml").path
        try Self.failing.write(toFile: file, atomically: true, encoding: .utf8)
        let xml = folder.appendingPathComponent("out.xml").path
        let result = await CLI.run(["test", file, CLI.path("Scenarios/pickles-race.yaml"), "--junit", xml, "--format", "github"])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines[0] == "FAIL  \(file)  1 of 2 checks held  0 pitfalls  trace " + lines[0].suffix(16))
        #expect(lines[1] == "::error file=\(file),line=7,title=check failed%3A latest bob-phone poll from=bob::"
            + "latest bob-phone poll from=bob: bob-phone shows m1 from alice with {q: x}, caption no caption%0Areplay: groupsim run " +
                "\(file) --seed 1")
        #expect(lines[2].hasPrefix("PASS  "))
        #expect(lines[3] == "2 files: 1 passed, 1 failed; 8 of 9 checks held; 4 pitfalls")
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        #expect(text.contains("failures=\"1\""))
        #expect(text.contains("<testcase classname=\"\(file)\" name=\"line 7: latest bob-phone poll from=bob\" file=\"\(file)\" " +
            "line=\"7\">"))
        #expect(text.contains("<failure message=\"bob-phone shows m1 from alice with {q: x}, caption no caption\" type=\"check\">"))
        #expect(text.contains("replay: groupsim run \(file) --seed 1</failure>"))
        #expect(text.contains("<testcase classname=\"\(file)\" name=\"line 6: converged poll\" file=\"\(file)\" line=\"6\"/>"))
    }

    @Test func exploreFindsWhatOneRunMisses() async throws {
        let window = CLI.path("Scenarios/pickles-race-window.yaml")
        let once = await CLI.run(["test", window])
        #expect(once.status == 0)
        let folder = try TemporaryFolder.create("test-command-explore")
        defer { TemporaryFolder.remove(folder) }
        let xml = folder.appendingPathComponent("out.xml").path
        let explored = await CLI.run(["test", window, "--explore", "50", "--junit", xml, "--format", "github"])
        #expect(explored.status == 1)
        #expect(explored.output.contains("explored: "))
        #expect(explored.output.contains("::error file=\(window),line=40,"))
        let text = try String(contentsOfFile: xml, encoding: .utf8)
        #expect(text.contains("explored runs"))
        #expect(text.contains("replay: groupsim run \(window) --seed "))
    }

    @Test func anInvalidFileIsAnErrorAndOthersStillRun() async throws {
        let folder = try TemporaryFolder.create("test-command-invalid")
        defer { TemporaryFolder.remove(folder) }
        let file = folder.appendingPathComponent("bad.yaml").path
        try "name: bad\npeople: { alice: [a] }\nsteps: []\nnetwork: { latncy: 5ms }\n".write(toFile: file, atomically: true,
            encoding: .utf8)
        let result = await CLI.run(["test", file, CLI.path("Scenarios/pickles-race.yaml"), "--format", "github"])
        #expect(result.status == 2)
        #expect(result.output.contains("ERROR \(file)  \(file):4:12: error: unknown key \"latncy\" in network; did you mean \"latency\"?"))
        #expect(result.output.contains("::error file=\(file),line=4,col=12,title=invalid scenario::unknown key \"latncy\" in network"))
        #expect(result.output.contains("2 files: 1 passed, 0 failed, 1 invalid"))
    }

    @Test func usageErrors() async {
        let missing = await CLI.run(["test", "/nonexistent-groupsim-folder"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("no such file or folder: /nonexistent-groupsim-folder"))
        #expect(await CLI.run(["test", "--explore", "0"]).status == 2)
        #expect(await CLI.run(["test", "--format", "junit"]).status == 2)
        #expect(await CLI.run(["help", "test"]).output.contains("--junit PATH"))
    }

    // MARK: schema

    @Test func schemaCommandPrintsTheCommittedSchema() async throws {
        let result = await CLI.run(["schema"])
        #expect(result.status == 0)
        let committed = try String(contentsOfFile: CLI.path("docs/scenario.schema.json"), encoding: .utf8)
        #expect(result.output == committed, "regenerate with: swift run groupsim schema --output docs/scenario.schema.json")
        _ = try JSONValue.parse(result.output)
        #expect(await CLI.run(["schema", "extra"]).status == 2)
    }

    /// Every scenario file starts with the yaml-language-server line pointing to the schema.
    @Test func scenarioFilesPointToTheSchema() throws {
        for file in CLI.scenarioFiles {
            let text = try String(contentsOfFile: CLI.path(file), encoding: .utf8)
            let first = try #require(text.split(separator: "\n").first)
            let prefix = "# yaml-language-server: $schema="
            #expect(first.hasPrefix(prefix), "\(file)")
            let target = URL(fileURLWithPath: CLI.path(file)).deletingLastPathComponent()
                .appendingPathComponent(String(first.dropFirst(prefix.count))).standardizedFileURL.path
            #expect(target == URL(fileURLWithPath: CLI.path("docs/scenario.schema.json")).standardizedFileURL.path, "\(file)")
        }
    }
}
