import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
@testable import GroupSimReporting
import GroupSimTesting

/// Schedule exploration: random runs with derived seeds, workers, shards and
/// merging, and the exhaustive enumeration of delivery orders (M11, M12, M13).
@Suite struct ExplorerTests {
    // MARK: - Scenarios

    /// Alice asks; Bob and Carol answer within `within` of each other at 3s; copies take
    /// 0.3s to 1s (M30); the built-in app keeps its state as `state` says (M12, M13).
    static func pollRace(_ state: Scenario.AppSpec.StateMode, within: VirtualDuration = .seconds(2), checks: [Scenario.Check]) -> Scenario {
        let people = ["alice", "bob", "carol"].map { Scenario.Person(key: $0, devices: ["\($0)-phone"]) }
        let race = VirtualTime(nanoseconds: 3_000_000_000)
        return Scenario(
            name: "poll-race", seed: 1, people: people,
            devices: people.map { Scenario.DeviceSpec(name: "\($0.key)-phone", person: $0.key) },
            conversations: [Scenario.ConversationSpec(members: people.map(\.key))],
            network: Scenario.NetworkSpec(latency: .milliseconds(300), jitter: .milliseconds(700)),
            app: Scenario.AppSpec(state: state, cloudLatency: .milliseconds(250)),
            timeline: [
                .step(Scenario.Step(number: 1, time: .zero, device: "alice-phone",
                           action: .send(Scenario.Compose(session: "poll", data: [Scenario.DataEntry("q", "topping")])))),
                .race(Scenario.Race(time: race, within: within, steps: [
                    Scenario.Step(number: 2, time: race, device: "bob-phone",
                        action: .reply(Scenario.Compose(session: "poll", data: [Scenario.DataEntry("bob", "tomatoes")]))),
                    Scenario.Step(number: 3, time: race, device: "carol-phone",
                        action: .reply(Scenario.Compose(session: "poll", data: [Scenario.DataEntry("carol", "pickles")]))),
                ])),
            ],
            checks: checks.map { Scenario.CheckSpec($0) })
    }

    static let everyPick = [Scenario.DataEntry("q", "topping"), Scenario.DataEntry("bob", "tomatoes"), Scenario.DataEntry("carol", "pickles")]

    /// The three-device race whose orders are counted by hand below.
    static let threeDeviceRace = """
        name: three-device-race
        seed: 1
        people:
          alice: [alice-phone]
          bob: [bob-phone]
          carol: [carol-phone]
        network: { latency: 50ms }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
          - at: 500ms
            race:
              within: 5ms
              steps:
                - { device: alice-phone, reply: { session: poll, data: { alice: olives } } }
                - { device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }
                - { device: carol-phone, text: "brb" }
        expect:
          - diverged: poll
          - latest: { device: carol-phone, session: poll, from: bob }
        """

    // MARK: - Random exploration

    /// Run i's seed comes from (base, i) only: replaying it with `run --seed` gives the
    /// run explore saw, failing the same checks.
    @Test func failingSeedReplaysTheFailure() async throws {
        let scenario = Self.pollRace(.message, checks: [.converged(session: "poll"), .complete(session: "poll", data: Self.everyPick)])
        let report = try await Explorer(scenario: scenario).explore(runs: 60, seed: 3)
        guard let failure = report.firstFailure else {
            Issue.record("a two-second window with 0.3-1s copies races in some runs (M12)")
            return
        }
        #expect(failure.reference.seed == Explorer.seed(forRun: failure.reference.run, base: 3))
        let replay = try await scenario.run(seed: failure.reference.seed)
        #expect(replay.checks.indices.filter { !replay.checks[$0].passed } == failure.failedChecks,
                "replay: groupsim run --seed \(failure.reference.seed)")
        #expect(report.failures.map(\.reference.run) == report.failures.map(\.reference.run).sorted())
        #expect(report.failures.count == min(report.failedRuns.clampedInt, ExplorationReport.failureSampleLimit))
    }

    /// Outcomes per device vary with the draws: at Alice's phone either reply can be the
    /// live bubble (M11, M12), and the counts of each device's rows add up to the runs.
    @Test func outcomeDistributionPerDevice() async throws {
        let scenario = Self.pollRace(.message, checks: [.converged(session: "poll")])
        let report = try await Explorer(scenario: scenario).explore(runs: 200, seed: 1)
        #expect(report.runs == 200)
        #expect(Set(report.outcomes(of: "poll", on: "alice-phone").map(\.shown.from)) == ["bob", "carol"])
        for row in report.outcomes {
            #expect(row.counts.map(\.runs).reduce(0, +) == 200, "\(row.device) \(row.session)")
            #expect(row.counts.map(\.runs) == row.counts.map(\.runs).sorted(by: >))
        }
        #expect(report.checks[0].failedRuns == report.failedRuns)
        #expect(report.pitfalls.map(\.kind) == [.lostUpdate, .divergence])
        #expect(report.pitfalls.allSatisfy { $0.runs == report.failedRuns && $0.rule == "M12" })
        #expect(report.distinctOutcomes == report.classes.count && report.distinctOutcomes > 2)
    }

    /// Identical exploration reports with 1 worker and with 2.
    @Test func sameReportWithOneWorkerAndTwo() async throws {
        let scenario = Self.pollRace(.cloudOverwrite, checks: [.converged(session: "poll"),
            .complete(session: "poll", data: Self.everyPick)])
        let one = try await Explorer(scenario: scenario, workers: 1).explore(runs: 200, seed: 5)
        let two = try await Explorer(scenario: scenario, workers: 2).explore(runs: 200, seed: 5)
        #expect(one == two)
        #expect(ExplorationJSONReport.render(one) == ExplorationJSONReport.render(two))
        #expect(ExplorationTextReport.render(one) == ExplorationTextReport.render(two))
        #expect(one.failedRuns > 0, "cloud-overwrite loses an update when the replies overlap at the store (M13)")
    }

    /// Two shards merge into the report of the whole, in either order and after a
    /// round trip through their JSON files.
    @Test func twoShardsMergeIntoTheWhole() async throws {
        let scenario = Self.pollRace(.message, checks: [.converged(session: "poll"), .complete(session: "poll", data: Self.everyPick)])
        let explorer = Explorer(scenario: scenario, workers: 2)
        let whole = try await explorer.explore(runs: 200, seed: 9)
        let first = try await explorer.explore(runs: 200, seed: 9, shard: try Shard(index: 0, count: 2))
        let second = try await explorer.explore(runs: 200, seed: 9, shard: try Shard(index: 1, count: 2))
        #expect(first.runs == 100 && second.runs == 100)
        #expect(first.shard == ExplorationReport.ShardCoverage(count: 2, indices: [0]))
        #expect(try ExplorationReport.merge([first, second]) == whole)
        #expect(try ExplorationReport.merge([second, first]) == whole)
        let files = [first, second].map(ExplorationJSONReport.render)
        let read = try files.map { text throws(ExplorationError) in try ExplorationJSONReport.parse(text) }
        #expect(read == [first, second])
        #expect(ExplorationJSONReport.render(try ExplorationReport.merge(read)) == ExplorationJSONReport.render(whole))
    }

    /// Shards of different explorations, or the same shard twice, do not merge.
    @Test func mismatchedShardsDoNotMerge() async throws {
        let scenario = Self.pollRace(.message, checks: [.converged(session: "poll")])
        let explorer = Explorer(scenario: scenario)
        let zero = try await explorer.explore(runs: 20, seed: 1, shard: try Shard(index: 0, count: 2))
        let otherSeed = try await explorer.explore(runs: 20, seed: 2, shard: try Shard(index: 1, count: 2))
        let whole = try await explorer.explore(runs: 20, seed: 1)
        #expect(throws: ExplorationError.self) { try ExplorationReport.merge([zero, otherSeed]) }
        #expect(throws: ExplorationError.mismatchedReports("shard 0/2 is given twice: in report 1 and in report 2")) {
            try ExplorationReport.merge([zero, zero])
        }
        #expect(throws: ExplorationError.self) { try ExplorationReport.merge([zero, whole]) }
        #expect(throws: ExplorationError.self) { try Shard(index: 2, count: 2) }
        #expect(try Shard(parsing: "1/4") == Shard(index: 1, count: 4))
        #expect(throws: ExplorationError.self) { try Shard(parsing: "1of4") }
    }

    /// Property test: over 200 seeds, the cloud-merge store keeps both
    /// picks of the race and every device would show the same poll (M13).
    @Test func cloudMergeConvergesOverManySeeds() async throws {
        let scenario = Self.pollRace(.cloudMerge, checks: [.converged(session: "poll"), .complete(session: "poll", data: Self.everyPick)])
        let report = try await Explorer(scenario: scenario, workers: 2).explore(runs: 200, seed: 2024)
        for check in report.checks {
            #expect(check.failedRuns == 0,
                    "\(check.text) failed in \(check.failedRuns) of 200 runs; replay: groupsim run --seed \(check.firstFailure?.seed ?? 0)")
        }
        #expect(report.runs == 200 && report.passed)
    }

    /// Participant UUIDs are minted from each run's seed (M1), so a state holding one is
    /// counted by whose identifier it is on which device, not by the UUID itself (M4).
    @Test func participantIdentifiersInStatesAreNamed() async throws {
        let scenario = try Fixture.scenario(Fixture.group + """
            steps:
              - { at: 0ms, device: alice-phone, send: { session: chores, data: { by: $me } } }
            """)
        let report = try await Explorer(scenario: scenario).explore(runs: 20, seed: 1)
        #expect(report.distinctOutcomes == 1)
        #expect(report.outcomes(of: "chores", on: "carol-phone").map(\.shown.state.description) == ["{by: <alice@alice-phone>}"])
    }

    // MARK: - Exhaustive exploration

    /// Copies held for an offline device arrive in the order they were sent when it is
    /// back (M30), in every explored order too: Carol's phone sees Bob's reply, then
    /// Alice's, so Alice's is live there in the one distinct order (alice-phone and
    /// bob-phone each get one copy of the replies).
    @Test func exhaustiveKeepsHeldCopiesInSendOrder() async throws {
        let scenario = try Fixture.scenario("""
            name: offline
            people: { alice: [alice-phone], bob: [bob-phone], carol: [carol-phone] }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: dinner } } }
              - { at: 100ms, device: carol-phone, offline: true }
              - { at: 200ms, device: bob-phone, reply: { session: poll, data: { bob: pizza } } }
              - { at: 210ms, device: alice-phone, reply: { session: poll, data: { alice: sushi } } }
              - { at: 1s, device: carol-phone, online: true }
            """)
        let report = try await Explorer(scenario: scenario).exhaustive()
        #expect(report.runs == 1)
        #expect(report.outcomes(of: "poll", on: "carol-phone").map(\.shown.from) == ["alice"])
    }

    /// --exhaustive's counts for a three-device race, worked out by hand.
    ///
    /// Step 1's two copies go to different devices, so their order cannot matter: 1 order.
    /// The race's three steps all start within 5ms, before any of their copies is due
    /// (50ms later), so then six copies are in flight: alice-phone gets Bob's reply and
    /// Carol's text (2 orders), bob-phone gets Alice's reply and Carol's text (2),
    /// carol-phone gets Alice's and Bob's replies (2). Copies to different devices
    /// commute, so there are 2 x 2 x 2 = 8 distinct orders.
    ///
    /// Outcomes (the live bubble of `poll` on each device): alice-phone always shows Bob's
    /// reply (hers went live when she sent it, Bob's arrives after; the text is no bubble),
    /// bob-phone always Alice's, and carol-phone whichever reply reached it last (M10,
    /// M12): the devices always show the same two things, one outcome class of `poll`.
    /// `latest carol-phone from bob` fails in the 4 orders where Alice's reply reached
    /// Carol last; `diverged` holds in all 8. Without factoring (the numbers below), each
    /// order is simulated; factored, the race's steps are one dependent order and each
    /// device's two arrival orders are counted.
    @Test func exhaustiveCountsOfAThreeDeviceRace() async throws {
        let scenario = try Fixture.scenario(Self.threeDeviceRace)
        let factored = try await Explorer(scenario: scenario).exhaustive()
        let report = try await Explorer(scenario: scenario).exhaustive(factor: false)
        #expect(factored.runs == 8 && factored.checks.map(\.failedRuns) == [0, 4] && factored.classes == report.classes)
        #expect(factored.factoring?.dependentOrders == 1 && factored.factoring?.devices == ["alice-phone", "bob-phone", "carol-phone"])
        #expect(report.runs == 8)
        #expect(report.distinctOutcomes == 1)
        #expect(report.checks.map(\.failedRuns) == [0, 4])
        #expect(report.outcomes(of: "poll", on: "alice-phone").map(\.shown.from) == ["bob"])
        #expect(report.outcomes(of: "poll", on: "bob-phone").map(\.shown.from) == ["alice"])
        #expect(report.outcomes(of: "poll", on: "carol-phone").map(\.runs) == [4, 4])
        guard case .exhaustive(_, let estimate, let simulated) = report.mode else {
            Issue.record("not an exhaustive report")
            return
        }
        #expect(estimate == 8)
        // One simulation per order (copies that only make a bubble live are tried one device
        // at a time), plus two that try the race's steps in another order and find only
        // orders already explored: steps on different devices commute.
        #expect(simulated == 10)
    }

    /// The pruned search finds exactly the orders and outcomes of a brute force over every
    /// interleaving: pruning never loses an order, and never counts one twice.
    @Test(arguments: [
        ("three-device race", BruteForceCase.threeDeviceRace),
        ("cloud-merge race", BruteForceCase.cloudMerge),
        ("cloud-overwrite race", BruteForceCase.cloudOverwrite),
    ])
    func exhaustiveMatchesBruteForce(_ name: String, _ which: BruteForceCase) async throws {
        let scenario = try which.scenario()
        let report = try await Explorer(scenario: scenario).exhaustive()
        let brute = try await BruteForce.orders(scenario)
        #expect(report.runs == ExactCount(brute.orders), "\(name): \(brute.interleavings) interleavings")
        #expect(Set(report.classes.map(\.key)) == brute.classes, "\(name)")
    }

    /// The cloud-merge race holds `converged` and `complete` in every delivery order (M13);
    /// the overwriting store loses a pick in the orders where both fetch before either writes.
    @Test func exhaustiveCloudStores() async throws {
        let checks: [Scenario.Check] = [.converged(session: "poll"), .complete(session: "poll", data: Self.everyPick)]
        let merge = try await Explorer(scenario: Self.pollRace(.cloudMerge, within: .milliseconds(5), checks: checks)).exhaustive()
        #expect(merge.passed && merge.runs > 1)
        let overwrite = try await Explorer(scenario: Self.pollRace(.cloudOverwrite, within: .milliseconds(5), checks: checks)).exhaustive()
        #expect(overwrite.runs == merge.runs)
        #expect(overwrite.checks.map { $0.failedRuns > 0 } == [false, true])
        #expect(overwrite.pitfalls.first { $0.kind == .lostUpdate }.map { $0.rule } == "M13")
        #expect(overwrite.firstFailure?.schedule.isEmpty == false)
    }

    /// A scenario with too many orders is refused up front, with the estimate: three
    /// replies racing through a cloud store (each a fetch and a write, M13) on four devices.
    @Test func refusesTooManyOrders() async throws {
        var scenario = try Fixture.scenario(Fixture.group + """
            app: { state: cloud-merge }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
              - at: 500ms
                race:
                  within: 5ms
                  steps:
                    - { device: alice-phone, reply: { session: poll, data: { alice: olives } } }
                    - { device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }
                    - { device: carol-phone, reply: { session: poll, data: { carol: pickles } } }
            """)
        scenario.seed = 7
        // Enumerated: refused. (Factored, the orders of the devices that only receive are
        // counted, and the enumerated part is small enough: it is answered.)
        await #expect(throws: ExplorationError.tooManyOrders(scenario: "test", estimate: 933_120, limit: 100_000)) {
            try await Explorer(scenario: scenario).exhaustive(factor: false)
        }
        #expect(ExplorationError.tooManyOrders(scenario: "test", estimate: 933_120, limit: 100_000).description
            == "test has too many delivery orders to enumerate: an estimated 933120, over the limit of 100000; explore it with --runs " +
                "N instead, or raise --limit")
        let small = try Fixture.scenario(Self.threeDeviceRace)
        await #expect(throws: ExplorationError.tooManyOrders(scenario: "three-device-race", estimate: 8, limit: 7)) {
            try await Explorer(scenario: small).exhaustive(limit: 7, factor: false)
        }
    }

    /// An estimate past what an Int holds is kept as Int.max and printed as "more than"
    /// it, in the 10^N form counts take past 15 digits, never as its 19 digits; the
    /// refusal prints its estimate in that form too.
    @Test func hugeEstimatesPrintInTheBigNumberForm() async throws {
        var report = try await Explorer(scenario: try Fixture.scenario(Self.threeDeviceRace)).exhaustive()
        func heading(_ estimate: Int) -> String {
            report.mode = .exhaustive(seed: 1, estimate: estimate, simulated: 9)
            return String(ExplorationTextReport.render(report).split(separator: "\n").first ?? "")
        }
        #expect(heading(Int.max).contains("(seed 1; up-front estimate more than 9.223 × 10^18; 9 schedules simulated;"))
        #expect(!ExplorationTextReport.render(report).contains("9223372036854775807"))
        #expect(heading(123_456_789_012_345_678).contains("up-front estimate 1.234 × 10^17;"))
        #expect(heading(540).contains("up-front estimate 540;"))
        #expect(ExplorationError.format(3.6e21) == "3.600 × 10^21")
        #expect(ExplorationError.format(Double(Int.max)) == "9.223 × 10^18")
        #expect(ExplorationError.format(1e300) == "1.000 × 10^300")
        #expect(ExplorationError.format(933_120) == "933120")
        #expect(ExplorationError.format(.infinity) == "more than 10^308")
    }

    // MARK: - Reports

    /// An exhaustive report survives the JSON round trip too (its schedules included).
    @Test func exhaustiveReportJSONRoundTrip() async throws {
        let report = try await Explorer(scenario: try Fixture.scenario(Self.threeDeviceRace)).exhaustive()
        let text = ExplorationJSONReport.render(report)
        #expect(try ExplorationJSONReport.parse(text) == report)
        #expect(throws: ExplorationError.self) { try ExplorationJSONReport.parse("{\"format\": \"other\"}") }
        #expect(throws: ExplorationError.self) { try ExplorationJSONReport.parse(String(text.dropLast(3))) }
    }

    @Test(arguments: [(0, 3, "0.0%"), (1, 3, "33.3%"), (2, 3, "66.7%"), (482, 1000, "48.2%"), (1, 2000, "0.1%"), (7, 7, "100.0%"),
        (0, 0, "0%")])
    func percentages(_ count: Int, _ total: Int, _ text: String) {
        #expect(ExplorationReport.percent(count, of: total) == text)
    }
}

/// The scenarios compared with the brute force: small enough to try every interleaving.
enum BruteForceCase: Sendable {
    case threeDeviceRace, cloudMerge, cloudOverwrite

    func scenario() throws -> Scenario {
        switch self {
        case .threeDeviceRace: try Fixture.scenario(ExplorerTests.threeDeviceRace)
        case .cloudMerge: try Fixture.scenario(Self.cloudRace("cloud-merge"))
        case .cloudOverwrite: try Fixture.scenario(Self.cloudRace("cloud-overwrite"))
        }
    }

    /// Bob asks Carol; both answer within 5ms through the cloud store (M13).
    static func cloudRace(_ state: String) -> String {
        """
        name: cloud-race
        people: { bob: [bob-phone], carol: [carol-phone] }
        app: { state: \(state) }
        steps:
          - { at: 0ms, device: bob-phone, send: { session: poll, data: { q: topping } } }
          - at: 1s
            race:
              within: 5ms
              steps:
                - { device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }
                - { device: carol-phone, reply: { session: poll, data: { carol: pickles } } }
        expect:
          - complete: { session: poll, data: { q: topping, bob: tomatoes, carol: pickles } }
        """
    }
}

/// Every interleaving of the allowed events, without pruning: the reference the pruned
/// search is compared with. Exponential; for small scenarios only.
enum BruteForce {
    /// The distinct orders (by their `OrderKey`), the outcome classes, the interleavings
    /// simulated, per check the orders that fail it, and the interleavings whose failed
    /// checks differ from an earlier one of the same order (equivalent orders must not).
    static func orders(_ scenario: Scenario) async throws
        -> (orders: Int, classes: Set<ExplorationReport.ClassKey>, interleavings: Int, failing: [Int], mismatches: Int) {
        var finals: [OrderKey: [Int]] = [:]
        var mismatches = 0
        var outcomes: Set<ExplorationReport.ClassKey> = []
        var interleavings = 0
        var pending: [[Int]] = [[]]
        let sessions = ExploredRun.sessions(of: scenario)
        while let prefix = pending.popLast() {
            let (outcome, recorder) = await Simulation(try ValidatedScenario(scenario), recordTrace: false)
                .simulate(seed: scenario.seed, controller: OrderRecorder(scenario: scenario, prefix: prefix, visited: [], reducing: false))
            let decisions = (recorder as? OrderRecorder)?.decisions ?? []
            interleavings += 1
            var key = OrderKey(for: scenario)
            for (depth, decision) in decisions.enumerated() {
                if depth >= prefix.count {
                    for index in decision.options.indices where index != decision.chosen {
                        pending.append(decisions[..<depth].map(\.chosen) + [index])
                    }
                }
                key = key.extended(with: decision.options[decision.chosen])
            }
            let run = ExploredRun(reference: .init(run: 0, seed: scenario.seed), report: RunReport(outcome: outcome), sessions: sessions)
            if let known = finals[key], known != run.failedChecks { mismatches += 1 }
            finals[key] = finals[key] ?? run.failedChecks
            for entry in run.classes { outcomes.insert(.init(session: entry.session, shown: entry.shown)) }
        }
        let failing = scenario.checks.indices.map { check in finals.values.filter { $0.contains(check) }.count }
        return (finals.count, outcomes, interleavings, failing, mismatches)
    }
}

/// The race search's dependence between a run's events (`Explorer.dependent`, `Explorer.blocks`).
@Suite struct RaceDependenceTests {
    /// A step and an event of different devices commute unless one holds the other back
    /// by its window, which orders them without a race.
    @Test func stepsAndEventsOfDifferentDevicesCommute() {
        func option(_ kind: ScheduleCandidate.Kind, device: Int, earliest: Int64, latest: Int64, step: Int = -1) -> OrderRecorder.Option {
            var option = OrderRecorder.Option(entities: [device], label: "e", text: "e", chain: "e", kind: kind, latest: latest, position: 0)
            option.earliest = earliest
            option.stepNumber = step
            return option
        }
        let pick = option(.step, device: 1, earliest: 3_000, latest: 4_999, step: 2)
        let inFlight = option(.delivery, device: 2, earliest: 3_300, latest: 5_699)
        #expect(!Explorer.dependent(pick, inFlight, store: 3))
        #expect(!Explorer.blocks(pick, inFlight) && !Explorer.blocks(inFlight, pick))
        // The same device: a race.
        #expect(Explorer.dependent(pick, option(.cloudAnswer, device: 1, earliest: 3_500, latest: 5_500), store: 3))
        // A copy that arrives before the step whatever the draws; a step certainly before an event.
        let early = option(.delivery, device: 2, earliest: 300, latest: 1_000)
        #expect(Explorer.blocks(early, pick) && !Explorer.blocks(pick, early))
        let late = option(.cloudRequest, device: 3, earliest: 4_999, latest: 5_249)
        #expect(Explorer.blocks(pick, late) && !Explorer.blocks(late, pick))
        // Steps: by window, then number.
        let other = option(.step, device: 2, earliest: 3_000, latest: 4_999, step: 3)
        #expect(!Explorer.blocks(pick, other) && !Explorer.blocks(other, pick))
        let first = option(.step, device: 2, earliest: 0, latest: 0, step: 1)
        #expect(Explorer.blocks(first, pick) && !Explorer.blocks(pick, first))
    }
}
