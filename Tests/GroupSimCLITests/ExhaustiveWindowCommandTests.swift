import Testing
import GroupSimCLI

/// `groupsim explore Scenarios/pickles-race-window.yaml --exhaustive`
/// exits 1 and reports the failing orders.
@Suite struct ExhaustiveWindowCommandTests {
    @Test func theWindowRaceFailsWithItsOrders() async {
        let result = await CLI.run(["explore", CLI.path("Scenarios/pickles-race-window.yaml"), "--exhaustive"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("FAIL"))
        #expect(result.output.contains("failing orders (all "))
        let orders = result.output.split(separator: "\n").filter { $0.hasPrefix("    order: ") }
        #expect(!orders.isEmpty)
        #expect(orders.allSatisfy { $0.contains("step 2 on bob-phone") && $0.contains("step 3 on carol-phone") })
    }
}
