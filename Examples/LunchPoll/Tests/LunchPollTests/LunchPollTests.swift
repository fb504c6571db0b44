import Foundation
import GroupSim
import GroupSimMessages
import GroupSimTesting
import LunchPoll
import Testing

/// Alice asks where to eat; two people answer within 20 ms of each other: Bob and Carol,
/// or (`small`, two phones: far fewer delivery orders to explore) Alice and Bob.
func lunchRace(app: String, state: String, small: Bool = false) throws -> Scenario {
    let people = small ? "{ alice: [alice-phone], bob: [bob-phone] }"
        : "{ alice: [alice-phone], bob: [bob-phone, bob-ipad], carol: [carol-phone] }"
    let (first, second) = small ? ("alice", "bob") : ("bob", "carol")
    return try ScenarioParser.parse(text: """
        name: lunch-race-\(app)
        people: \(people)
        network: { latency: 50ms, jitter: 30ms }
        app: { name: \(app), state: \(state) }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: lunch, data: { q: lunch } } }
          - at: 1s
            race:
              within: 20ms
              steps:
                - { device: \(first)-phone, reply: { session: lunch, data: { \(first): pizza } } }
                - { device: \(second)-phone, reply: { session: lunch, data: { \(second): sushi } } }
        expect:
          - converged: lunch
          - complete: { session: lunch, data: { \(first): pizza, \(second): sushi } }
        """, file: "lunch-race-\(app).yaml", registeredApps: lunchApps().names)
}

/// A full group votes: `people` people with three devices each, the first asks, and
/// `votes` of the others answer within 5 ms of each other, 50 ms before any copy arrives.
func lunchVote(app: String, state: String, people: Int, votes: Int = 5) throws -> Scenario {
    let group = (0..<people).map { "p\($0): [p\($0)-d0, p\($0)-d1, p\($0)-d2]" }.joined(separator: ", ")
    let answers = (1...votes).map { "            - { device: p\($0)-d0, reply: { session: lunch, data: { p\($0): pizza } } }" }
    return try ScenarioParser.parse(text: """
        name: lunch-vote-\(app)
        people: { \(group) }
        network: { latency: 50ms, jitter: 20ms }
        app: { name: \(app), state: \(state) }
        steps:
          - { at: 0ms, device: p0-d0, send: { session: lunch, data: { q: lunch } } }
          - at: 500ms
            race:
              within: 5ms
              steps:
        \(answers.joined(separator: "\n"))
        expect:
          - latest: { device: p0-d0, session: lunch, from: p1 }
          - converged: lunch
        """, file: "lunch-vote-\(app).yaml", registeredApps: lunchApps().names)
}

@Suite struct LunchPollTests {
    /// People in the groups the full-group tests decide: 32 (96 devices) with
    /// `GROUPSIM_FULL_TESTS=1`, else 8, so that a debug `swift test` stays quick.
    static let groupSize = ProcessInfo.processInfo.environment["GROUPSIM_FULL_TESTS"] == "1" ? 32 : 8

    /// The URL variant reads the poll only when the user taps a bubble: on an arrival it
    /// does nothing another device could see, so `--exhaustive` counts each device's
    /// arrival orders apart and decides the whole group. Every device but the voters'
    /// phones receives all five answers (120 orders), each voter's phone the other four
    /// (24); the asker's phone shows p1's answer last in a fifth of its orders, and no
    /// device shows every vote (the lost update), so `converged` fails in every order.
    @Test func theURLVariantIsDecidedInAFullGroup() async throws {
        let people = Self.groupSize
        let scenario = try lunchVote(app: "lunch", state: "message", people: people)
        let report = try await Explorer(scenario: scenario, apps: lunchApps()).exhaustive()
        var orders = ExactCount.one
        for _ in 0..<(3 * people - 5) { orders *= 120 }
        for _ in 0..<5 { orders *= 24 }
        #expect(report.runs == orders)
        let fifth = orders.quotientAndRemainder(dividingBy: 5).quotient
        #expect(report.checks.map(\.failedRuns) == [orders - fifth, orders])
        let factoring = try #require(report.factoring)
        #expect(factoring.fallback == nil && factoring.unfactored.isEmpty, "\(factoring.summary)")
        #expect(factoring.devices.count == 3 * people && factoring.dependentOrders == 1, "\(factoring.summary)")
        print("lunch vote (URL), \(people) x 3 devices: \(report.runs.readable) orders, \(factoring.summary)")
    }

    /// The cloud variant also acts only on taps (a tap fetches; a vote fetches, saves
    /// over the version read and stages the bubble): its devices' arrival orders are
    /// counted apart too, and only the voters' round trips to the store are enumerated.
    /// Those grow fast with the voters (every save may be refused and retried), so the
    /// full group is decided with two votes.
    @Test func theCloudVariantIsDecidedInAFullGroupWithTwoVotes() async throws {
        let people = Self.groupSize
        let scenario = try lunchVote(app: "lunch-cloud", state: "cloud-merge", people: people, votes: 2)
        let report = try await Explorer(scenario: scenario, apps: lunchApps()).exhaustive()
        let factoring = try #require(report.factoring)
        #expect(factoring.fallback == nil && factoring.unfactored.isEmpty, "\(factoring.summary)")
        #expect(factoring.devices.count == 3 * people - 2, "\(factoring.summary)")
        #expect(report.runs > ExactCount(factoring.dependentOrders))
        print("lunch vote (cloud), \(people) x 3 devices, 2 votes: \(report.runs.readable) orders, \(factoring.summary)")
    }

    /// The URL variant loses a vote when two people answer at once: exploration finds
    /// lost updates and divergence, and the failing seed replays the same failure.
    @Test func urlVariantLosesVotesInARace() async throws {
        let scenario = try lunchRace(app: "lunch", state: "message")
        let apps = lunchApps()
        let report = try await Explorer(scenario: scenario, apps: apps).explore(runs: 200, seed: 1)
        let lost = report.pitfalls.first { $0.kind == .lostUpdate }?.runs ?? 0
        let diverged = report.pitfalls.first { $0.kind == .divergence }?.runs ?? 0
        let failure = try #require(report.firstFailure, "the race never lost a vote in \(report.runs) runs")
        print("""
            URL variant: \(report.failedRuns) of \(report.runs) runs failed; lost-update in \(lost), divergence in \(diverged); \
            replay: seed \(failure.reference.seed)
            """)
        #expect(lost > 0)
        #expect(diverged > 0)

        // Replay the failing run in-process: the same seed gives the same failure.
        let replay = try await scenario.run(seed: failure.reference.seed, apps: apps)
        #expect(!replay.passed)
        #expect(replay.pitfalls.contains { $0.kind == .lostUpdate })
    }

    /// The cloud variant saves conditionally and merges on conflict: in every delivery
    /// order of the exhaustive exploration the devices converge and keep both votes.
    @Test func cloudVariantConvergesInEveryOrder() async throws {
        let scenario = try lunchRace(app: "lunch-cloud", state: "cloud-merge", small: true)
        let report = try await Explorer(scenario: scenario, apps: lunchApps()).exhaustive()
        print("cloud variant: \(report.failedRuns) of \(report.runs) delivery orders failed; converged and complete held in the others")
        #expect(report.runs > 1)
        for check in report.checks {
            #expect(check.failedRuns == 0, "\(check.text) failed in \(check.failedRuns) of \(report.runs) orders")
        }
        #expect(report.pitfalls.allSatisfy { $0.runs == 0 }, "\(report.pitfalls)")
    }

    /// One phone, step by step: the poll's callbacks, what it sends and what it stages.
    @Test func harnessDrivesOnePhone() async throws {
        let harness = try ExtensionHarness(apps: lunchApps(), app: "lunch")
        await harness.open(.compact)
        try await harness.expect(callbacks: [.willBecomeActive, .didBecomeActive])
        await harness.send("poll", data: ["q": "lunch"])
        try await harness.expect(callbacks: [.userDidCompose, .didStartSending], sent: ["?q=lunch"], staged: .some(nil))
        await harness.receive(from: "bob", session: "poll", url: "?bob=pizza&q=lunch")
        try await harness.expect(callbacks: [.didReceive])
        await harness.reply("poll", data: ["me": "sushi"])
        try await harness.expect(sent: ["?bob=pizza&me=sushi&q=lunch"])
    }
}
