import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimChecking
@testable import GroupSimCore
@testable import GroupSimSimulation
import GroupSimTesting

/// Exploration runs without a trace. Its verdicts must be the ones `groupsim run --seed`
/// gives for the same run: what the pitfalls need of the messages' flow (which message
/// carried each change, who had seen it and when, when each step began) is kept as the
/// run goes, trace or no trace.
@Suite struct TraceFreeVerdictTests {
    /// Bob sends a new state after Alice's reached him: he overwrote her choice knowing it
    /// (M12), so nothing is lost, in `run` and in every explored run alike.
    static func knowingOverwrite(_ state: String) -> String {
        """
        name: knowing-overwrite
        seed: 3
        app: { state: \(state) }
        people:
          alice: [alice-phone]
          bob: [bob-phone, bob-ipad]
        network: { latency: 50ms, jitter: 40ms }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { choice: pizza } } }
          - { at: 1s, device: bob-phone, send: { session: poll, data: { choice: sushi } } }
        expect:
          - no-pitfalls: true

        """
    }

    @Test(arguments: ["message", "cloud-overwrite", "cloud-merge", "cloud-cas"])
    func aKnowingOverwriteIsNoLostUpdateWhenExplored(state: String) async throws {
        let scenario = try Fixture.scenario(Self.knowingOverwrite(state))
        let run = try await scenario.run()
        #expect(run.pitfalls.isEmpty, "\(run.pitfalls.map(\.summary))")
        let report = try await Explorer(scenario: scenario).explore(runs: 40, seed: 1)
        #expect(report.failedRuns == 0, "first failing seed: \(report.firstFailure.map { String($0.reference.seed) } ?? "-")")
        #expect(report.pitfalls.isEmpty, "\(report.pitfalls.map(\.kind))")
        let orders = try await Explorer(scenario: scenario).exhaustive()
        #expect(orders.failedRuns == 0 && orders.pitfalls.isEmpty, "\(orders.pitfalls.map(\.kind))")
    }

    /// Carol overwrites the same choice without having seen Bob's (she sends before his
    /// copy can reach her): Bob's change is lost where Carol's state is shown, and that
    /// verdict does not depend on the trace either.
    @Test func anUnknowingOverwriteIsALostUpdateWhenExplored() async throws {
        let racing = try Fixture.scenario("""
            name: unknowing-overwrite
            seed: 3
            people:
              alice: [alice-phone]
              bob: [bob-phone]
              carol: [carol-phone]
            network: { latency: 50ms }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { choice: pizza } } }
              - { at: 1s, device: bob-phone, send: { session: poll, data: { choice: sushi } } }
              - { at: 1010ms, device: carol-phone, send: { session: poll, data: { choice: tacos } } }

            """)
        let run = try await racing.run()
        #expect(run.pitfalls.map(\.kind).contains(.lostUpdate), "\(run.pitfalls.map(\.summary))")
        let report = try await Explorer(scenario: racing).explore(runs: 10, seed: 1)
        #expect(report.pitfalls.first { $0.kind == .lostUpdate }?.runs.clampedInt == 10)
    }

    /// Every shipped scenario, and the knowing overwrites, over many seeds: the run with
    /// its trace and the run without one find the same pitfalls and the same verdicts.
    @Test func theTraceChangesNoVerdict() async throws {
        var scenarios = try Self.shipped()
        for state in ["message", "cloud-overwrite", "cloud-merge", "cloud-cas"] {
            scenarios.append(("knowing-overwrite \(state)", try Fixture.scenario(Self.knowingOverwrite(state))))
        }
        for (name, scenario) in scenarios {
            for seed in UInt64(1)...12 {
                let traced = RunReport(outcome: try await Simulation(scenario: scenario, seed: seed).run(), explainingPitfalls: false)
                let bare = RunReport(outcome: try await Simulation(scenario: scenario, seed: seed, recordTrace: false).run(),
                                     explainingPitfalls: false)
                #expect(Self.verdict(bare) == Self.verdict(traced), "\(name), failing seed \(seed)")
            }
        }
    }

    /// Generated groups where people overwrite one another's choice, some having seen it
    /// and some not, in two conversations, with a device offline for a while and members
    /// joining and leaving: the trace changes no verdict.
    @Test func generatedOverwritesGiveTheSameVerdictsWithoutATrace() async throws {
        for seed in UInt64(1)...80 {
            let text = Self.generate(seed: seed)
            let scenario = try Fixture.scenario(text)
            let traced = RunReport(outcome: try await Simulation(scenario: scenario, seed: seed).run(), explainingPitfalls: false)
            let bare = RunReport(outcome: try await Simulation(scenario: scenario, seed: seed, recordTrace: false).run(),
                                 explainingPitfalls: false)
            #expect(Self.verdict(bare) == Self.verdict(traced), "failing seed \(seed):\n\(text)")
        }
    }

    /// - Parameter pair: a second conversation, of p0 and p1, beside the group's.
    static func generate(seed: UInt64, pair: Bool = true) -> String {
        var random = SplitMix64(seed: seed)
        func pick(_ n: Int) -> Int { Int(random.next(below: UInt64(n))) }
        let people = 3 + pick(3)
        var devices: [String] = []
        var lines = ["name: overwrites-\(seed)", "seed: \(seed)", "people:"]
        for person in 0..<people {
            let own = (0..<(1 + pick(2))).map { "p\(person)-\(["phone", "ipad"][$0])" }
            devices += own
            lines.append("  p\(person): [\(own.joined(separator: ", "))]")
        }
        lines += ["conversations:", "  group: [\((0..<people).map { "p\($0)" }.joined(separator: ", "))]"] + (pair ? ["  pair: [p0, p1]"] : [])
        let mode = ["message", "message", "cloud-overwrite", "cloud-merge", "cloud-cas"][pick(5)]
        if mode != "message" { lines += ["app:", "  state: \(mode)", "  cloud-latency: \(10 + pick(40))ms"] }
        lines += ["network:", "  latency: \(20 + pick(60))ms", "  jitter: \(pick(3) * 20)ms", "steps:",
                  "  - { at: 0ms, device: p0-phone, conversation: group, send: { session: poll, data: { choice: c0 } } }",
                  "  - { at: 0ms, device: p1-phone, conversation: \(pair ? "pair" : "group"), send: { session: side, data: { choice: s0 } } }"]
        var time = 0
        for step in 1...(4 + pick(5)) {
            time += pick(4) == 0 ? pick(5) : 40 + pick(400)
            let device = devices[pick(devices.count)]
            let (conversation, session) = device.hasPrefix("p0-") || device.hasPrefix("p1-")
                ? (pick(3) == 0 ? (pair ? "pair" : "group", "side") : ("group", "poll")) : ("group", "poll")
            let verb = pick(2) == 0 ? "send" : "reply"
            let data = pick(3) == 0 ? "p\(step): yes" : "choice: c\(step)"
            lines.append("  - { at: \(time)ms, device: \(device), conversation: \(conversation), \(verb): { session: \(session), data: { \(data) } } }")
        }
        if pick(3) == 0 {
            let device = devices[pick(devices.count)]
            lines += ["  - { at: \(pick(300))ms, device: \(device), offline: true }", "  - { at: \(time + pick(300))ms, device: \(device), online: true }"]
        }
        if pick(3) == 0, pair {
            lines.append("  - { at: \(pick(time + 1))ms, device: p0-phone, conversation: pair, join: p2 }")
        }
        if pick(4) == 0 {
            lines.append("  - { at: \(pick(time + 1))ms, device: p0-phone, conversation: group, leave: p\(1 + pick(people - 1)) }")
        }
        lines += ["expect:", "  - converged: poll", "  - no-pitfalls: true"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Exploration also leaves the pitfalls' words unwritten and judges checks without
    /// drawing views: the verdicts are the ones the worded report gives, for the shipped
    /// scenarios and the generated groups alike.
    @Test func theWordsChangeNoVerdict() async throws {
        var scenarios = try Self.shipped()
        for seed in UInt64(1)...40 { scenarios.append(("generated \(seed)", try Fixture.scenario(Self.generate(seed: seed)))) }
        for (name, scenario) in scenarios {
            for seed in UInt64(1)...6 {
                let outcome = try await Simulation(scenario: scenario, seed: seed).run()
                let worded = RunReport(outcome: outcome)
                let bare = RunReport(outcome: outcome, explainingPitfalls: false)
                #expect(Self.verdict(bare, sessions: false) == Self.verdict(worded, sessions: false), "\(name), failing seed \(seed)")
            }
        }
    }

    /// What `SessionStates` reads of the run's live bubbles is what the devices'
    /// transcripts show, device by device and session by session: the first bubble in
    /// transcript order where a device shows a session in two conversations, and each
    /// session placed in the conversation the first device showing it lists it in first
    /// (generated groups with one conversation or two, an old system among the devices,
    /// and the shipped scenarios).
    @Test func theLiveBubblesAreTheTranscripts() async throws {
        var scenarios = try Self.shipped()
        for seed in UInt64(1)...60 {
            var text = Self.generate(seed: seed, pair: seed % 2 == 0)
            // Now and then p2's phone is an old system, which draws plain messages (M26),
            // or a phone without the app (M27).
            if seed % 3 == 0 { text = text.replacing("steps:\n", with: "devices:\n  p2-phone: { platform: ios9 }\nsteps:\n") }
            if seed % 3 == 1 { text = text.replacing("steps:\n", with: "devices:\n  p1-phone: { app: missing }\nsteps:\n") }
            scenarios.append(("generated \(seed)", try Fixture.scenario(text)))
        }
        var compared = 0
        var twoConversations = 0
        for (name, scenario) in scenarios {
            for seed in UInt64(1)...4 {
                let outcome = try await Simulation(scenario: scenario, seed: seed, recordTrace: false).run()
                let states = SessionStates(outcome: outcome)
                for (index, device) in outcome.devices.enumerated() {
                    var fromTranscripts: [String: Int] = [:]
                    for bubble in Self.bubbles(device) where fromTranscripts[bubble.session] == nil {
                        fromTranscripts[bubble.session] = bubble.message
                    }
                    var fromStates: [String: Int] = [:]
                    for session in states.sessions { fromStates[session] = states.liveMessage(session, device: index) }
                    #expect(fromStates == fromTranscripts, "\(name), \(device.name), failing seed \(seed)")
                    #expect(device.sessions.map(\.session) == Self.bubbles(device).map(\.session), "\(name), failing seed \(seed)")
                    compared += 1
                }
                for session in Set(outcome.changes.map(\.session)) {
                    let listed = outcome.devices.lazy.compactMap { Self.bubbles($0).first { $0.session == session }?.conversation }.first
                    #expect(states.conversation(of: session) == listed ?? scenario.conversations.first?.name,
                            "\(name), \(session), failing seed \(seed)")
                }
                if scenario.conversations.count > 1 { twoConversations += 1 }
            }
        }
        #expect(compared > 1_000)
        #expect(twoConversations > 20)
    }

    /// The bubbles of a device's drawn transcripts, conversation by conversation: each
    /// session's live one (M10).
    static func bubbles(_ device: DeviceSnapshot) -> [(session: String, conversation: String, message: Int)] {
        device.transcripts.flatMap { transcript in
            transcript.entries.compactMap { entry in
                guard entry.kind == .bubble, let session = entry.session else { return nil }
                return (session, transcript.conversation, entry.message)
            }
        }
    }

    /// An app that sends every message in the one session it knows, whatever session the
    /// step names and in whichever conversation: Alice's and Bob's devices show that session
    /// in both their conversations. What is read for each device is the bubble its
    /// transcripts list first (the group's, the scenario's first conversation), and the
    /// session is placed in that conversation, as the tables would place it.
    @Test func aSessionShownInTwoConversationsIsReadWhereTheTableListsItFirst() async throws {
        let apps = Self.registry("one-poll") { .send(Message(session: Session(name: "poll"), url: "?from=\($0.name)")) }
        let scenario = try Fixture.scenario("""
            name: one-poll
            app: { name: one-poll }
            people: { alice: [alice-phone, alice-ipad], bob: [bob-phone], carol: [carol-phone] }
            conversations:
              group: [alice, bob, carol]
              pair: [alice, bob]
            network: { latency: 50ms, jitter: 40ms }
            steps:
              - { at: 0ms, device: bob-phone, conversation: pair, send: { session: side, data: { v: b } } }
              - { at: 10ms, device: carol-phone, conversation: group, send: { session: poll, data: { v: c } } }
              - { at: 200ms, device: alice-phone, conversation: pair, send: { session: side, data: { v: a } } }

            """, apps: ["one-poll"])
        var shownInPair = 0
        for seed in UInt64(1)...20 {
            let outcome = try await Simulation(scenario: scenario, seed: seed, apps: apps, recordTrace: false).run()
            let states = SessionStates(outcome: outcome)
            #expect(states.conversation(of: "poll") == "group", "failing seed \(seed)")
            for (index, device) in outcome.devices.enumerated() {
                let polls = Self.bubbles(device).filter { $0.session == "poll" }
                #expect(states.liveMessage("poll", device: index) == polls.first?.message, "\(device.name), failing seed \(seed)")
                shownInPair += polls.filter { $0.conversation == "pair" }.count
            }
        }
        // Every run shows the session in the pair's conversation too, on Alice's and Bob's devices.
        #expect(shownInPair == 20 * 3)
    }

    /// An app that names its own session (no step names it): the live bubbles hold it too,
    /// and exploration counts what each device shows of it.
    @Test func anAppNamedSessionIsReadFromTheDevices() async throws {
        let apps = Self.registry("renaming") { _ in .insert(Message(session: Session(name: "mine"), url: "?n=1")) }
        let scenario = try Fixture.scenario("""
            name: renaming
            app: { name: renaming }
            people: { alice: [alice-phone], bob: [bob-phone, bob-ipad] }
            network: { latency: 50ms, jitter: 20ms }
            steps:
              - { at: 0ms, device: alice-phone, insert: { session: poll } }
              - { at: 10ms, device: alice-phone, press-send: true }

            """, apps: ["renaming"])
        let run = try await scenario.run(apps: apps)
        #expect(run.outcome.device("bob-ipad")?.session("mine")?.message == 1)
        let report = try await Explorer(scenario: scenario, apps: apps).explore(runs: 5, seed: 1)
        #expect(Set(report.outcomes.filter { $0.session == "mine" }.map(\.device)) == ["alice-phone", "bob-phone", "bob-ipad"])
        #expect(report.outcomes.filter { $0.session == "mine" }.allSatisfy { $0.counts.first?.shown.from == "alice" })
    }

    /// Apps registered from Swift that name their own session: one app, registered as
    /// `name`, that answers every compose with `answer(conversation)`.
    static func registry(_ name: String, answer: @escaping @Sendable (Conversation) -> AppAction) -> AppRegistry {
        struct Answering: MessagesApp {
            let answer: @Sendable (Conversation) -> AppAction
            mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
                [answer(conversation)]
            }
        }
        var apps = AppRegistry()
        apps.register(name) { _ in Answering(answer: answer) }
        return apps
    }

    /// Every scenario file under Scenarios/, parsed, with its path.
    static func shipped() throws -> [(String, Scenario)] {
        try ScenarioFiles.shipped.map { path in
            (path, try ScenarioParser.parse(text: String(contentsOfFile: path, encoding: .utf8), file: path))
        }
    }

    /// Pitfalls by kind, rule, devices and (with `sessions`) session, and each check's
    /// verdict. A pitfall seen while the app read something names its session only in the
    /// worded report, which works out what message the app read.
    static func verdict(_ report: RunReport, sessions: Bool = true) -> [String] {
        report.pitfalls.map { "\($0.kind) \($0.rule) \($0.devices)" + (sessions ? " \($0.session ?? "-")" : "") }
            + report.checks.indices.map { "check \($0): \(report.checks[$0].passed)" }
    }
}
