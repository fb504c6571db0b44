import Testing
@testable import GroupSim
import GroupSimTesting

/// Every field of the template layout (M9), drawn with `$` tokens as names (M5), and what
/// an old system receives instead of a bubble (M26): `latest` reads each field as drawn
/// and whether there is a caption bar, `plain` reads the plain messages.
@Suite struct LayoutChecksTests {
    static let group = """
        name: layout
        people:
          alice: [alice-phone]
          bob: [bob-phone]
          carol: [carol-old]
        devices:
          carol-old: { platform: ios9 }
        steps:
          - at: 0ms
            device: alice-phone
            send:
              session: poll
              data: { q: lunch }
              caption: "$me asks"
              subcaption: "for $bob"
              trailing-caption: "by noon"
              trailing-subcaption: "$me pays"
              image-title: "Lunch with $bob"
              image-subtitle: "at $me's"
              image: pizza.png
          - { at: 1s, device: bob-phone, reply: { session: poll, data: { bob: yes }, image-title: "$me is in" } }
          - { at: 2s, device: alice-phone, send: { session: bare, data: { q: dinner } } }

        """

    /// M9, M5: every text field a step gives is drawn on the receiver with contact names.
    @Test func m9M5LatestReadsEveryFieldAsDrawn() async throws {
        let text = Self.group + """
            expect:
              - latest: { device: bob-phone, session: bare, caption-bar: false }
              - plain: { device: carol-old, count: 4 }

            """
        let first = try await Fixture.run(Self.group.replacingOccurrences(
            of: "  - { at: 1s, device: bob-phone, reply: { session: poll, data: { bob: yes }, image-title: \"$me is in\" } }\n", with: "")
            + """
            expect:
              - latest: { device: bob-phone, session: poll, caption: "Alice asks", subcaption: "for Bob", trailing-caption: "by noon", trailing-subcaption: "Alice pays", image-title: "Lunch with Bob", image-subtitle: "at Alice's", image: pizza.png, caption-bar: true }

            """)
        #expect(first.passed, "\(first.checks.map(\.detail))")
        let json = JSONReport.render(first)
        #expect(json.contains(#""imageTitle": "Lunch with Bob""#), "\(json)")
        let report = try await Fixture.run(text)
        #expect(report.passed, "\(report.checks.map(\.detail))")
        // The reply kept only its own field: no caption bar, an image title drawn as a name.
        let drawn = try #require(report.outcome.device("alice-phone")?.transcripts.first?.entries.last { $0.session == "poll" })
        #expect(drawn.layout?.imageTitle == "Bob is in" && drawn.layout?.hasCaptionBar == false)
    }

    /// M9: a bubble with no caption field has no caption bar, and a check saying it has
    /// one fails, naming what is drawn.
    @Test func m9CaptionBarIsCheckedBothWays() async throws {
        let report = try await Fixture.run(Self.group + """
            expect:
              - latest: { device: bob-phone, session: bare, caption-bar: true }
              - latest: { device: bob-phone, session: poll, image-title: "Lunch with Bob" }

            """)
        #expect(report.checks.map(\.passed) == [false, false])
        #expect(report.checks[0].detail.hasSuffix(", no caption bar"), "\(report.checks[0].detail)")
        #expect(report.checks[1].detail.contains(#"image-title "Bob is in""#), "\(report.checks[1].detail)")
    }

    /// M26: an old system receives the layout's picture, captioned as the caption bar
    /// reads, then the URL as text; a layout without an image gives the URL alone.
    @Test func m26PlainReadsTheOldSystemsMessages() async throws {
        let texts = [
            #"[picture of pizza.png, captioned "Alice asks for Bob by noon Alice pays"]"#, "?q=lunch",
            "?bob=yes&q=lunch", "?q=dinner",
        ]
        let report = try await Fixture.run(Self.group + """
            expect:
              - plain: { device: carol-old, count: 4, texts: [\(texts.map { "'\($0)'" }.joined(separator: ", "))] }
              - plain: { device: bob-phone, count: 0 }
              - plain: { device: carol-old, count: 2 }

            """)
        #expect(report.checks.map(\.passed) == [true, true, false], "\(report.checks.map(\.detail))")
        #expect(report.checks[2].detail.hasPrefix("carol-old received 4 plain messages"), "\(report.checks[2].detail)")
    }

    /// The writer gives back what the parser read: every layout field, `caption-bar` and
    /// `plain`.
    @Test func theWriterRoundTripsTheNewFields() throws {
        let scenario = try Fixture.scenario(Self.group + """
            expect:
              - latest: { device: bob-phone, session: poll, trailing-caption: "by noon", image: pizza.png, caption-bar: true }
              - plain: { device: carol-old, count: 1, texts: ["?q=lunch"] }

            """)
        let again = try Fixture.scenario(ScenarioWriter.yaml(scenario))
        #expect(again.checks.map(\.check) == scenario.checks.map(\.check))
        #expect(again.steps.map(\.action) == scenario.steps.map(\.action))
    }
}
