import GroupSim
import GroupSimBench
import GroupSimMessages
import GroupSimTesting
import Testing

/// A registered controller that reads only on tap (`URLPollController`: the built-in app's
/// `message` mode written against the Messages API, in the IceCreamBuilder structure) in
/// the group vote of `groupsim bench --scale`: nothing it does on an arrival reaches
/// another device, so every device's arrival orders are counted apart, and the counts
/// are the built-in app's (which its own oracle checks against plain enumeration).
@Suite struct ControllerGroupVoteTests {
    /// People in the group (3 devices each): 6 by default (the asker and five voters),
    /// the full 32 with the full samples (`TestSampling`).
    static let people = TestSampling.count(default: 6, full: 32)

    @Test func aControllerThatReadsOnTapIsDecidedInAFullGroup() async throws {
        let builtIn = BenchWorkload.groupVote(people: Self.people)
        var controlled = builtIn
        controlled.app.name = URLPollController.name
        var apps = AppRegistry()
        apps.register(URLPollController.name) { URLPollController() }
        let report = try await Explorer(scenario: controlled, apps: apps).exhaustive()
        let reference = try await Explorer(scenario: builtIn).exhaustive()
        // Every device but the 5 voters' phones receives all 5 votes (120 orders), each
        // voter's phone the other 4 (24).
        var expected = ExactCount.one
        for _ in 0..<(3 * Self.people - 5) { expected *= 120 }
        for _ in 0..<5 { expected *= 24 }
        #expect(report.runs == expected)
        #expect(report.checks.map(\.failedRuns) == reference.checks.map(\.failedRuns))
        #expect(report.classes == reference.classes)
        let factoring = try #require(report.factoring)
        #expect(factoring.fallback == nil && factoring.unfactored.isEmpty, "\(factoring.summary)")
        #expect(factoring.devices.count == 3 * Self.people && factoring.dependentOrders == 1)
        print("controller vote, \(Self.people) x 3: \(report.runs.readable) orders; failing \(report.checks.map(\.failedRuns.readable))")
    }
}
