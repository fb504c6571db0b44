import Foundation
import GroupSim
import GroupSimMessages
import GroupSimTesting
import IceCreamBuilder
import Testing

/// Alice starts a sundae; Bob adds the scoops; then Carol and Dave both tap the bubble
/// and choose the topping within 20 ms of each other.
func sundaeRace() throws -> Scenario {
    try ScenarioParser.parse(text: """
        name: sundae-race
        people: { alice: [alice-phone], bob: [bob-phone], carol: [carol-phone], dave: [dave-phone] }
        network: { latency: 50ms, jitter: 30ms }
        app: { name: icecream, state: message }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: sundae, data: { base: cone } } }
          - { at: 1s, device: bob-phone, reply: { session: sundae, data: { scoops: mint } } }
          - at: 2s
            race:
              within: 20ms
              steps:
                - { device: carol-phone, reply: { session: sundae, data: { topping: sprinkles } } }
                - { device: dave-phone, reply: { session: sundae, data: { topping: fudge } } }
        expect:
          - converged: sundae
        """, file: "sundae-race.yaml", registeredApps: iceCreamApps().names)
}

/// A full group picks the scoops: `people` people with three devices each, the first
/// starts a sundae, and the next five each choose a flavour within 5 ms of each other,
/// 50 ms before any copy arrives.
func sundaeVote(people: Int) throws -> Scenario {
    let group = (0..<people).map { "p\($0): [p\($0)-d0, p\($0)-d1, p\($0)-d2]" }.joined(separator: ", ")
    let flavours = ["mint", "vanilla", "chocolate", "strawberry", "pistachio"]
    let picks = flavours.indices.map {
        "            - { device: p\($0 + 1)-d0, reply: { session: sundae, data: { scoops: \(flavours[$0]) } } }"
    }
    return try ScenarioParser.parse(text: """
        name: sundae-vote
        people: { \(group) }
        network: { latency: 50ms, jitter: 20ms }
        app: { name: icecream, state: message }
        steps:
          - { at: 0ms, device: p0-d0, send: { session: sundae, data: { base: cone } } }
          - at: 500ms
            race:
              within: 5ms
              steps:
        \(picks.joined(separator: "\n"))
        expect:
          - latest: { device: p0-d0, session: sundae, from: p1 }
          - converged: sundae
        """, file: "sundae-vote.yaml", registeredApps: iceCreamApps().names)
}

@Suite struct IceCreamBuilderTests {
    /// People in the group of `aFullGroupIsDecidedExhaustively`: 32 (96 devices) with
    /// `GROUPSIM_FULL_TESTS=1`, else 8, so that a debug `swift test` stays quick.
    static let groupSize = ProcessInfo.processInfo.environment["GROUPSIM_FULL_TESTS"] == "1" ? 32 : 8

    /// The extension acts only on taps: on an arrival it changes nothing another device
    /// could see (no send, no insert, no storage write), so `--exhaustive` counts each
    /// device's arrival orders apart and decides the whole group. Every device but the
    /// voters' phones receives all five picks (120 orders), each voter's phone the other
    /// four (24); the first person's phone shows p1's pick last in a fifth of its orders,
    /// and no device can show every pick, so `converged` fails in every order.
    @Test func aFullGroupIsDecidedExhaustively() async throws {
        let people = Self.groupSize
        let report = try await Explorer(scenario: try sundaeVote(people: people), apps: iceCreamApps()).exhaustive()
        var orders = ExactCount.one
        for _ in 0..<(3 * people - 5) { orders *= 120 }
        for _ in 0..<5 { orders *= 24 }
        #expect(report.runs == orders)
        let fifth = orders.quotientAndRemainder(dividingBy: 5).quotient
        #expect(report.checks.map(\.failedRuns) == [orders - fifth, orders])
        let factoring = try #require(report.factoring)
        #expect(factoring.fallback == nil && factoring.unfactored.isEmpty, "\(factoring.summary)")
        #expect(factoring.devices.count == 3 * people && factoring.dependentOrders == 1, "\(factoring.summary)")
        print("sundae vote, \(people) x 3 devices: \(report.runs.readable) orders, \(factoring.summary)")
    }

    /// The sample's child controllers: compact shows the history, a tapped bubble shows
    /// the builder for that bubble's sundae, and a choice stages the next message and
    /// dismisses the extension, as Apple's sample does.
    @Test func childControllersFollowThePresentationStyle() async throws {
        let harness = try ExtensionHarness(apps: iceCreamApps(), app: "icecream")
        await harness.open(.compact)
        let compact = try #require(await harness.controller(as: MessagesViewController.self))
        #expect(await MainActor.run { compact.children.count == 1 && compact.view.subviews.count == 1 })
        await harness.send("sundae", data: ["base": "cone"])
        try await harness.expect(callbacks: [.willBecomeActive, .didBecomeActive, .userDidCompose, .willResignActive, .didResignActive],
                                 sent: ["?base=cone"], staged: .some(nil), storage: ["sent-parts": "1"])
        await harness.receive(from: "bob", session: "sundae", url: "?base=cone&scoops=mint")
        await harness.tap("sundae")
        let expanded = try #require(await harness.controller(as: MessagesViewController.self))
        let style = await MainActor.run { expanded.presentationStyle }
        #expect(style == .expanded)
        await harness.reply("sundae", data: ["topping": "fudge"])
        try await harness.expect(sent: ["?base=cone&scoops=mint&topping=fudge"], storage: ["completed": "[cone + mint + fudge]", "sent-parts": "2"])
    }

    /// With the sundae in the URL, two people choosing the topping at once each send a
    /// sundae the other never sees: exploration finds the devices disagreeing.
    @Test func toppingRaceDiverges() async throws {
        let report = try await Explorer(scenario: try sundaeRace(), apps: iceCreamApps()).explore(runs: 100, seed: 1)
        let failure = try #require(report.firstFailure, "the race never diverged in \(report.runs) runs")
        print("sundae race: \(report.failedRuns) of \(report.runs) runs failed; replay: seed \(failure.reference.seed)")
        let replay = try await sundaeRace().run(seed: failure.reference.seed, apps: iceCreamApps())
        #expect(!replay.passed)
    }

    /// The history is kept with UserDefaults' own method names.
    @MainActor @Test func historyUsesUserDefaultsShape() {
        let storage = LocalStorage()
        let history = IceCreamHistory(defaults: storage)
        #expect(history.completed.isEmpty)
        storage.set(["cone + mint + fudge"], forKey: "completed")
        #expect(history.completed == ["cone + mint + fudge"])
    }
}
