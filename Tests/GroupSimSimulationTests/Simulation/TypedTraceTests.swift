import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
@testable import GroupSimReporting
import GroupSimTesting

/// The trace is typed. Every event carries typed fields (the step's
/// action, the callback, the cloud request, the store's handling and its answer); reports
/// read those fields, and the printed text (which the digest covers) is written from them
/// word for word as before.
@Suite struct TypedTraceTests {
    /// `conditional-write-fixed` (seed 7): Bob's and Carol's conditional writes race, the
    /// store refuses Carol's at 592ms, her app retries on the v2 it is handed (M13).
    static func conditionalWrite() async throws -> RunReport {
        try await ReportingFixture.run(file: "Scenarios/lessons/conditional-write-fixed.yaml")
    }

    static func isCloud(_ kind: Simulation.Trace.Event.Kind) -> Bool {
        switch kind {
        case .cloudRequest, .cloudHandled, .cloudAnswer: true
        default: false
        }
    }

    /// Carol's round trips as typed events: the request as her app made it, the store's
    /// handling with her device and the resulting version, and the answer with its version.
    @Test func cloudEventsCarryKeyVersionAndDevice() async throws {
        let report = try await Self.conditionalWrite()
        let events = report.outcome.trace.events
        let carol = events.filter { $0.subject == "carol-phone" && Self.isCloud($0.kind) }.map(\.kind)
        #expect(carol == [
            .cloudRequest(.fetch, key: "poll"), .cloudAnswer(.fetched, key: "poll", version: 1),
            .cloudRequest(.store, key: "poll"), .cloudAnswer(.conflict, key: "poll", version: 2),
            .cloudRequest(.store, key: "poll"), .cloudAnswer(.stored, key: "poll", version: 3),
        ])
        let store = events.filter { $0.subject == "cloud" }
        #expect(store.allSatisfy { Self.isCloud($0.kind) })
        let handledForCarol = store.compactMap { event -> Simulation.Trace.Event.Kind? in
            guard case .cloudHandled(_, _, "carol-phone", _) = event.kind else { return nil }
            return event.kind
        }
        #expect(handledForCarol == [
            .cloudHandled(.fetch, key: "poll", device: "carol-phone", version: 1),
            .cloudHandled(.refusedStore, key: "poll", device: "carol-phone", version: 2),
            .cloudHandled(.store, key: "poll", device: "carol-phone", version: 3),
        ])
        // The content stays in the typed payload: the conditional write as the app made it,
        // and the store's current record it was refused with.
        let refused = try #require(store.first { $0.kind == .cloudHandled(.refusedStore, key: "poll", device: "carol-phone", version: 2) })
        #expect(refused.time == VirtualTime(nanoseconds: 592_000_000))
        guard case .cloud(.store(.conditional(let expected, let written))?, let record?)? = refused.payload else {
            Issue.record("expected the conditional write and the store's record, got \(String(describing: refused.payload))")
            return
        }
        #expect(expected == 1)
        #expect(written["carol"] == "pickles")
        #expect(record.conflict && record.version == 2 && record.state?["bob"] == "tomatoes")
    }

    /// The step carries its action, the callback its `AppCallback`, the note its kind.
    @Test func stepsCallbacksAndNotesAreTyped() async throws {
        let report = try await ReportingFixture.run(file: "Scenarios/lifecycle-callbacks.yaml")
        let events = report.outcome.trace.events
        let scenarioSteps = report.outcome.scenario.steps
        for event in events {
            guard case .step(let number, let action) = event.kind else { continue }
            #expect(scenarioSteps[number - 1].action == action, "step \(number)")
        }
        let callbacks = events.compactMap { event -> AppCallback? in
            if case .callback(let callback) = event.kind { return callback }
            return nil
        }
        #expect(callbacks.contains(.willBecomeActive) && callbacks.contains(.didSelect))
    }

    /// `kindText` (and so the digest, which covers it) is written from the typed fields in
    /// exactly the words the stringly trace had.
    @Test func kindTextKeepsTheCanonicalWording() {
        let compose = Scenario.Compose(session: "poll", data: [Scenario.DataEntry("bob", "tomatoes")], direct: true)
        let cases: [(Simulation.Trace.Event.Kind, String)] = [
            (.step(number: 3, action: .reply(compose)), "step 3 reply poll (direct)"),
            (.step(number: 4, action: .insert(Scenario.Compose(session: "poll"))), "step 4 insert poll"),
            (.step(number: 5, action: .tap(session: "poll")), "step 5 tap poll"),
            (.step(number: 6, action: .open(.expanded)), "step 6 open expanded"),
            (.step(number: 7, action: .join(person: "dave")), "step 7 join dave"),
            (.callback(.didStartSending), "callback didStartSending"),
            (.droppedURL(url: "myapp://poll"), "dropped-url myapp://poll"),
            (.cloudRequest(.fetch, key: "poll"), "cloud fetch poll"),
            (.cloudRequest(.store, key: "poll"), "cloud store poll"),
            (.cloudHandled(.fetch, key: "poll", device: "bob-phone", version: 1), "cloud fetch poll from bob-phone -> v1"),
            (.cloudHandled(.store, key: "poll", device: "bob-phone", version: 2), "cloud store poll from bob-phone -> v2"),
            (.cloudHandled(.refusedStore, key: "poll", device: "carol-phone", version: 2),
                "cloud refused store poll from carol-phone -> v2"),
            (.cloudAnswer(.fetched, key: "poll", version: 1), "cloud fetched poll v1"),
            (.cloudAnswer(.stored, key: "poll", version: 2), "cloud stored poll v2"),
            (.cloudAnswer(.conflict, key: "poll", version: 2), "cloud conflict poll v2"),
            (.note(.openedInBrowser(url: "https://example.com")), "note opened https://example.com in the browser (M25)"),
        ]
        for (kind, text) in cases {
            let event = Simulation.Trace.Event(time: VirtualTime(nanoseconds: 5), subject: "bob-phone", kind: kind)
            #expect(event.kindText == text)
            #expect(event.canonicalText == "t=5 bob-phone " + text)
        }
    }

    /// A refused conditional write is a round trip of its own: it reached the store and
    /// came back as a conflict; the retry is another trip (M13). Reading the trace's text,
    /// the refusal matched no trip and the retry's arrival was given to the refused one.
    @Test func refusedWriteIsItsOwnRoundTrip() async throws {
        let flow = MessageFlow(trace: try await Self.conditionalWrite().outcome.trace)
        let carol = flow.cloudTrips.filter { $0.device == "carol-phone" }
        func ms(_ value: Int64) -> VirtualTime { VirtualTime(nanoseconds: value * 1_000_000) }
        #expect(carol.map(\.operation) == [.fetch, .store, .store])
        #expect(carol.map(\.requestedAt) == [ms(502), ms(562), ms(622)])
        #expect(carol.map(\.arrivedAt) == [ms(532), ms(592), ms(652)])
        #expect(carol.map(\.version) == [1, 2, 3])
        #expect(carol.map(\.refused) == [false, true, false])
        #expect(carol.map(\.answeredAt) == [ms(562), ms(622), ms(682)])
    }

    /// Mermaid and HTML draw the refused write and its conflict answer from the typed events.
    @Test func diagramsDrawTheRefusal() async throws {
        let report = try await Self.conditionalWrite()
        let mermaid = MermaidReport.render(report).split(separator: "\n").map(String.init)
        let carolTrips = mermaid.filter { $0.hasPrefix("    D3->>C") || $0.hasPrefix("    C-->>D3") }
        #expect(carolTrips == [
            "    D3->>C: fetch poll · 502ms → 532ms", "    C-->>D3: fetched poll v1",
            "    D3->>C: store poll · 562ms → 592ms", "    C-->>D3: conflict poll v2",
            "    D3->>C: store poll · 622ms → 652ms", "    C-->>D3: stored poll v3",
        ])
        let html = HTMLReport.render(report)
        #expect(html.contains("<title>refused store by carol-phone → v2</title>"))
        #expect(html.contains("carol-phone store poll: asked 562ms, reached the store 592ms v2, refused: the record had moved (M13)"))
    }

    /// The lesson narration tells the refusal and the conflict from the typed fields.
    @Test func narrationTellsTheRefusal() async throws {
        let report = try await Self.conditionalWrite()
        func flat(_ lines: [String]) -> String {
            lines.joined(separator: " ").split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        let steps = flat(LessonNarration.steps(report))
        #expect(steps.contains("592ms the store refuses carol-phone's write of poll: the record is already at v2, not the version it " +
            "read (M13)"))
        #expect(steps.contains("622ms carol-phone gets a conflict and the store's current poll v2: its app re-applies its change and " +
            "writes again (M13)"))
        #expect(steps.contains("562ms carol-phone's app writes its poll map back, only if the record is still at the version it read " +
            "(M13)"))
        #expect(steps.contains("532ms the store answers carol-phone's fetch of poll with v1"))
        #expect(steps.contains("682ms carol-phone gets the store's answer (stored poll v3)"))
        let short = flat(LessonNarration.shortTimeline(report))
        #expect(short.contains("592ms the store refuses carol-phone's write of poll: the record is already at v2, not the version it " +
            "read (M13)"))
    }
}
