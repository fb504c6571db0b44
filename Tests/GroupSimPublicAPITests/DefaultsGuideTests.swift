// docs/extensions.md's "UserDefaults, one per device" and "What GroupSim does not
// control", through the products' public API only. Foundation comes through
// GroupSimMessages, so `UserDefaults` is GroupSim's.
import GroupSim
import GroupSimMessages
import Testing

/// Keeps its last roll in `UserDefaults.standard`; rolls with the system's generator
/// unless the test hands it a seeded one.
final class DiceController: MSMessagesAppViewController {
    var roll: () -> Int = { Int.random(in: 1...6) }

    override func willBecomeActive(with conversation: MSConversation) {
        UserDefaults.standard.set(roll(), forKey: "lastRoll")
    }
}

@Suite struct DefaultsGuideTests {
    @Test func seededRollsKeptOnEachDevice() async throws {
        var apps = AppRegistry()
        apps.register("dice", environment: { environment in
            let controller = DiceController()
            var random = environment.random
            controller.roll = { Int.random(in: 1...1_000_000, using: &random) }
            return controller
        })
        let scenario = try ScenarioParser.parse(text: """
            name: dice
            people: { alice: [alice-phone], bob: [bob-phone] }
            app: { name: dice }
            steps:
              - { at: 0ms, device: alice-phone, open: compact }
              - { at: 0ms, device: bob-phone, open: compact }
            """, file: "dice.yaml", registeredApps: apps.names)
        let rolls = try await scenario.run(seed: 5, apps: apps).outcome.devices.map { $0.localStorage["lastRoll"] }
        #expect(try await scenario.run(seed: 5, apps: apps).outcome.devices.map { $0.localStorage["lastRoll"] } == rolls)
        #expect(rolls.count == 2 && rolls[0] != nil && rolls[1] != nil && rolls[0] != rolls[1], "\(rolls)")
    }
}
