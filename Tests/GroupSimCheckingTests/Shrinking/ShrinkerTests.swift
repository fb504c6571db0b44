import Testing
@testable import GroupSim
@testable import GroupSimScenario
@testable import GroupSimChecking

/// `Shrinker` turns a failing run into a smaller scenario file that still fails the same
/// check, here on the lost update of M12.
@Suite struct ShrinkerTests {
    /// Six devices: Alice's poll, a plain text, four replies racing within 5ms and a late
    /// tap. The app keeps its state in the message URL, so the racing replies overwrite
    /// each other and the `complete` check fails (M12).
    static let sixDevices = """
        name: six-way-poll
        about: |
          Five people answer Alice's poll within a few milliseconds (M12).
        seed: 3
        people:
          alice: [alice-phone]
          bob: [bob-phone, bob-ipad]
          carol: [carol-phone]
          dave: [dave-phone]
          erin: [erin-phone]
        network:
          latency: 50ms
          jitter: 10ms
          links:
            - { from: dave, to: erin, latency: 70ms }
        steps:
          - at: 0ms
            device: alice-phone
            send: { session: poll, caption: "Pick a topping", summary: "$me asked", data: { q: topping } }
          - at: 300ms
            device: dave-phone
            text: "I'm in"
          - at: 500ms
            race:
              within: 5ms
              steps:
                - { device: bob-phone, reply: { session: poll, data: { bob: tomatoes }, caption: "$me picked tomatoes" } }
                - { device: carol-phone, reply: { session: poll, data: { carol: pickles }, caption: "$me picked pickles" } }
                - { device: dave-phone, reply: { session: poll, data: { dave: olives } } }
                - { device: erin-phone, reply: { session: poll, data: { erin: onions } } }
          - at: 2s
            device: erin-phone
            tap: poll
        expect:
          - latest: { device: alice-phone, session: poll }
          - complete: { session: poll, data: { bob: tomatoes, carol: pickles } }
        """

    static let completeCheck = Scenario.Check.complete(session: "poll", data: [Scenario.DataEntry("bob", "tomatoes"), Scenario.DataEntry("carol", "pickles")])

    /// Six devices shrink to at most three, and the printed file,
    /// read back and run, still fails the same check.
    @Test func sixDevicesShrinkToAtMostThreeThatStillFail() async throws {
        let scenario = try ScenarioParser.parse(text: Self.sixDevices, file: "six.yaml")
        #expect(scenario.devices.count == 6)
        #expect(try await scenario.run().passed == false)

        let result = try await Shrinker().shrink(scenario, seed: 3)
        #expect(result.check == Self.completeCheck)
        #expect(result.reproduces)
        #expect(result.scenario.devices.count <= 3)
        #expect(result.scenario.steps.count < scenario.steps.count)
        #expect(result.attempts <= 500)
        // Only the failing check is kept; the passing `latest` is gone.
        #expect(result.scenario.checks.map(\.check) == [Self.completeCheck])

        let reread = try ScenarioParser.parse(text: result.yaml, file: "shrunk.yaml")
        #expect(reread.seed == 3)
        let report = try await reread.run()
        #expect(report.checks.map(\.spec.check) == [Self.completeCheck])
        #expect(report.checks.first?.passed == false)
        // Still a lost update (M12): both racing replies are kept, not removed to fail trivially.
        #expect(report.pitfalls.contains { $0.kind == .lostUpdate })
        let writers = Set(report.outcome.changes.flatMap(\.entries))
        #expect(writers.isSuperset(of: [Scenario.DataEntry("bob", "tomatoes"), Scenario.DataEntry("carol", "pickles")]))
    }

    @Test func shrinkingIsDeterministic() async throws {
        let scenario = try ScenarioParser.parse(text: Self.sixDevices, file: "six.yaml")
        let first = try await Shrinker().shrink(scenario, seed: 3)
        let second = try await Shrinker().shrink(scenario, seed: 3)
        #expect(first.yaml == second.yaml)
        #expect(first.attempts == second.attempts)
    }

    @Test func lowersLatenciesAndDropsUnneededLinks() async throws {
        let scenario = try ScenarioParser.parse(text: Self.sixDevices, file: "six.yaml")
        let result = try await Shrinker().shrink(scenario, seed: 3)
        #expect(result.scenario.network.links.isEmpty)
        #expect(result.scenario.network.latency < scenario.network.latency)
    }

    @Test func aRunThatFailsNothingIsNotShrunk() async throws {
        var scenario = try ScenarioParser.parse(text: Self.sixDevices, file: "six.yaml")
        scenario.checks.removeLast()
        let result = try await Shrinker().shrink(scenario, seed: 3)
        #expect(result.check == nil)
        #expect(!result.reproduces)
        #expect(result.attempts == 0)
        #expect(result.scenario.devices.count == 6)
    }

    @Test func respectsTheAttemptCap() async throws {
        let scenario = try ScenarioParser.parse(text: Self.sixDevices, file: "six.yaml")
        let result = try await Shrinker().shrink(scenario, seed: 3, maxAttempts: 4)
        #expect(result.attempts <= 4)
        #expect(result.check == Self.completeCheck)
        let report = try await (try ScenarioParser.parse(text: result.yaml, file: "shrunk.yaml")).run()
        #expect(report.checks.first?.passed == false)
    }

    /// An `error:` check names a step by number: that step is kept and renumbered as the
    /// steps before it go. Here step 5 taps Send with nothing staged, which fails with
    /// `noDraft` (M16), not the `noBubble` the check expects.
    @Test func renumbersTheStepOfAnErrorCheck() async throws {
        let text = """
            name: wrong-error
            people:
              alice: [alice-phone]
              bob: [bob-phone]
              carol: [carol-phone]
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
              - { at: 100ms, device: bob-phone, text: hi }
              - { at: 200ms, device: carol-phone, text: hello }
              - { at: 300ms, device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }
              - { at: 400ms, device: carol-phone, press-send: true }
            expect:
              - error: { step: 5, code: noBubble }
            """
        let scenario = try ScenarioParser.parse(text: text, file: "wrong-error.yaml")
        let result = try await Shrinker().shrink(scenario, seed: 1)
        guard case .error(let step, let code)? = result.check else {
            Issue.record("expected an error check, found \(String(describing: result.check))")
            return
        }
        #expect(code == .noBubble)
        #expect(result.scenario.steps.count < 5)
        let kept = result.scenario.steps.first { $0.number == step }
        #expect(kept?.device == "carol-phone")
        #expect(kept?.action == .pressSend)
        let report = try await (try ScenarioParser.parse(text: result.yaml, file: "shrunk.yaml")).run()
        #expect(report.checks.first?.passed == false)
        #expect(report.outcome.failures.contains { $0.step == step && $0.code == .noDraft })
    }

    /// A `latest` check whose expected sender did reply keeps that reply: the shrunk
    /// scenario fails because another bubble arrived last, not because Bob never replied.
    @Test func keepsTheSenderALatestCheckExpects() async throws {
        var scenario = try ScenarioParser.parse(text: Self.sixDevices, file: "six.yaml")
        let check = Scenario.Check.latest(device: "carol-phone", session: "poll", from: "bob", data: [], caption: nil)
        scenario.checks = [Scenario.CheckSpec(check)]
        let original = try await scenario.run(seed: 3)
        try #require(original.checks.first?.passed == false)

        let result = try await Shrinker().shrink(scenario, seed: 3)
        #expect(result.check == check)
        let report = try await (try ScenarioParser.parse(text: result.yaml, file: "shrunk.yaml")).run()
        #expect(report.checks.first?.passed == false)
        let bobSent = report.outcome.trace.events.contains { event in
            guard case .sent(_, "poll"?, _) = event.kind else { return false }
            return event.subject == "bob-phone"
        }
        #expect(bobSent)
        // Alice (who sends the poll), Bob, Carol (whose phone is checked) and one other
        // replier whose bubble reaches Carol last: nothing smaller still fails.
        #expect(result.scenario.devices.count <= 4)
    }
}
