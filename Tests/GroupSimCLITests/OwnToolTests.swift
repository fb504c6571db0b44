import Foundation
import GroupSim
import GroupSimBench
import GroupSimCLI
import Testing
import GroupSimTesting

/// A tool of your own that registers an app built on the Messages API runs the commands
/// itself, and its hints name it: `replay: lunchsim run FILE --seed N`.
@Suite struct OwnToolTests {
    @Test func ownToolNamesItselfInItsHints() async throws {
        var apps = AppRegistry()
        apps.register(URLPollController.name) { URLPollController() }
        var scenario = try ScenarioParser.load(path: CLI.path("Scenarios/pickles-race.yaml"))
        scenario.app.name = URLPollController.name
        scenario.checks = [Scenario.CheckSpec(.converged(session: "poll"))]
        let folder = try TemporaryFolder.create("own-tool")
        defer { TemporaryFolder.remove(folder) }
        let file = folder.appendingPathComponent("url-race.yaml").path
        try ScenarioWriter.yaml(scenario).write(toFile: file, atomically: true, encoding: .utf8)
        let tool = GroupSimCommand(apps: apps, toolName: "lunchsim")
        let explored = await tool.run(["explore", file, "--runs", "50", "--seed", "3", "--quiet"])
        #expect(explored.status == 1, "\(explored.error)")
        #expect(explored.output.contains("replay: lunchsim run \(file) --seed "), "\(explored.output)")
        #expect(!explored.output.contains("groupsim run"))
        let ran = await tool.run(["run", file])
        #expect(!ran.output.contains("groupsim run"), "\(ran.output)")
    }
}
