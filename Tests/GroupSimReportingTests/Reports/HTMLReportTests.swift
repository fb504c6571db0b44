import Testing
@testable import GroupSim
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimReporting
import GroupSimTesting

/// `--format html`: one self-contained page with the Lamport diagram, the transcripts as
/// bubbles, the views over time, the checks and the pitfalls.
@Suite struct HTMLReportTests {
    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func pageIsSelfContained() async throws {
        let html = HTMLReport.render(try await ReportingFixture.picklesRace())
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.hasSuffix("</html>\n"))
        // Two scripts, both the page's own: the time slider's event list (data, not run)
        // and the slider, which the content security policy names by its hash.
        #expect(Self.count("<script", in: html) == 2)
        #expect(Self.count("<script type=\"application/json\" id=\"timeline-data\">", in: html) == 1)
        #expect(Self.count("<script>", in: html) == 1)
        #expect(html.contains("script-src \(HTMLReport.timelineScriptHash)\">"))
        #expect(!html.contains("unsafe-eval"))
        #expect(!html.contains("<link"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("@import"))
        #expect(!html.contains("url(http"))
        #expect(!html.contains(" src="))
        // The only URL is the SVG namespace (in the diagram and in the script that draws
        // over it), which is never fetched.
        #expect(Self.count("http://", in: html) == 2)
        #expect(Self.count("http://www.w3.org/2000/svg", in: html) == 2)
        #expect(Self.count("https://", in: html) == 0)
        #expect(html.contains("xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(html.contains("Content-Security-Policy"))
    }

    /// The Lamport diagram: a lane per device, an arrow per copy (M30), a mark per
    /// collapse (M10).
    @Test func diagramHasLanesArrowsAndCollapses() async throws {
        let report = try await ReportingFixture.picklesRace()
        let html = HTMLReport.render(report)
        #expect(Self.count("<svg class=\"flow\"", in: html) == 1)
        #expect(Self.count("class=\"lane-line\"", in: html) == 4)
        #expect(Self.count("<g class=\"copy\">", in: html) == report.outcome.copiesDelivered)
        let collapses = report.outcome.trace.events.filter { if case .collapsed = $0.kind { true } else { false } }.count
        #expect(Self.count("<path class=\"collapse\"", in: html) == collapses)
        // m2 from bob-phone (lane 1) at 500ms to alice-phone (lane 0) at 560ms, its tooltip exact.
        #expect(html.contains("<title>m2 bob-phone → alice-phone: sent 500ms, arrived 560ms</title>"))
        #expect(Self.count("<circle class=\"send\"", in: html) == 4)
    }

    @Test func transcriptsAreBubblesAndSummaryLines() async throws {
        let report = try await ReportingFixture.picklesRace()
        let html = HTMLReport.render(report)
        #expect(Self.count("<div class=\"device-transcript\">", in: html) == 4)
        #expect(Self.count("<div class=\"bubble ", in: html) == 4)
        #expect(Self.count("<div class=\"summary\"", in: html) == 12)
        #expect(html.contains("<div class=\"caption\">Bob picked tomatoes</div>"))
        // Alice's phone shows Bob's bubble on the left, carol-phone shows Alice's.
        #expect(html.contains("<div class=\"bubble theirs\">\n<div class=\"meta\"><span class=\"id\">m2</span> Bob"))
    }

    @Test func checksPitfallsAndPartingsAreShown() async throws {
        let report = try await ReportingFixture.picklesRace()
        let html = HTMLReport.render(report)
        #expect(Self.count("<td class=\"pass\">PASS</td>", in: html) == report.checks.count)
        #expect(Self.count("<article class=\"pitfall\" id=\"pitfall-", in: html) == report.pitfalls.count)
        #expect(html.contains("<strong>Why.</strong>"))
        #expect(html.contains("<strong>Fix.</strong>"))
        #expect(html.contains("Where the views parted (M12)"))
        #expect(html.contains("alice-phone and carol-phone agreed on poll until 501ms"))
    }

    @Test func failedStepsAreMarked() async throws {
        let report = try await Fixture.run(Fixture.group + """
            steps:
              - at: 0ms
                device: alice-phone
                send: { session: poll, caption: "Pick" }
              - at: 10ms
                device: bob-phone
                reply: { session: poll, data: { bob: tomatoes } }

            """)
        let html = HTMLReport.render(report)
        #expect(Self.count("<path class=\"failure\"", in: html) == 1)
        #expect(html.contains("step 2 failed: noBubble"))
        #expect(html.contains("<section id=\"failures\">"))
    }

    /// Eight devices and the cloud store: the lanes narrow so the diagram, its last lane
    /// the store's, fits the page's 1280px without scrolling, and their labels are clipped
    /// to the narrower lanes (the whole text is the tooltip). Four lanes keep their width.
    @Test func eightDevicesAndTheCloudFitThePage() async throws {
        let devices = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
        let scenario = try ScenarioParser.parse(text: """
            name: cloud-eight
            seed: 8
            people: { \(devices.map { "\($0): [\($0)-phone]" }.joined(separator: ", ")) }
            app: { state: cloud-merge, cloud-latency: 250ms }
            network: { latency: 300ms, jitter: 700ms }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
              - { at: 3s, device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }
              - { at: 3s, device: heidi-phone, reply: { session: poll, data: { heidi: olives } } }
            """, file: "cloud-eight.yaml")
        let html = HTMLReport.render(try await scenario.run())
        let svg = try #require(html.range(of: "<svg class=\"flow\" xmlns=\"http://www.w3.org/2000/svg\" width=\""))
        let width = try #require(Int(html[svg.upperBound...].prefix { $0.isNumber }))
        #expect(width <= HTMLReport.fittingWidth, "the diagram is \(width) wide")
        #expect(width == HTMLReport.axisWidth + 9 * 125 + 8)
        #expect(Self.count("class=\"lane-line\"", in: html) == 9)
        #expect(html.contains("text-anchor=\"middle\">cloud store</text>"))
        // The store's lane is the last, 125 apart from the one before it.
        #expect(html.contains("<line class=\"lane-line\" x1=\"\(HTMLReport.axisWidth + 8 * 125 + 14)\""))
        #expect(html.contains("<title>fetch by alice-phone → v0</title>fetch by alice-ph…</text>"))
        let four = HTMLReport.render(try await ReportingFixture.picklesRace())
        #expect(four.contains("width=\"\(HTMLReport.axisWidth + 4 * HTMLReport.laneWidth + 8)\""))
    }

    @Test func samePageEveryRun() async throws {
        let first = HTMLReport.render(try await ReportingFixture.picklesRace())
        let second = HTMLReport.render(try await ReportingFixture.picklesRace())
        #expect(first == second)
    }
}
