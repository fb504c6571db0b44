import Testing
@testable import GroupSim
@testable import GroupSimReporting
import GroupSimTesting

/// `--format mermaid`: a sequenceDiagram with one arrow per delivered copy (M30), the
/// collapses as notes (M10), step failures as notes.
@Suite struct MermaidReportTests {
    @Test func picklesRaceDrawsEveryCopyAndCollapse() async throws {
        let report = try await ReportingFixture.picklesRace()
        let text = MermaidReport.render(report)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "sequenceDiagram")
        #expect(lines.contains("    participant D1 as alice-phone"))
        #expect(lines.contains("    participant D4 as carol-phone"))
        #expect(!text.contains("cloud store"))
        // One arrow per delivered copy, drawn where it arrived (M11, M30).
        let arrows = lines.filter { $0.contains("->>") }
        #expect(arrows.count == report.outcome.copiesDelivered)
        #expect(arrows.contains("    D2->>D1: m2 poll · 500ms → 560ms"))
        #expect(arrows.last == "    D2->>D1: m2 poll · 500ms → 560ms")
        // Every collapse is a note on the device where it happened (M10).
        let collapses = report.outcome.trace.events.filter { if case .collapsed = $0.kind { true } else { false } }.count
        #expect(text.components(separatedBy: "→ summary line").count - 1 == collapses)
        #expect(lines.contains("    Note over D1: 560ms m4 → summary line"))
        // The sender's own collapse happens when it taps Send (M11): one note with the step.
        #expect(lines.contains("    Note over D2: 500ms step 2 reply poll · sends m2 in poll · m1 → summary line"))
    }

    @Test func failedStepsAreNotes() async throws {
        let report = try await Fixture.run(Fixture.group + """
            steps:
              - at: 0ms
                device: bob-phone
                reply: { session: poll, data: { bob: tomatoes } }
              - at: 100ms
                device: alice-phone
                send: { session: poll, caption: "Pick" }
            expect:
              - error: { step: 1, code: noBubble }

            """)
        let text = MermaidReport.render(report)
        #expect(text.contains("    Note over D2: 0ms step 1 reply poll · ✖ step 1 failed: noBubble"))
        #expect(text.contains("    D1->>D2: m1 poll · 100ms → 150ms"))
    }

    @Test func cloudTripsHaveTheirParticipant() async throws {
        let report = try await ReportingFixture.run(file: "Scenarios/lessons/cloud-remedy-broken.yaml")
        let text = MermaidReport.render(report)
        #expect(text.contains("    participant C as cloud store"))
        #expect(text.contains("    D2->>C: fetch poll · 500ms → 530ms"))
        #expect(text.contains("    C-->>D3: stored poll v3"))
    }

    @Test func sameRunSameText() async throws {
        let first = MermaidReport.render(try await ReportingFixture.picklesRace())
        let second = MermaidReport.render(try await ReportingFixture.picklesRace())
        #expect(first == second)
    }
}
