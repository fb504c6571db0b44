import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimReporting
import GroupSimTesting

/// The page's time slider: the event list it embeds is the trace, one entry per event in
/// order with its time and the screen changes that event makes, which played give every
/// screen `ScreenReplay` draws; the sentences and pitfall moments say what the race did.
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

    /// Playing the embedded screen changes as the page's player does gives, after every
    /// event of the trace, each device's screen as `ScreenReplay` draws it (`groupsim run
    /// --format screens`): its drawn lines (M14), the live bubble marked (M10), its drafts
    /// (M16) and the extension's style (M19). Every line's message is in the message table.
    @Test(arguments: ScenarioFiles.shippedNames)
    func embeddedFramesPlayTheScreens(_ file: String) async throws {
        let report = try await ReportingFixture.run(file: "Scenarios/" + file)
        let data = try Self.embedded(HTMLReport.render(report))
        let events = Self.items(data["events"])
        #expect(events.count == report.outcome.trace.events.count)
        let messages = Set(Self.items(data["messages"]).compactMap { Self.int($0["id"]) })
        let replay = ScreenReplay(outcome: report.outcome)
        var screens = replay.start(report.outcome).screens.map { ($0.lines.map { _ in [String]() }, [JSONValue](), JSONValue.null) }
        // One expectation per file: the differences found, which should be none.
        var differences: [String] = []
        replay.walk(report.outcome) { index, state, _ in
            guard events.indices.contains(index) else { return }
            let event = events[index]
            if Self.int(event["t"]) != Int64(report.outcome.trace.events[index].time.nanoseconds) { differences.append("event \(index) t") }
            if let device = Self.int(event["d"]).map(Int.init), screens.indices.contains(device) {
                for change in Self.items(event["lines"]) {
                    let parts = Self.items(change)
                    guard parts.count == 2 || parts.count == 6, let slot = Self.int(parts[0]).map(Int.init), let at = Self.int(parts[1]).map(Int.init),
                          screens[device].0.indices.contains(slot), at <= screens[device].0[slot].count else {
                        differences.append("event \(index): change \(change.rendered(indent: nil))")
                        continue
                    }
                    if parts.count == 2 {
                        if at < screens[device].0[slot].count { screens[device].0[slot].remove(at: at) }
                        continue
                    }
                    let line = parts[3...].map { $0.rendered(indent: nil) }.joined(separator: " ")
                    if let message = Self.int(parts[3]), !messages.contains(message) { differences.append("m\(message) is not in the table") }
                    if Self.string(parts[2]) == "i" { screens[device].0[slot].insert(line, at: at) } else if at < screens[device].0[slot].count {
                        screens[device].0[slot][at] = line
                    }
                }
                if let drafts = event["drafts"] { screens[device].1 = Self.items(drafts) }
                if let open = event["open"] { screens[device].2 = open }
            }
            for (device, screen) in state.screens.enumerated() {
                let frames = screen.lines.map { replay.frames($0).map { "\($0.message) \"\($0.kind.rawValue)\" \($0.extra)" } }
                let drafts = screen.drafts.map { JSONValue.string($0) }
                if screens[device].0 != frames || (!drafts.allSatisfy { $0 == .null } && screens[device].1 != drafts)
                    || screens[device].2 != .string(screen.open?.rawValue) {
                    differences.append("event \(index), \(screen.name)")
                }
            }
        }
        #expect(differences.isEmpty, "\(file): \(differences.prefix(5))")
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
