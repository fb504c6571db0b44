import Testing
import GroupSim
import GroupSimTesting

/// A tap reads the cloud and Send pushes it (M13, M17, M21): the built-in app fetches the
/// record a tapped bubble names, what the device then shows is that answer, and the
/// state is written when the user taps Send, not when the message is composed.
@Suite struct CloudTapAndPushTests {
    static func poll(push: String? = nil, steps: String) -> String {
        Fixture.group + """
        app: { state: cloud-merge, cloud-latency: 20ms\(push.map { ", push: \($0)" } ?? "") }
        network: { latency: 100ms }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }

        """ + steps
    }

    /// The cloud requests of `device`, in order, as `fetch poll` / `store poll`.
    static func requests(_ report: RunReport, _ device: String) -> [String] {
        report.outcome.trace.events.compactMap { event in
            guard event.subject == device, case .cloudRequest(let operation, let key) = event.kind else { return nil }
            return "\(operation == .fetch ? "fetch" : "store") \(key)"
        }
    }

    /// M13, M21: a tap in a cloud mode makes the app fetch the record the bubble's token
    /// names (didFetch), and the device shows that answer: here an old one, since the
    /// device went offline and Carol's later vote never reached it.
    @Test func m13M21ATapFetchesAndShowsTheFetchedRecord() async throws {
        let text = Self.poll(steps: """
          - { at: 1s, device: bob-phone, tap: poll }
          - { at: 2s, device: bob-phone, offline: true }
          - { at: 3s, device: carol-phone, reply: { session: poll, data: { carol: pickles } } }
        expect:
          - callbacks: { device: bob-phone, sequence: [willBecomeActive, didBecomeActive, didFetch] }
          - latest: { device: bob-phone, session: poll, from: alice, data: { q: topping } }
          - latest: { device: alice-phone, session: poll, from: carol, data: { carol: pickles } }
          - diverged: poll
          - no-pitfalls: [lost-update]

        """)
        let report = try await Fixture.run(text)
        #expect(report.passed, "\(report.checks.map(\.detail))")
        #expect(Self.requests(report, "bob-phone") == ["fetch poll"])
        // The store moved on to Carol's vote; Bob's device still shows what its tap read.
        #expect(report.outcome.cloud.map(\.state.description) == ["{carol: pickles, q: topping}"])
        let divergence = try #require(report.pitfalls.first { $0.kind == .divergence })
        #expect(divergence.explanation.contains("bob-phone shows the record its app fetched when the user tapped"))
    }

    /// M13, M21: a newer bubble that arrives after the tap's answer is what the device shows
    /// again (what a tap on it would read), so a device back online agrees with the group.
    @Test func m13ANewerBubbleReplacesTheFetchedRecord() async throws {
        let text = Self.poll(steps: """
          - { at: 1s, device: bob-phone, tap: poll }
          - { at: 3s, device: carol-phone, reply: { session: poll, data: { carol: pickles } } }
        expect:
          - converged: poll
          - latest: { device: bob-phone, session: poll, from: carol, data: { q: topping, carol: pickles } }

        """)
        let report = try await Fixture.run(text)
        #expect(report.passed, "\(report.checks.map(\.detail))")
    }

    /// M13, M21: a reply taps, then composes: the tap's fetch is the read the change is
    /// built on, so the app fetches once, not twice, and writes once.
    @Test func m13AReplyFetchesOnceForItsTapAndItsChange() async throws {
        let report = try await Fixture.run(Self.poll(steps: "  - { at: 1s, device: bob-phone, reply: { session: poll, data: { bob: yes } } }\n"))
        #expect(Self.requests(report, "bob-phone") == ["fetch poll", "store poll"])
        #expect(report.outcome.cloud.map(\.state.description) == ["{bob: yes, q: topping}"])
        #expect(report.pitfalls.isEmpty, "\(report.pitfalls.map(\.summary))")
    }

    /// M13, M17: by default the state is pushed when the user taps Send: the write leaves
    /// with the message, and a draft the user removes writes nothing.
    @Test func m13M17SendPushesAndARemovedDraftWritesNothing() async throws {
        let text = Self.poll(steps: """
          - { at: 1s, device: carol-phone, insert: { session: poll, data: { carol: pickles } } }
          - { at: 2s, device: carol-phone, cancel: true }
          - { at: 3s, device: bob-phone, tap: poll }
        expect:
          - no-pitfalls: true
          - latest: { device: bob-phone, session: poll, from: alice, data: { q: topping } }

        """)
        let report = try await Fixture.run(text)
        #expect(report.passed, "\(report.checks.map(\.detail))")
        #expect(Self.requests(report, "carol-phone") == ["fetch poll"])
        #expect(report.outcome.cloud.map(\.state.description) == ["{q: topping}"])
        // Alice's send: staged, then the store request and the message at the user's Send.
        let alice = report.outcome.trace.events.filter { $0.subject == "alice-phone" }.compactMap { event -> String? in
            switch event.kind {
            case .staged: "staged"
            case .cloudRequest(let operation, _): operation == .fetch ? "fetch" : "store"
            case .sent: "sent"
            default: nil
            }
        }
        #expect(alice == ["fetch", "staged", "store", "sent"])
    }

    /// M17, M13: `app.push: on-compose` writes before the draft is staged: removing it
    /// leaves the change in the record everyone fetches, reported as `cancelled-write`.
    @Test func m17OnComposeLeavesACancelledChangeInTheRecord() async throws {
        let text = Self.poll(push: "on-compose", steps: """
          - { at: 1s, device: carol-phone, insert: { session: poll, data: { carol: pickles } } }
          - { at: 2s, device: carol-phone, cancel: true }
          - { at: 3s, device: bob-phone, tap: poll }
        expect:
          - pitfalls: [cancelled-write]
          - latest: { device: bob-phone, session: poll, from: alice, data: { carol: pickles } }

        """)
        let report = try await Fixture.run(text)
        #expect(report.passed, "\(report.checks.map(\.detail))")
        #expect(Self.requests(report, "carol-phone") == ["fetch poll", "store poll"])
        let pitfall = try #require(report.pitfalls.first { $0.kind == .cancelledWrite })
        #expect(pitfall.rule == "M17")
        #expect(pitfall.devices == ["carol-phone"])
        #expect(pitfall.summary.contains("carol=pickles"))
        #expect(pitfall.fix.contains("on-send"))
    }
}
