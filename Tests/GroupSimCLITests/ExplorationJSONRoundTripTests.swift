import Foundation
import GroupSimTesting
import Testing
import GroupSim
import GroupSimCLI
@testable import GroupSimChecking

/// What `groupsim explore --format json` writes reads back into the same report, and
/// writing that report again gives the same bytes: for every shipped scenario, random and
/// exhaustive, and for counts past 64 bits. A malformed report is refused with a message
/// that says which member, where, and what was expected.
@Suite struct ExplorationJSONRoundTripTests {
    /// Writes, reads and writes again `text`, as `groupsim merge` of one shard would.
    static func roundTrip(_ text: String, _ what: String) {
        do {
            let report = try ExplorationJSONReport.parse(text)
            #expect(ExplorationJSONReport.render(report) == text, "\(what): written again, the report differs")
        } catch {
            Issue.record("\(what): \(error)")
        }
    }

    @Test(arguments: ScenarioFiles.shippedNames)
    func everyScenarioRoundTrips(_ name: String) async {
        let file = CLI.path("Scenarios/" + name)
        let random = await CLI.run(["explore", file, "--runs", "6", "--format", "json", "--quiet"])
        #expect(random.status <= 1 && random.error.isEmpty, "\(name): \(random.error)")
        Self.roundTrip(random.output, "\(name) --runs 6")
        let exhaustive = await CLI.run(["explore", file, "--exhaustive", "--limit", "300", "--format", "json", "--quiet"])
        // Scenarios with more orders than the limit are refused; the others round-trip.
        if exhaustive.status <= 1 {
            Self.roundTrip(exhaustive.output, "\(name) --exhaustive")
        } else {
            #expect(exhaustive.error.contains("delivery orders") || exhaustive.error.contains("schedules"), "\(name): \(exhaustive.error)")
        }
    }

    /// Counts past 64 bits (an exhaustive exploration of a large group) are read exactly.
    @Test func countsPastSixtyFourBits() async throws {
        let file = CLI.path("Scenarios/pickles-race-window.yaml")
        var report = try ExplorationJSONReport.parse(await CLI.run(["explore", file, "--runs", "10", "--format", "json"]).output)
        let huge = try #require(ExactCount(String(repeating: "9", count: 60)))
        report.runs = huge
        report.outcomes[0].counts[0].runs = huge + 1
        report.cloudConflicts = huge
        let text = ExplorationJSONReport.render(report)
        #expect(text.contains("\"runs\": \(String(repeating: "9", count: 60)),"))
        #expect(try ExplorationJSONReport.parse(text) == report)
        Self.roundTrip(text, "large counts")
        // A number past 64 bits where a plain number is expected is refused.
        let line = text.replacingOccurrences(of: "\"requestedRuns\": 10", with: "\"requestedRuns\": \(huge)")
        #expect(throws: ExplorationError.invalidReport("the report: \"requestedRuns\" must be a whole number of at least 0")) {
            try ExplorationJSONReport.parse(line)
        }
    }

    /// Text that JSON escapes (quotes, backslashes, control characters, line separators)
    /// and text beyond ASCII reads back as written.
    @Test func escapedTextRoundTrips() async throws {
        let file = CLI.path("Scenarios/pickles-race-window.yaml")
        var report = try ExplorationJSONReport.parse(await CLI.run(["explore", file, "--runs", "10", "--format", "json"]).output)
        let odd = "q\"uo\\te\u{0}\u{1F}\n\t\u{2028}é e\u{301} 😀 /"
        report.file = odd
        report.checks[0].text = odd
        report.outcomes[0].counts[0].shown.state = StateMap([Scenario.DataEntry(odd, odd), Scenario.DataEntry("e\u{301}x", "")])
        let text = ExplorationJSONReport.render(report)
        #expect(try ExplorationJSONReport.parse(text) == report)
        Self.roundTrip(text, "escaped text")
    }

    /// Malformed members are named with their place in the report.
    @Test func malformedMembersAreNamed() async throws {
        let file = CLI.path("Scenarios/pickles-race-window.yaml")
        let text = await CLI.run(["explore", file, "--runs", "10", "--format", "json"]).output
        let cases: [(String, String, String)] = [
            ("\"scenario\": \"pickles-race-window\",", "", "the report: \"scenario\" is missing"),
            ("\"scenario\": \"pickles-race-window\"", "\"scenario\": 3", "the report: \"scenario\" must be a string"),
            ("\"seed\": \"", "\"seed\": \"x", "the report: \"seed\" must be a whole number in a string"),
            ("\"mode\": \"random\"", "\"mode\": \"sideways\"",
             "the report: \"mode\" must be \"random\" or \"exhaustive\", not \"sideways\""),
            ("\"runs\": 10,", "\"runs\": -10,", "the report: \"runs\" must be a whole number of at least 0"),
            ("\"devices\": [", "\"devices\": [4, ", "devices: item 0 must be a string"),
            ("\"checks\": [", "\"checks\": {}, \"was\": [", "the report: \"checks\" must be an array"),
            ("\"kind\": \"lost-update\"", "\"kind\": \"lost\"", "pitfalls[0]: \"kind\" must be one of \"lost-update\", \"divergence\", "
                + Scenario.PitfallKind.allCases.dropFirst(2).map { "\"\($0.rawValue)\"" }.joined(separator: ", ")),
            ("\"line\": ", "\"line\": true, \"was\": ", "checks[0]: \"line\" must be a whole number of at least 0"),
            ("\"fewest\": ", "\"fewest\": 99, \"was\": ", "outcomeClasses[0]: \"agreeing\" has fewest above most"),
        ]
        for (old, new, message) in cases {
            let range = try #require(text.range(of: old), "\(old)")
            let broken = text.replacingCharacters(in: range, with: new)
            #expect(throws: ExplorationError.invalidReport(message), "\(old)") { try ExplorationJSONReport.parse(broken) }
        }
        let state = try #require(text.range(of: "\"state\": {\n"))
        #expect(throws: ExplorationError.invalidReport("outcomes[0].counts[0].state: \"b\" must be a string")) {
            try ExplorationJSONReport.parse(text.replacingCharacters(in: state, with: "\"state\": { \"b\": 1,\n"))
        }
        #expect(throws: ExplorationError.invalidReport("not JSON: 1:1: expected a JSON value")) { try ExplorationJSONReport.parse("x") }
        #expect(throws: ExplorationError.invalidReport("not an exploration report (format \"groupsim-exploration-3\" expected)")) {
            try ExplorationJSONReport.parse("{\"format\": \"other\"}")
        }
    }
}
