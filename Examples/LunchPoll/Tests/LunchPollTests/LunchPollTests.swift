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

@Suite struct LunchPollTests {
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
