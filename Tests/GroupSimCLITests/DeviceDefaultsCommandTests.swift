import Foundation
import GroupSim
import GroupSimCLI
import GroupSimTesting
import Testing

/// A tool of your own whose registered controller keeps its settings in
/// `UserDefaults.standard`: `run --format json` lists each device's own.
@Suite struct DeviceDefaultsCommandTests {
    @Test func jsonReportListsEachDevicesOwnDefaults() async throws {
        let folder = try TemporaryFolder.create("defaults")
        defer { TemporaryFolder.remove(folder) }
        let file = try CLI.temporaryFile(in: folder, "defaults.yaml", DefaultsFixture.text)
        let tool = GroupSimCommand(apps: DefaultsFixture.apps(), toolName: "lunchsim")
        let ran = await tool.run(["run", file, "--format", "json", "--seed", "7"])
        #expect(ran.status == 0, "\(ran.error)")
        let report = try JSONValue.parse(ran.output)
        #expect(DefaultsFixture.mismatches(inJSONReport: report) == [])
        // The same seed lists the same text.
        #expect(await tool.run(["run", file, "--format", "json", "--seed", "7"]).output == ran.output)
    }
}
