import Testing
@testable import GroupSim
@testable import GroupSimReporting
import GroupSimTesting

/// `--format sides`: every device's transcript in its own column, the live bubbles over
/// time, and where divergent views parted (M10, M11, M12).
@Suite struct SideBySideReportTests {
    @Test func columnsPerDevice() async throws {
        let text = SideBySideReport.render(try await ReportingFixture.picklesRace())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.first { $0.hasPrefix("  alice-phone (Alice)") })
        #expect(header.contains(" | bob-phone (Bob)"))
        #expect(header.contains(" | bob-ipad (Bob)"))
        #expect(header.contains(" | carol-phone (Carol)"))
        // Alice's column: three summary lines (M14), then Bob's bubble with its state.
        let columnWidth = try #require(header.firstIndex(of: "|")).utf16Offset(in: header) - 3
        let aliceColumn = lines.drop { $0 != header }.dropFirst(2).prefix { !$0.isEmpty }
            .map { String($0.dropFirst(2).prefix(columnWidth)).sidesTrimmed }
        #expect(Array(aliceColumn.prefix(4)) == ["· Alice asked for toppings", "· Alice voted", "· Carol voted",
            "[m2 Bob] Bob picked tomatoes"])
        #expect(aliceColumn.contains("  {bob: tomatoes, q: topping}"))
    }

    @Test func liveBubbleOverTime() async throws {
        let text = SideBySideReport.render(try await ReportingFixture.picklesRace())
        #expect(text.contains("The live bubble of poll over time (> marks a change)"))
        let rows = text.split(separator: "\n").map(String.init)
        let at560 = try #require(rows.first { $0.hasPrefix("  560ms") })
        #expect(at560.contains("> m2 from bob-phone"))
        #expect(at560.contains("  m4"))
        let at0 = try #require(rows.first { $0.hasPrefix("    0ms") })
        #expect(at0.contains("> m1 sent"))
    }

    @Test func partingsOfTheDivergence() async throws {
        let text = SideBySideReport.render(try await ReportingFixture.picklesRace())
        #expect(text.contains("Where the views parted (M12)"))
        #expect(text.contains("  - alice-phone and bob-phone agreed on poll until 500ms (both showed m1); then bob-phone sent m2"))
        #expect(text.hasSuffix("trace: \(try await ReportingFixture.picklesRace().digest)\n"))
    }

    @Test func noPartingsWithoutDivergence() async throws {
        let report = try await ReportingFixture.run(file: "Scenarios/lessons/simultaneous-replies-fixed.yaml")
        #expect(!SideBySideReport.render(report).contains("Where the views parted"))
    }

    @Test func wrapsLongText() {
        #expect(SideBySideReport.wrap("one two three four", width: 9) == ["one two", "three", "four"])
        #expect(SideBySideReport.wrap("  {a: b, c: d}", width: 8) == ["  {a: b,", "  c: d}"])
        #expect(SideBySideReport.wrap("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    }
}

extension String {
    var sidesTrimmed: String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
