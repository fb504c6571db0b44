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
