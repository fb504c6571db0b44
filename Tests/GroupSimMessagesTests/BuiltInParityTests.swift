import Foundation
import GroupSim
import GroupSimBench
import GroupSimMessages
import Testing

/// A controller that keeps its state in the URL runs exactly as the built-in app does:
/// the same trace, event for event, so every rule the built-in app follows holds for it
/// (fresh instance per activation, callbacks in order, identifiers, collapse, M10-M24).
@Suite struct BuiltInParityTests {
    static let files = ["pickles-race.yaml", "pickles-sequential.yaml", "lifecycle-callbacks.yaml", "reinstall-reset.yaml",
                        "identifiers-per-device.yaml", "url-rules.yaml", "offline-catch-up.yaml"]

    @Test(arguments: files)
    func controllerGivesTheBuiltInAppsTrace(file: String) async throws {
        let path = ExampleBuildTests.root.appendingPathComponent("Scenarios/\(file)").path
        let scenario = try ScenarioParser.load(path: path)
        try #require(scenario.app.name == nil && scenario.app.state == .message)
        var custom = scenario
        custom.app.name = "url-state"
        var apps = AppRegistry()
        apps.register("url-state") { URLPollController() }
        let builtIn = try await scenario.run()
        let controller = try await custom.run(apps: apps)
        #expect(controller.digest == builtIn.digest, "\(file): the controller's run differs from the built-in app's")
        #expect(controller.checks.map(\.passed) == builtIn.checks.map(\.passed))
        #expect(controller.pitfalls.map(\.kind) == builtIn.pitfalls.map(\.kind))
    }
}
