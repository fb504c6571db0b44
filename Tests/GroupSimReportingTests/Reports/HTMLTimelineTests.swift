import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimReporting
import GroupSimTesting

/// The page's time slider: the event list it embeds is the trace, one entry per event in
/// order with its time, device, kind and message, and every message it names is in its
/// message table; the sentences and pitfall moments say what the race did.
@Suite struct HTMLTimelineTests {
    /// The JSON the page embeds, parsed back.
    static func embedded(_ html: String) throws -> JSONValue {
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"timeline-data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        return try JSONValue.parse(String(html[start.upperBound..<end.lowerBound]))
    }

    static func items(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value { return items }
        return []
    }

    static func int(_ value: JSONValue?) -> Int64? {
        if case .int(let number)? = value { return number }
        return nil
    }

    static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    @Test(arguments: ScenarioFiles.shippedNames)
    func embeddedEventsAreTheTrace(_ file: String) async throws {
        let report = try await ReportingFixture.run(file: "Scenarios/" + file)
        let trace = report.outcome.trace.events
        let devices = report.outcome.scenario.devices.map(\.name)
        let data = try Self.embedded(HTMLReport.render(report))
        let events = Self.items(data["events"])
        #expect(events.count == trace.count)
        let messages = Set(Self.items(data["messages"]).compactMap { Self.int($0["id"]) })
        // One expectation per file: the differences found, which should be none.
        var differences: [String] = []
        for (index, (event, embedded)) in zip(trace, events).enumerated() {
            var wanted: [(String, JSONValue)] = [("t", .int(event.time.nanoseconds)), ("at", .string(event.time.description)),
                                                 ("d", .int(devices.firstIndex(of: event.subject) ?? -1)),
                                                 ("k", .string(HTMLReport.kindName(event.kind)))]
            switch event.kind {
            case .sent(let message, _, _), .delivered(let message, _), .collapsed(_, let message, _):
                wanted.append(("m", .int(message)))
                if !messages.contains(Int64(message)) { differences.append("m\(message) is missing from the message table") }
            case .step(let number, _):
                wanted.append(("n", .int(number)))
            default:
                break
            }
            for (key, value) in wanted where embedded[key] != value {
                differences.append("event \(index) \(key): \(embedded[key].map { $0.rendered(indent: nil) } ?? "missing"), the trace " +
                    "has \(value.rendered(indent: nil))")
            }
            if Self.string(embedded["say"])?.isEmpty != false { differences.append("event \(index) says nothing") }
        }
        #expect(differences.isEmpty, "\(file): \(differences.prefix(5))")
        // Linear in the events: one entry per event and per message, no screen per instant.
        #expect(Self.items(data["messages"]).count == Set(trace.compactMap { event -> Int? in
            if case .sent(let message, _, _) = event.kind { return message }
            return nil
        }).count)
    }

    /// At 550ms Carol's phone receives Bob's m2, which replaces her own m4 as the live
    /// bubble of poll; the page says so in one sentence with the rule, and marks where the
    /// views part with a link to the pitfall.
    @Test func sentencesAndMomentsTellTheRace() async throws {
        let report = try await ReportingFixture.picklesRace()
        let data = try Self.embedded(HTMLReport.render(report))
        let events = Self.items(data["events"])
        let says = events.compactMap { Self.string($0["say"]) }
        #expect(says.contains("carol-phone receives m2 from Bob; it replaces m4 as the live bubble of poll: Carol's own m4 is no longer "
                              + "what carol-phone shows. An older message now sits below a newer one: arrival order alone decides."))
        #expect(says.contains { $0.hasPrefix("On carol-phone, m4's bubble of poll leaves its place: a summary line takes its place") })
        let rules = Set(events.compactMap { Self.string($0["rule"]) })
        #expect(rules.isSuperset(of: ["M10", "M11"]))
        let moments = events.filter { $0["moment"] != nil }
        #expect(!moments.isEmpty)
        #expect(moments.allSatisfy { (Self.int($0["pitfall"]) ?? -1) < Int64(report.pitfalls.count) })
        #expect(moments.contains { Self.string($0["moment"])?.hasPrefix("Here the views part (divergence, M12)") == true })
    }

    /// A page of a run with no event has no slider and no script.
    @Test func noEventsNoSlider() {
        let outcome = RunOutcome.empty(Scenario(name: "empty", people: [], devices: [], conversations: [], timeline: []))
        let html = HTMLReport.render(RunReport(outcome: outcome))
        #expect(!html.contains("<script"))
        #expect(!html.contains("id=\"scrubber\""))
    }
}
