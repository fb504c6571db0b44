import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimReporting
import GroupSimTesting

/// `ScenarioWriter` prints scenarios that `ScenarioParser` reads back unchanged
/// (docs/scenario-format.md is the contract both sides keep).
@Suite struct ScenarioWriterTests {
    /// Every scenario file shipped under Scenarios/, lessons included.
    static let scenarioFiles = ScenarioFiles.shipped

    @Test func scenariosDirectoryIsFound() {
        #expect(!Self.scenarioFiles.isEmpty)
    }

    @Test(arguments: scenarioFiles)
    func roundTripsEveryScenarioFile(_ path: String) throws {
        let original = try ScenarioParser.load(path: path)
        let text = ScenarioWriter.yaml(original)
        let reread = try ScenarioParser.parse(text: text, file: "written.yaml")
        #expect(reread.normalizedForComparison == original.normalizedForComparison, "\(path) printed as:\n\(text)")
        // Printing is a fixed point: the re-read scenario prints the same text.
        #expect(ScenarioWriter.yaml(reread) == text)
    }

    @Test func writesTheFormatsOwnShapes() throws {
        let text = ScenarioWriter.yaml(try ScenarioParser.parse(text: ScenarioParserTests.picklesRace, file: "t.yaml"))
        // Durations with units, races with `at:` and `within:`, settings that differ from defaults only.
        #expect(text.contains("  latency: 80ms\n"))
        #expect(text.contains("  - at: 500ms\n    race:\n      within: 5ms\n      steps:\n        - { device: bob-phone, reply: "))
        #expect(text.contains("  bob-ipad: { app: missing }\n"))
        #expect(text.contains("  carol: { devices: [carol-phone], name: \"Carol Jones\" }\n"))
        #expect(text.contains("about: |\n  Alice asks the group to pick a topping.\n"))
        #expect(!text.contains("conversation:"))
        #expect(text.contains("seed: 7\n"))
    }

    @Test func durationsKeepEveryNanosecond() throws {
        var scenario = Self.tricky
        scenario.network.latency = VirtualDuration(nanoseconds: 1_500_000_001)
        scenario.network.jitter = VirtualDuration(nanoseconds: 7)
        scenario.app.cloudLatency = .milliseconds(1500)
        let reread = try ScenarioParser.parse(text: ScenarioWriter.yaml(scenario), file: "t.yaml")
        #expect(reread.network.latency.nanoseconds == 1_500_000_001)
        #expect(reread.network.jitter.nanoseconds == 7)
        #expect(reread.app.cloudLatency == .milliseconds(1500))
    }

    /// Strings that a naive printer gets wrong: quotes, `#`, `: `, flow indicators,
    /// words and numbers the reader types, blanks at the ends, unicode beyond the BMP,
    /// combining marks, control characters and line breaks.
    static let trickyStrings = [
        "Pick a \"topping\"", "it's", "#1 pick", "a # not a comment", "key: value", "ends with colon:", "[a, b]", "{x: 1}",
        "a, b", "true", "false", "null", "42", "-7", "1.50", "1e5", "", " leading", "trailing ", "- item", "|", ">",
        "&anchor", "*alias", "!tag", "%x", "@me", "`tick`", "back\\slash", "tab\there", "bell\u{7}", "del\u{7F}",
        "line\nbreak", "cr\r\nlf", "café", "e\u{301}", "🥒 pickles", "\u{FEFF}bom", "sep\u{2028}arator", "$me picked", "costs $5",
        "?question", ":colon", "'single'", "\"", "\\", "\\n literally",
    ]

    @Test(arguments: trickyStrings)
    func roundTripsTrickyStrings(_ text: String) throws {
        var scenario = Self.tricky
        let sessionName = text.isEmpty ? "s" : text
        scenario.timeline = [
            .step(Scenario.Step(number: 1, time: .zero, device: "alice-phone", action: .send(Scenario.Compose(
                session: sessionName, data: [Scenario.DataEntry(text.isEmpty ? "k" : text, text), Scenario.DataEntry("plain", text)],
                caption: text, subcaption: text, summary: text, url: text)))),
            .step(Scenario.Step(number: 2, time: VirtualTime(nanoseconds: 1), device: "bob-phone", action: .text(text.isEmpty ? "x" : text))),
            .step(Scenario.Step(number: 3, time: VirtualTime(nanoseconds: 2), device: "bob-phone", action: .tap(session: sessionName))),
        ]
        scenario.checks = [
            Scenario.CheckSpec(.latest(device: "bob-phone", session: sessionName, from: "alice", data: [Scenario.DataEntry("plain", text)], caption: text)),
            Scenario.CheckSpec(.summaries(device: "alice-phone", session: sessionName, count: 2, texts: [text, text])),
        ]
        scenario.about = text
        scenario.name = text.isEmpty ? "n" : text
        scenario.people[0].contactName = text.isEmpty ? "A" : text
        try expectRoundTrip(scenario)
    }

    @Test(arguments: [
        "One line.", "One line.\n", "Two\nlines", "Two\nlines\n", "Trailing\nbreaks\n\n\n", "\nLeading break\n",
        "Blank\n\nline inside\n", "  indented first line\n", "Indented\n  later line\n", "\ttab first\n", "Only\n   \nblanks\n",
        "# looks like a comment\nbut is text\n", "a: b\n- c\n", "crlf\r\nline\n", "x\n\n",
    ])
    func roundTripsAboutProse(_ about: String) throws {
        var scenario = Self.tricky
        scenario.about = about
        try expectRoundTrip(scenario)
    }

    @Test func multiLineAboutIsBlockText() {
        var scenario = Self.tricky
        scenario.about = "Alice asks.\nBob answers.\n"
        #expect(ScenarioWriter.yaml(scenario).hasPrefix("name: tricky\nabout: |\n  Alice asks.\n  Bob answers.\nseed: 1\n"))
    }

    @Test func roundTripsEveryActionCheckAndSetting() throws {
        var scenario = Self.tricky
        scenario.seed = UInt64(Int64.max)
        scenario.people.append(Scenario.Person(key: "carol", devices: ["carol-phone", "carol-mac", "carol-watch"]))
        scenario.devices += [
            Scenario.DeviceSpec(name: "carol-phone", person: "carol", hasApp: false),
            Scenario.DeviceSpec(name: "carol-mac", person: "carol", platform: .macos),
            Scenario.DeviceSpec(name: "carol-watch", person: "carol", platform: .watchos, hasApp: false),
        ]
        scenario.conversations = [Scenario.ConversationSpec(name: "family", members: ["alice", "bob"]),
                                  Scenario.ConversationSpec(name: "team", members: ["alice", "carol"])]
        scenario.network = Scenario.NetworkSpec(latency: .milliseconds(80), jitter: .milliseconds(40), links: [
            Scenario.LinkSpec(from: .device("bob-phone"), to: .device("alice-phone"), latency: .milliseconds(10)),
            Scenario.LinkSpec(from: .person("carol"), to: .person("alice"), latency: .microseconds(12), jitter: .zero),
            Scenario.LinkSpec(from: .person("alice"), to: .device("carol-mac"), jitter: .seconds(2)),
        ])
        scenario.app = Scenario.AppSpec(state: .cloudMerge, cloudLatency: .milliseconds(30))
        scenario.options = Scenario.Options(nilSummary: .defaultText, identifiers: .perConversation, summaryLines: 0)
        let actions: [(String, String?, Scenario.Action)] = [
            ("alice-phone", "family", .send(Scenario.Compose(session: "poll", data: [Scenario.DataEntry("q", "topping")], caption: "Pick", direct: true))),
            ("alice-phone", "team", .insert(Scenario.Compose(session: "plan", summary: "$me planned"))),
            ("alice-phone", "team", .pressSend),
            ("alice-phone", "team", .cancel),
            ("alice-phone", "team", .open(.expanded)),
            ("alice-phone", "team", .open(.compact)),
            ("carol-phone", "team", .tap(session: "plan")),
            ("carol-phone", "team", .close),
            ("bob-phone", "family", .text("hello")),
            ("bob-phone", "family", .sticker(.file(path: "pickle.png", description: "Pickle"))),
            ("bob-phone", "family", .sticker(.described(format: "png", bytes: 120_000, pixels: 408, description: "A \"big\" pickle"))),
            ("bob-phone", nil, .reinstall),
            ("bob-phone", nil, .offline),
            ("bob-phone", nil, .online),
            ("alice-phone", "family", .join(person: "carol")),
            ("alice-phone", "family", .leave(person: "carol")),
        ]
        var timeline: [Scenario.TimelineItem] = []
        for (offset, entry) in actions.enumerated() {
            timeline.append(.step(Scenario.Step(number: offset + 1, time: VirtualTime(nanoseconds: Int64(offset) * 250_000_000),
                                       device: entry.0, conversation: entry.1, action: entry.2)))
        }
        timeline.append(.race(Scenario.Race(time: VirtualTime(nanoseconds: 9_000_000_000), within: .milliseconds(5), steps: [
            Scenario.Step(number: 17, time: VirtualTime(nanoseconds: 9_000_000_000), device: "bob-phone", conversation: "family",
                 action: .reply(Scenario.Compose(session: "poll", data: [Scenario.DataEntry("bob", "tomatoes")], caption: "$me picked",
                                        summary: "$alice", direct: true))),
            Scenario.Step(number: 18, time: VirtualTime(nanoseconds: 9_000_000_000), device: "alice-phone", conversation: "family",
                 action: .reply(Scenario.Compose(session: "poll", data: [Scenario.DataEntry("alice", "olives")]))),
        ])))
        scenario.timeline = timeline
        scenario.checks = [
            Scenario.CheckSpec(.latest(device: "alice-phone", session: "poll", from: nil, data: [], caption: nil)),
            Scenario.CheckSpec(.summaries(device: "alice-phone", session: "poll", count: nil, texts: [])),
            Scenario.CheckSpec(.converged(session: "poll")),
            Scenario.CheckSpec(.diverged(session: "plan")),
            Scenario.CheckSpec(.complete(session: "poll", data: [])),
            Scenario.CheckSpec(.complete(session: "poll", data: [Scenario.DataEntry("bob", "tomatoes")])),
            Scenario.CheckSpec(.pitfalls([.lostUpdate, .droppedURL, .staleSelection])),
            Scenario.CheckSpec(.noPitfalls),
            Scenario.CheckSpec(.callbacks(device: "carol-phone", sequence: [])),
            Scenario.CheckSpec(.callbacks(device: "alice-phone", sequence: [.willBecomeActive, .didBecomeActive])),
            Scenario.CheckSpec(.error(step: 18, code: .noBubble)),
            Scenario.CheckSpec(.error(step: 1, code: .unknown)),
        ]
        try expectRoundTrip(scenario)
    }

    // MARK: - Support

    /// Two people, three devices, one step: the base that tests change.
    static let tricky = Scenario(
        name: "tricky",
        people: [Scenario.Person(key: "alice", devices: ["alice-phone"]), Scenario.Person(key: "bob", devices: ["bob-phone", "bob-ipad"])],
        devices: [Scenario.DeviceSpec(name: "alice-phone", person: "alice"), Scenario.DeviceSpec(name: "bob-phone", person: "bob"),
                  Scenario.DeviceSpec(name: "bob-ipad", person: "bob")],
        conversations: [Scenario.ConversationSpec(members: ["alice", "bob"])],
        timeline: [.step(Scenario.Step(number: 1, time: .zero, device: "alice-phone", action: .send(Scenario.Compose(session: "poll"))))]
    )

    private func expectRoundTrip(_ scenario: Scenario, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let text = ScenarioWriter.yaml(scenario)
        let reread: Scenario
        do {
            reread = try ScenarioParser.parse(text: text, file: "written.yaml")
        } catch {
            Issue.record("the printed scenario does not parse:\n\(error.description)\n---\n\(text)", sourceLocation: sourceLocation)
            return
        }
        #expect(reread.normalizedForComparison == scenario.normalizedForComparison, "printed as:\n\(text)", sourceLocation: sourceLocation)
    }
}

extension Scenario {
    /// The scenario without what a round trip may change: source locations, the file name
    /// and step numbers (renumbered 1, 2, ... in file order).
    var normalizedForComparison: Scenario {
        var copy = self
        copy.file = ""
        var number = 0
        func normalized(_ step: Step) -> Step {
            var step = step
            number += 1
            step.number = number
            step.location = nil
            return step
        }
        copy.timeline = timeline.map { item in
            switch item {
            case .step(let step):
                return .step(normalized(step))
            case .race(var race):
                race.location = nil
                race.steps = race.steps.map(normalized)
                return .race(race)
            }
        }
        copy.checks = checks.map { CheckSpec($0.check) }
        return copy
    }
}
