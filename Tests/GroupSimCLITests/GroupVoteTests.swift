import Foundation
import Testing
import GroupSim
import GroupSimBench
@testable import GroupSimCLI

/// Verdicts at the size of real groups: exhaustive exploration factored per device gives
/// exact counts far past what enumeration reaches, and the text report stays one screen.
@Suite struct GroupVoteTests {
    /// 5 people and 6 devices (Alice has a phone and an iPad), 4 replies within a
    /// millisecond: 24 × 24 × 6^4 = 746,496 orders (docs/exploration.md, "Factoring").
    static let sixDevices = """
    name: six-devices
    seed: 3
    people:
      alice: [alice-phone, alice-ipad]
      bob: [bob-phone]
      carol: [carol-phone]
      dan: [dan-phone]
      erin: [erin-phone]
    network: { latency: 50ms, jitter: 20ms }
    steps:
      - at: 0ms
        device: alice-phone
        send: { session: vote, data: { q: lunch } }
      - at: 500ms
        race:
          within: 1ms
          steps:
            - { device: bob-phone, reply: { session: vote, data: { bob: yes } } }
            - { device: carol-phone, reply: { session: vote, data: { carol: yes } } }
            - { device: dan-phone, reply: { session: vote, data: { dan: yes } } }
            - { device: erin-phone, reply: { session: vote, data: { erin: yes } } }
    expect:
      - latest: { device: alice-phone, session: vote, from: bob }
      - converged: vote
    """

    @Test func sixDevicesCountExactly() async throws {
        let scenario = try ScenarioParser.parse(text: Self.sixDevices, file: "six.yaml")
        let report = try await Explorer(scenario: scenario).exhaustive()
        #expect(report.runs == 746_496)
        // Alice's phone shows Bob's reply last in 6 of its 24 orders: 18 × 24 × 6^4 fail.
        #expect(report.checks.map(\.failedRuns) == [559_872, 746_496])
        #expect(report.factoring?.dependentOrders == 1 && report.factoring?.largestFactor == 24)
        #expect(report.outcomes(of: "vote", on: "alice-ipad").map(\.runs) == [186_624, 186_624, 186_624, 186_624])
        // Every order is one of the failing ones listed, and it replays to the same verdicts.
        let failure = try #require(report.firstFailure)
        let replayed = try await Explorer(scenario: scenario).replay(failure, of: report)
        #expect(replayed.checks.indices.filter { !replayed.checks[$0].passed } == failure.failedChecks)
    }

    /// 8 people × 3 devices, 5 votes: the asker's 3 devices, the voters' other 10 and the
    /// 6 devices of the two who do not vote each receive all 5 replies (120 orders); each
    /// voter's phone receives the other 4 (24). No device can show every vote, so
    /// `converged` fails in every order.
    @Test func aGroupVoteIsCountedPerDevice() async throws {
        let scenario = BenchWorkload.groupVote(people: 8)
        let report = try await Explorer(scenario: scenario).exhaustive()
        var expected = ExactCount.one
        for _ in 0..<19 { expected *= 120 }
        for _ in 0..<5 { expected *= 24 }
        #expect(report.runs == expected)
        let fifth = expected.quotientAndRemainder(dividingBy: 5).quotient
        #expect(report.checks.map(\.failedRuns) == [expected - fifth, expected])
        #expect(report.runs.readable == "2.543 × 10^46")
        // One class holds most orders: five different views of the vote.
        #expect(report.classes.first?.shown.count == 5)
        let text = ExplorationTextReport.render(report)
        #expect(text.split(separator: "\n").count <= 60, "\(text)")
        #expect(text.contains("2.543 × 10^46 distinct delivery orders"))
    }

    /// The JSON report writes counts of any size with every digit, and reads them back.
    @Test func hugeCountsRoundTripInJSON() async throws {
        let report = try await Explorer(scenario: BenchWorkload.groupVote(people: 8)).exhaustive()
        let json = ExplorationJSONReport.render(report)
        #expect(json.contains("\"runs\": \(report.runs.description)"))
        #expect(try ExplorationJSONReport.parse(json) == report)
    }

    /// A 96-device group's random exploration prints one screen by default, and every
    /// device's line with --full.
    @Test func theTextReportStaysOneScreen() async throws {
        let scenario = BenchWorkload.groupVote(people: 32)
        let report = try await Explorer(scenario: scenario, workers: 2).explore(runs: 20, seed: 1)
        let short = ExplorationTextReport.render(report)
        #expect(short.split(separator: "\n").count <= 60, "\(short)")
        #expect(short.contains("device lines left out; --full prints every device's outcomes"))
        let full = ExplorationTextReport.render(report, full: true)
        #expect(full.split(separator: "\n").filter { $0.hasPrefix("    p") && $0.contains(" vote: ") }.count >= 96)
    }

    /// `--no-factor` goes with `--exhaustive` only.
    @Test func noFactorNeedsExhaustive() async {
        let result = await CLI.run(["explore", CLI.path("Scenarios/pickles-race.yaml"), "--no-factor"])
        #expect(result.status == 2 && result.error.contains("--no-factor goes with --exhaustive"), "\(result.error)")
    }
}
