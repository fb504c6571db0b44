import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
import GroupSimTesting

/// The end-of-run structures answer by look-up (dictionaries keyed by session, built in
/// one pass) instead of scanning every entry, device or change. These tests check that
/// every indexed answer is the one the plain scan gives, on a run with many sessions,
/// collapses, summary lines past M14's limit and two conversations.
@Suite struct IndexedLookupTests {
    /// Three people, four devices, two conversations; 13 sessions in `group` and two in
    /// `side` (a session belongs to one conversation). Session `k` of `group` gets
    /// `k % 6 + 1` messages, so some keep more summary lines than M14 draws.
    static func busyScenario() -> Scenario {
        let people = [Scenario.Person(key: "alice", devices: ["alice-phone"]), Scenario.Person(key: "bob", devices: ["bob-phone", "bob-ipad"]),
                      Scenario.Person(key: "carol", devices: ["carol-phone"])]
        let devices = [Scenario.DeviceSpec(name: "alice-phone", person: "alice"), Scenario.DeviceSpec(name: "bob-phone", person: "bob"),
                       Scenario.DeviceSpec(name: "bob-ipad", person: "bob"), Scenario.DeviceSpec(name: "carol-phone", person: "carol")]
        let senders = ["alice-phone", "bob-phone", "carol-phone", "bob-ipad"]
        var timeline: [Scenario.TimelineItem] = []
        // With two conversations every step names its own (the default one is `group`).
        func add(_ device: String, _ session: String, conversation: String = Scenario.ConversationSpec.defaultName, reply: Bool, value: Int) {
            let compose = Scenario.Compose(session: session, data: [Scenario.DataEntry("v", String(value))], caption: "\(session) \(value)",
                                  summary: "$me said \(value)")
            let time = VirtualTime(nanoseconds: Int64(timeline.count) * 100_000_000)
            timeline.append(.step(Scenario.Step(number: timeline.count + 1, time: time, device: device, conversation: conversation,
                                       action: reply ? .reply(compose) : .send(compose))))
        }
        for session in 0..<12 {
            for message in 0..<(session % 6 + 1) {
                add(senders[(session + message) % senders.count], "s\(session)", reply: message > 0, value: message)
            }
        }
        add("alice-phone", "shared", reply: false, value: 1)
        add("carol-phone", "beside", conversation: "side", reply: false, value: 2)
        add("alice-phone", "aside", conversation: "side", reply: false, value: 3)
        add("carol-phone", "aside", conversation: "side", reply: true, value: 4)
        return Scenario(name: "busy", seed: 5, people: people, devices: devices,
                        conversations: [Scenario.ConversationSpec(members: ["alice", "bob", "carol"]),
                                        Scenario.ConversationSpec(name: "side", members: ["alice", "carol"])],
                        network: Scenario.NetworkSpec(latency: .milliseconds(20), jitter: .milliseconds(15)), timeline: timeline)
    }

    @Test func snapshotSessionsMatchTheirTranscripts() async throws {
        let outcome = try await Simulation(scenario: Self.busyScenario()).run()
        #expect(outcome.failures.isEmpty, "\(outcome.failures.map(\.reason))")
        let alice = try #require(outcome.device("alice-phone"))
        #expect(alice.sessions.filter { $0.session == "shared" }.map(\.conversation) == ["group"])
        #expect(alice.session("beside")?.conversation == "side")
        for device in outcome.devices {
            for view in device.sessions {
                let scanned = device.sessions.first { $0.session == view.session }
                #expect(device.session(view.session)?.message == scanned?.message, "\(device.name) \(view.session)")
                #expect(device.session(view.session)?.conversation == scanned?.conversation)
                // The summary lines drawn for the session are those of its transcript, in order.
                let drawn = device.transcripts.first { $0.conversation == view.conversation }?.entries ?? []
                let lines = drawn.filter { $0.kind == .summary && $0.session == view.session }.compactMap(\.text)
                #expect(view.summaries == lines, "\(device.name) \(view.session)")
                #expect(view.urlState == drawn.first { $0.kind == .bubble && $0.session == view.session }?.state)
            }
            #expect(device.session("no-such-session") == nil)
        }
        // Session s5 got 6 messages: 5 summary lines, of which M14 draws the last 3.
        let s5 = try #require(outcome.device("carol-phone")?.session("s5"))
        #expect(s5.summaryCount == 5)
        #expect(s5.summaries.count == 3)
        #expect(s5.urlState["v"] == "5")
        // A session listed twice answers with its first view, as a scan in order does, and
        // a snapshot whose sessions are replaced answers from the new list.
        var edited = alice
        var elsewhere = try #require(alice.session("shared"))
        elsewhere.conversation = "side"
        edited.sessions.append(elsewhere)
        #expect(edited.session("shared")?.conversation == "group")
        edited.sessions.reverse()
        #expect(edited.session("shared")?.conversation == "side")
        edited.sessions.removeAll { $0.session == "shared" }
        #expect(edited.session("shared") == nil)
        #expect(edited.session("aside")?.conversation == "side")
    }

    @Test func sessionStatesMatchAScan() async throws {
        let outcome = try await Simulation(scenario: Self.busyScenario()).run()
        let states = SessionStates(outcome: outcome)
        var names: [String] = []
        for change in outcome.changes where !names.contains(change.session) { names.append(change.session) }
        for device in outcome.devices {
            for view in device.sessions where !names.contains(view.session) { names.append(view.session) }
        }
        #expect(states.sessions == names)
        #expect(states.sessions.count == 15)
        for session in names + ["never-used"] {
            let conversation = outcome.devices.lazy.compactMap { $0.session(session)?.conversation }.first ?? "group"
            #expect(states.conversation(of: session) == conversation, "\(session)")
            let members = outcome.members.first { $0.conversation == conversation }?.members ?? []
            let devices = outcome.devices.filter { $0.runsApp && members.contains($0.person) }.map(\.name)
            #expect(states.appDevices(for: session).map(\.name) == devices, "\(session)")
        }
        #expect(states.appDevices(for: "aside").map(\.name) == ["alice-phone", "carol-phone"])
    }

    @Test func viewHistoryLookUpsMatchAScan() async throws {
        let outcome = try await Simulation(scenario: Self.busyScenario()).run()
        let history = ViewHistory(outcome: outcome)
        var sessions: [String] = []
        for change in history.changes where !sessions.contains(change.session) { sessions.append(change.session) }
        #expect(history.sessions == sessions)
        for session in sessions {
            let scannedInstants = Dictionary(grouping: history.changes.filter { $0.session == session }, by: \.time)
            #expect(history.instants(of: session).map(\.changes.count)
                == scannedInstants.keys.sorted().map { scannedInstants[$0]?.count ?? 0 })
            for device in history.devices {
                let scanned = history.changes.filter { $0.device == device && $0.session == session }
                #expect(history.changes(on: device, session: session) == scanned)
                #expect(history.final(on: device, session: session) == scanned.last)
                for index in [0] + history.changes.map(\.traceIndex) + [outcome.trace.events.count] {
                    #expect(history.live(on: device, session: session, before: index) == scanned.last { $0.traceIndex < index },
                            "\(device) \(session) before \(index)")
                }
            }
        }
    }

    /// The outcome key of a run is the same whatever the session count; two runs with
    /// the same seed give the same rows and key (the exploration tallies count them).
    @Test func explorationRowsCoverEverySessionOnEveryDevice() async throws {
        let scenario = Self.busyScenario()
        let report = try await Explorer(scenario: scenario).explore(runs: 6, seed: 3)
        let again = try await Explorer(scenario: scenario, workers: 2).explore(runs: 6, seed: 3)
        #expect(report.classes == again.classes)
        #expect(report.runs == 6)
        let sessions = ExploredRun.sessions(of: scenario)
        #expect(sessions == (0..<12).map { "s\($0)" } + ["shared", "beside", "aside"])
        #expect(report.outcomes.count == scenario.devices.count * sessions.count)
    }

    /// A message's state is parsed once, when it is sent, and every copy shares it.
    @Test func envelopeCarriesItsParsedState() async throws {
        let outcome = try await Simulation(scenario: Self.busyScenario()).run()
        let bob = try #require(outcome.device("bob-ipad"))
        let bubble = try #require(bob.transcripts.first?.entries.first { $0.kind == .bubble })
        #expect(bubble.state == StateMap(url: bubble.url))
        let map = WorldFacts(scenario: Self.busyScenario(), seed: 1).mintIdentifiers(device: "a", generation: 0)
        let envelope = Envelope(id: 1, conversation: "group", senderDevice: "a", senderPerson: "a", sentAt: .zero,
                                content: .app(Message(url: "?q=topping&bob=tomatoes")), senderMap: map,
                                provenance: Provenance(), change: nil)
        #expect(envelope.state == StateMap([Scenario.DataEntry("q", "topping"), Scenario.DataEntry("bob", "tomatoes")]))
        let text = Envelope(id: 2, conversation: "group", senderDevice: "a", senderPerson: "a", sentAt: .zero, content: .text("hi"),
                            senderMap: map, provenance: Provenance(), change: nil)
        #expect(text.state.isEmpty)
    }

    /// A long transcript whose collapses leave no summary compacts its tombstones and moves
    /// each session's live position with it: over many seeds of interleaved sessions, the
    /// live bubble of every session is its last message and the entries are exactly the
    /// live bubbles and summary lines, in order.
    /// Sessions found by name (a harness's messages) and by their number in the run (every
    /// step's): compaction moves each session's live place with its bubble either way.
    @Test(arguments: [false, true])
    func compactionKeepsEverySessionsLiveBubble(numbered: Bool) {
        let map = WorldFacts(scenario: Self.busyScenario(), seed: 1).mintIdentifiers(device: "a", generation: 0)
        for seed in 1...20 {
            var generator = SplitMix64(seed: UInt64(seed))
            var transcript = Transcript()
            var last: [String: Int] = [:]
            var expected: [(id: Int, summary: Bool)] = []
            var hasSummary: [Int: Bool] = [:]
            for id in 1...600 {
                let sessionNumber = Int(generator.next(below: 7))
                let session = "s\(sessionNumber)"
                let summary: String? = generator.next(below: 5) == 0 ? "x" : nil
                hasSummary[id] = summary != nil
                let message = Message(session: Session(name: session), url: "?n=\(id)", summaryText: summary)
                let envelope = Envelope(id: id, conversation: "group", senderDevice: "a", senderPerson: "a", sentAt: .zero,
                                        content: .app(message), senderMap: map, provenance: Provenance(), change: nil)
                // The session's previous live bubble leaves a summary line if it has summary text, else nothing (M10).
                if let old = last[session], let index = expected.firstIndex(where: { $0.id == old && !$0.summary }) {
                    if hasSummary[old] == true { expected[index].summary = true } else { expected.remove(at: index) }
                }
                _ = numbered ? transcript.addBubble(envelope, number: sessionNumber, nilSummary: .remove)
                    : transcript.addBubble(envelope, nilSummary: .remove)
                expected.append((id, false))
                last[session] = id
            }
            // The bubbles left are each session's last message, in the order they came.
            let bubbles = transcript.entries.compactMap { entry -> Int? in
                if case .bubble(let envelope) = entry { return envelope.id }
                return nil
            }
            #expect(bubbles == last.values.sorted(), "seed \(seed)")
            let entries = transcript.entries.map { entry -> (Int, Bool) in
                if case .summary = entry { return (entry.envelope.id, true) }
                return (entry.envelope.id, false)
            }
            #expect(entries.map(\.0) == expected.map(\.id), "seed \(seed)")
            #expect(entries.map(\.1) == expected.map(\.summary), "seed \(seed)")
        }
    }

    /// Provenance keeps sorted, distinct ids: binary-search look-ups and one-merge unions
    /// give what inserting one id at a time gave.
    @Test func provenanceStaysSortedAndDistinct() {
        var generator = SplitMix64(seed: 42)
        for round in 0..<50 {
            var left = Provenance()
            var right = Provenance()
            var plain: Set<Int> = []
            for _ in 0..<Int(generator.next(below: 40)) {
                let id = Int(generator.next(below: 60))
                if generator.next(below: 2) == 0 { left.insert(id) } else { right.insert(id) }
                plain.insert(id)
            }
            let union = left.union(right)
            #expect(union.changes == plain.sorted(), "seed 42, round \(round)")
            #expect(union == right.union(left), "seed 42, round \(round)")
            for id in 0..<60 { #expect(union.contains(id) == plain.contains(id), "seed 42, round \(round), id \(id)") }
            var again = union
            for id in plain { again.insert(id) }
            #expect(again == union)
        }
    }
}
