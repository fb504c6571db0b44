import Testing
@testable import GroupSim
@testable import GroupSimSimulation
import GroupSimTesting

/// `summaries(ofSession:)` draws one session's summary lines without the rest of its view
/// (what a `summaries` check reads): on every device, for two sessions whose lines
/// interleave in one conversation, for a session no device shows, and for a snapshot whose
/// sessions were replaced, it gives the lines the whole view gives.
@Suite struct SessionSummaryTests {
    @Test func aSessionsLinesAloneAreTheViewsLines() async throws {
        let report = try await Fixture.run(Fixture.group + """
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping }, summary: "$me asked" } }
              - { at: 10ms, device: bob-phone, send: { session: lunch, data: { q: where }, summary: "$me asked where" } }
              - { at: 500ms, device: bob-phone, reply: { session: poll, data: { bob: tomatoes }, summary: "$me voted" } }
              - { at: 600ms, device: carol-phone, reply: { session: lunch, data: { carol: here }, summary: "$me picked" } }
              - { at: 700ms, device: alice-phone, reply: { session: poll, data: { alice: olives }, summary: "$me voted too" } }

            """)
        var drawn: [String] = []
        for device in report.outcome.devices {
            for session in ["poll", "lunch", "none"] {
                #expect(device.summaries(ofSession: session) == device.session(session)?.summaries, "\(device.name) \(session)")
                drawn += device.summaries(ofSession: session) ?? []
            }
            var copy = device
            copy.sessions = copy.sessions.filter { $0.session == "poll" }
            #expect(copy.summaries(ofSession: "poll") == device.session("poll")?.summaries, "\(device.name)")
            #expect(copy.summaries(ofSession: "lunch") == nil, "\(device.name)")
        }
        #expect(drawn.contains("Alice asked") && drawn.contains("Bob asked where") && drawn.contains("Bob voted"))
    }
}

/// A check compares a caption and summary lines without drawing them
/// (`caption(ofSession:is:)`, `summaries(ofSession:count:texts:)`): for every device and
/// session, and texts that are the drawn ones, nearly them, or canonically equal to them
/// in other bytes (a Kelvin sign for a K), the answer is what drawing and comparing gives.
@Suite struct UndrawnComparisonTests {
    @Test func comparedUndrawnAsDrawn() async throws {
        for (nilSummary, lines) in [("remove", 3), ("default-text", 1), ("default-text", 0)] {
            let report = try await Fixture.run("""
                name: test
                people:
                  alice: [alice-phone]
                  kim: { devices: [kim-phone, kim-ipad], name: Kim Kay }
                  carol: { devices: [carol-phone], name: "Carol Zoë" }
                options: { nil-summary: \(nilSummary), summary-lines: \(lines) }
                steps:
                  - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping }, caption: "$me asks $kim", summary: "$me asked" } }
                  - { at: 10ms, device: kim-phone, send: { session: lunch, data: { q: where }, caption: "Kim's $$me", summary: "$me asked where" } }
                  - { at: 500ms, device: kim-phone, reply: { session: poll, data: { kim: tomatoes }, caption: "$me picked" } }
                  - { at: 600ms, device: carol-phone, reply: { session: lunch, data: { carol: here }, caption: "$me" } }
                  - { at: 700ms, device: alice-phone, reply: { session: poll, data: { alice: olives }, summary: "$me voted too" } }
                  - { at: 800ms, device: carol-phone, reply: { session: poll, data: { carol: pickles }, caption: "$carol, $me" } }

                """)
            func variants(_ text: String) -> [String] {
                [text, text + "!", String(text.dropLast()), text.replacingOccurrences(of: "K", with: "\u{212A}"),
                 text.replacingOccurrences(of: "ë", with: "e\u{308}"), text.replacingOccurrences(of: "a", with: "b"), "", "Kim"]
            }
            var (compared, held) = (0, 0)
            for device in report.outcome.devices {
                for session in ["poll", "lunch", "none"] {
                    let caption = device.caption(ofSession: session)
                    for expected in variants((caption ?? nil) ?? "Kim picked") {
                        #expect(device.caption(ofSession: session, is: expected) == (caption == .some(expected)),
                                "\(device.name) \(session) \(expected)")
                        compared += 1
                        if caption == .some(expected) { held += 1 }
                    }
                    let drawn = device.summaries(ofSession: session) ?? []
                    var texts: [[String]?] = [nil, drawn, Array(drawn.dropLast()), drawn.reversed(), drawn + ["Kim voted"]]
                    texts += drawn.indices.flatMap { index in variants(drawn[index]).map { var changed = drawn; changed[index] = $0; return changed } }
                    for count in [nil, 0, 1, 2, 3, drawn.count] as [Int?] {
                        for text in texts {
                            let expected = (count == nil || count == drawn.count) && (text == nil || text == drawn)
                            #expect(device.summaries(ofSession: session, count: count, texts: text) == expected,
                                    "\(device.name) \(session) \(String(describing: count)) \(String(describing: text))")
                            compared += 1
                            if expected, text != nil { held += 1 }
                        }
                    }
                }
            }
            // Both answers were asked for, texts that hold included.
            #expect(held > 20 && held < compared / 2, "\(held) of \(compared)")
            // Other bytes, the same characters: equal as `==` compares them.
            let alice = try #require(report.outcome.device("alice-phone"))
            #expect(alice.caption(ofSession: "lunch", is: "Carol Zoe\u{308}"))
        }
    }
}
