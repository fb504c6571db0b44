import Foundation
import Testing
import GroupSim
import GroupSimTesting

@Suite struct CollapseTests {
    static let sequential = Fixture.group + """
    steps:
      - at: 0ms
        device: alice-phone
        send: { session: poll, caption: "Pick", summary: "$me asked", data: { q: topping } }
      - at: 200ms
        device: bob-phone
        reply: { session: poll, data: { bob: tomatoes }, summary: "$me voted" }
      - at: 400ms
        device: carol-phone
        reply: { session: poll, data: { carol: pickles } }

    """

    /// M10: the session's old bubble leaves its place; a summary line takes the place when
    /// it had summary text, and the new bubble goes to the bottom.
    @Test func m10CollapseLeavesSummaryLines() async throws {
        let text = Self.sequential + "  - at: 600ms\n    device: alice-phone\n    text: thanks\n  - at: 700ms\n    device: bob-phone\n" +
            "    reply: { session: poll, data: { bob: olives } }\n"
        let report = try await Fixture.run(text)
        // m3 (Carol) had no summary: with nil-summary remove nothing stays in its place.
        #expect(report.lines("alice-phone") == ["summary m1", "summary m2", "text m4", "bubble m5"])
        #expect(report.transcript("alice-phone").map(\.text) == ["Alice asked", "Bob voted", "thanks", nil])
    }

    /// M10: `nil-summary: default-text` writes the system's description instead.
    @Test func m10DefaultTextOption() async throws {
        let text = Self.sequential.replacingOccurrences(of: "steps:", with: "options: { nil-summary: default-text }\nsteps:")
            + "  - at: 600ms\n    device: bob-phone\n    reply: { session: poll, data: { bob: olives } }\n"
        let report = try await Fixture.run(text)
        #expect(report.lines("carol-phone") == ["summary m1", "summary m2", "summary m3", "bubble m4"])
        #expect(report.transcript("carol-phone")[2].text == "Carol sent a message")
    }

    /// M11: the sender collapses when it taps Send; others when the message arrives.
    @Test func m11CollapseTimes() async throws {
        let report = try await Fixture.run(Self.sequential)
        let collapses = report.outcome.trace.events.filter {
            if case .collapsed(_, let replaced, _) = $0.kind { return replaced == 1 }
            return false
        }
        let byDevice = Dictionary(collapses.map { ($0.subject, $0.time.nanoseconds) }, uniquingKeysWith: { first, _ in first })
        #expect(byDevice["bob-phone"] == 200_000_000, "at Bob's tap on Send")
        #expect(byDevice["alice-phone"] == 250_000_000, "when m2 arrives after 50ms")
        #expect(byDevice["bob-ipad"] == 250_000_000)
        #expect(byDevice["carol-phone"] == 250_000_000)
    }

    /// M12: near-simultaneous replies: each replier keeps the other's reply as live bubble,
    /// so devices diverge and one reply is lost everywhere it did not survive.
    @Test func m12NearSimultaneousRepliesDiverge() async throws {
        let text = Fixture.group + """
        steps:
          - at: 0ms
            device: alice-phone
            send: { session: poll, data: { q: topping } }
          - at: 500ms
            device: bob-phone
            reply: { session: poll, data: { bob: tomatoes } }
          - at: 502ms
            device: carol-phone
            reply: { session: poll, data: { carol: pickles } }
        expect:
          - latest: { device: bob-phone, session: poll, from: carol }
          - latest: { device: carol-phone, session: poll, from: bob }
          - latest: { device: alice-phone, session: poll, from: carol }
          - diverged: poll
          - pitfalls: [lost-update, divergence]

        """
        let report = try await Fixture.run(text)
        #expect(report.checks.map(\.passed) == [true, true, true, true, true])
        let lost = report.pitfalls.filter { $0.kind == .lostUpdate }
        #expect(lost.count == 2)
        #expect(lost.allSatisfy { $0.rule == "M12" })
        // Bob's reply survives only on Carol's phone.
        #expect(lost[0].devices == ["alice-phone", "bob-phone", "bob-ipad"])
        #expect(lost[1].devices == ["carol-phone"])
    }

    /// M12 (the sequential counterpart): a reply that has seen the previous one loses nothing.
    @Test func m12SequentialRepliesConverge() async throws {
        let text = Self.sequential + "expect:\n  - converged: poll\n" +
            "  - complete: { session: poll, data: { bob: tomatoes, carol: pickles, q: topping } }\n  - no-pitfalls: true\n"
        let report = try await Fixture.run(text)
        #expect(report.passed, "\(report.checks.map(\.detail))")
    }

    /// M14: only the last three summary lines of a session are drawn; `summary-lines` changes it.
    @Test(arguments: [(nil, 3), (1, 1), (5, 5)] as [(Int?, Int)])
    func m14SummaryLinesDrawn(option: Int?, drawn: Int) async throws {
        var text = "name: t\npeople:\n  alice: [alice-phone]\n  bob: [bob-phone]\n"
        if let option { text += "options: { summary-lines: \(option) }\n" }
        text += "steps:\n"
        for index in 0..<6 {
            text += "  - at: \(index * 100)ms\n    device: \(index.isMultiple(of: 2) ? "alice" : "bob")-phone\n"
            text += index == 0
                ? "    send: { session: s, summary: \"line \(index)\" }\n"
                : "    reply: { session: s, summary: \"line \(index)\" }\n"
        }
        let report = try await Fixture.run(text)
        let summaries = report.transcript("alice-phone").filter { $0.kind == .summary }.compactMap(\.text)
        #expect(summaries == (5 - drawn..<5).map { "line \($0)" })
        #expect(report.live("alice-phone", "s")?.summaryCount == 5)
    }

    /// Carol taps the poll, Bob replies, and only then Carol stages and sends her reply:
    /// with the state in the URL her app builds on the old selection (M15). She taps Send
    /// at 500ms, after a cloud round trip would have staged the draft too (M13).
    static let tapThenWait = Fixture.group + """
    steps:
      - at: 0ms
        device: alice-phone
        send: { session: poll, data: { q: topping } }
      - at: 100ms
        device: carol-phone
        tap: poll
      - at: 200ms
        device: bob-phone
        reply: { session: poll, data: { bob: tomatoes } }
      - at: 400ms
        device: carol-phone
        insert: { session: poll, data: { carol: pickles } }
      - at: 500ms
        device: carol-phone
        press-send: true

    """

    /// M15: selectedMessage is not refreshed by arrivals; building on it is stale-selection.
    @Test func m15StaleSelection() async throws {
        let text = Self.tapThenWait + """
        expect:
          - pitfalls: [stale-selection, lost-update]
          - latest: { device: alice-phone, session: poll, from: carol, data: { carol: pickles } }

        """
        let report = try await Fixture.run(text)
        #expect(report.passed, "\(report.checks.map(\.detail))")
        let stale = try #require(report.pitfalls.first { $0.kind == .staleSelection })
        #expect(stale.devices == ["carol-phone"])
        #expect(stale.message == 1)
        // Carol's reply was built on m1, so Bob's vote is gone from her new state.
        #expect(report.live("alice-phone", "poll")?.urlState["bob"] == nil)
    }

    /// M15 with M13: with the state in a cloud store the app fetches the current state, so
    /// an old selection is not a pitfall and nothing is lost. (Carol's tap at 100ms finds
    /// the bubble: the send waits only for its fetch and pushes the state as it leaves, at
    /// 40ms, so the copy arrives at 90ms, M13; her tap fetches the record too.)
    @Test func m15OldSelectionIsHarmlessWithACloudStore() async throws {
        let text = Self.tapThenWait.replacingOccurrences(of: "steps:", with: "app: { state: cloud-merge }\nsteps:") + """
        expect:
          - no-pitfalls: true
          - complete: { session: poll, data: { q: topping, bob: tomatoes, carol: pickles } }

        """
        let report = try await Fixture.run(text)
        #expect(report.passed, "\(report.checks.map(\.detail))")
        #expect(report.outcome.failures.isEmpty, "\(report.outcome.failures.map(\.reason))")
        let carol = report.outcome.device("carol-phone")?.callbacks ?? []
        #expect(Array(carol.prefix(3)) == [.willBecomeActive, .didBecomeActive, .didFetch], "\(carol)")
    }
}
