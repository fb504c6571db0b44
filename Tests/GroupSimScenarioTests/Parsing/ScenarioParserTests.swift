import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimReporting
import GroupSimTesting

@Suite struct ScenarioParserTests {
    static let picklesRace = """
        name: pickles-race
        about: |
          Alice asks the group to pick a topping.
        seed: 7
        people:
          alice: [alice-phone]
          bob: [bob-phone, bob-ipad]
          carol:
            devices: [carol-phone]
            name: Carol Jones
        devices:
          bob-ipad: { app: missing }
        network:
          latency: 80ms
          jitter: 40ms
          links:
            - { from: bob-phone, to: alice-phone, latency: 10ms }
            - { from: carol, to: alice, latency: 12ms, jitter: 0ms }
        app:
          state: message
          cloud-latency: 30ms
        options:
          nil-summary: default-text
          summary-lines: 2
        steps:
          - at: 0ms
            device: alice-phone
            send: { session: poll, caption: "Pick a topping", summary: "Alice asked", data: { q: topping } }
          - at: 500ms
            race:
              within: 5ms
              steps:
                - { device: bob-phone, reply: { session: poll, data: { bob: tomatoes }, caption: "$me picked tomatoes" } }
                - { device: carol-phone, reply: { session: poll, data: { carol: pickles } } }
          - after: 1.5s
            device: carol-phone
            reinstall: true
        expect:
          - converged: poll
          - diverged: poll
          - latest: { device: alice-phone, session: poll, from: carol, data: { carol: pickles } }
          - complete: { session: poll, data: { bob: tomatoes, carol: pickles } }
          - pitfalls: [lost-update, divergence]
          - error: { step: 3, code: noBubble }
        """

    static func at(_ line: Int, _ column: Int) -> GroupSim.Scenario.SourceLocation {
        GroupSim.Scenario.SourceLocation(file: "pickles.yaml", line: line, column: column)
    }

    @Test func picklesRaceParsesIntoTheExpectedScenario() throws {
        let scenario = try ScenarioParser.parse(text: Self.picklesRace, file: "pickles.yaml")
        let at = Self.at
        let expected = Scenario(
            name: "pickles-race",
            about: "Alice asks the group to pick a topping.\n",
            seed: 7,
            people: [
                Scenario.Person(key: "alice", devices: ["alice-phone"]),
                Scenario.Person(key: "bob", devices: ["bob-phone", "bob-ipad"]),
                Scenario.Person(key: "carol", contactName: "Carol Jones", devices: ["carol-phone"]),
            ],
            devices: [
                Scenario.DeviceSpec(name: "alice-phone", person: "alice"),
                Scenario.DeviceSpec(name: "bob-phone", person: "bob"),
                Scenario.DeviceSpec(name: "bob-ipad", person: "bob", hasApp: false),
                Scenario.DeviceSpec(name: "carol-phone", person: "carol"),
            ],
            conversations: [Scenario.ConversationSpec(name: "group", members: ["alice", "bob", "carol"])],
            network: Scenario.NetworkSpec(
                latency: .milliseconds(80), jitter: .milliseconds(40),
                links: [
                    Scenario.LinkSpec(from: .device("bob-phone"), to: .device("alice-phone"), latency: .milliseconds(10)),
                    Scenario.LinkSpec(from: .person("carol"), to: .person("alice"), latency: .milliseconds(12), jitter: .zero),
                ]
            ),
            app: Scenario.AppSpec(name: nil, state: .message, cloudLatency: .milliseconds(30)),
            options: Scenario.Options(nilSummary: .defaultText, identifiers: .perDevice, summaryLines: 2),
            timeline: [
                .step(Scenario.Step(
                    number: 1, time: .zero, device: "alice-phone",
                    action: .send(Scenario.Compose(
                        session: "poll", data: [Scenario.DataEntry("q", "topping")], caption: "Pick a topping", summary: "Alice asked"
                    )),
                    location: at(26, 5)
                )),
                .race(Scenario.Race(
                    time: VirtualTime(nanoseconds: 500_000_000), within: .milliseconds(5),
                    steps: [
                        Scenario.Step(
                            number: 2, time: VirtualTime(nanoseconds: 500_000_000), device: "bob-phone",
                            action: .reply(Scenario.Compose(
                                session: "poll", data: [Scenario.DataEntry("bob", "tomatoes")], caption: "$me picked tomatoes"
                            )),
                            location: at(33, 11)
                        ),
                        Scenario.Step(
                            number: 3, time: VirtualTime(nanoseconds: 500_000_000), device: "carol-phone",
                            action: .reply(Scenario.Compose(session: "poll", data: [Scenario.DataEntry("carol", "pickles")])),
                            location: at(34, 11)
                        ),
                    ],
                    location: at(29, 5)
                )),
                .step(Scenario.Step(
                    number: 4, time: VirtualTime(nanoseconds: 2_000_000_000), device: "carol-phone",
                    action: .reinstall, location: at(35, 5)
                )),
            ],
            checks: [
                Scenario.CheckSpec(.converged(session: "poll"), location: at(39, 5)),
                Scenario.CheckSpec(.diverged(session: "poll"), location: at(40, 5)),
                Scenario.CheckSpec(
                    .latest(device: "alice-phone", session: "poll", from: "carol", data: [Scenario.DataEntry("carol", "pickles")], caption: nil),
                    location: at(41, 5)
                ),
                Scenario.CheckSpec(
                    .complete(session: "poll", data: [Scenario.DataEntry("bob", "tomatoes"), Scenario.DataEntry("carol", "pickles")]),
                    location: at(42, 5)
                ),
                Scenario.CheckSpec(.pitfalls([.lostUpdate, .divergence]), location: at(43, 5)),
                Scenario.CheckSpec(.error(step: 3, code: .noBubble), location: at(44, 5)),
            ],
            file: "pickles.yaml"
        )
        #expect(scenario == expected)
        #expect(scenario.steps.map(\.number) == [1, 2, 3, 4])
    }

    @Test func theSmallestScenarioTakesEveryDefault() throws {
        let scenario = try ScenarioParser.parse(
            text: "name: solo\npeople: { alice: [alice-phone] }\nsteps: []\n", file: "solo.yaml"
        )
        #expect(scenario == Scenario(
            name: "solo", people: [Scenario.Person(key: "alice", devices: ["alice-phone"])],
            devices: [Scenario.DeviceSpec(name: "alice-phone", person: "alice")],
            conversations: [Scenario.ConversationSpec(members: ["alice"])], timeline: [], file: "solo.yaml"
        ))
    }

    /// The diagnostics a user meets most, rendered exactly (`ParserFixture.header` is lines 1 to 5).
    @Test(arguments: [
        // A misspelt key, with the nearest valid key at that level.
        ("network:\n  latncy: 80ms\nsteps: []\n",
         #"t.yaml:7:3: error: unknown key "latncy" in network; did you mean "latency"?"#),
        // An unknown device in a step.
        ("steps:\n  - at: 0ms\n    device: bob-phon\n    text: hi\n",
         #"t.yaml:8:13: error: unknown device "bob-phon"; did you mean "bob-phone"?"#),
        // An unknown person in the conversation.
        ("conversation: [alice, carl]\nsteps: []\n",
         #"t.yaml:6:23: error: unknown person "carl"; did you mean "carol"?"#),
        // A duration without its unit.
        ("network:\n  latency: 80\nsteps: []\n",
         #"t.yaml:7:12: error: expected a duration such as 80ms, found "80""#),
        // A reply to a session that no send creates.
        ("""
         steps:
           - at: 0ms
             device: alice-phone
             send: { session: poll }
           - after: 1s
             device: bob-phone
             reply: { session: pol }

         """,
         #"t.yaml:12:23: error: unknown session "pol"; did you mean "poll"?"#),
        // An unknown $token in a caption.
        ("steps:\n  - at: 0ms\n    device: alice-phone\n    send: { session: poll, caption: \"$carl picks\" }\n",
         #"t.yaml:9:37: error: unknown person "$carl" in caption; did you mean "$carol"?"#),
        // A misspelt error code name.
        ("steps:\n  - at: 0ms\n    device: alice-phone\n    text: hi\nexpect:\n  - error: { step: 1, code: noBuble }\n",
         #"t.yaml:11:29: error: unknown error code "noBuble"; did you mean "noBubble"?"#),
        // Two actions in one step.
        ("steps:\n  - at: 0ms\n    device: alice-phone\n    send: { session: poll }\n    reply: { session: poll }\n",
         #"t.yaml:10:5: error: a step has one action, but this one has both "send" and "reply"; write two steps"#),
        // A step with neither at: nor after:.
        ("steps:\n  - device: alice-phone\n    text: hi\n",
         "t.yaml:7:5: error: a step needs a time: at: (from the start) or after: (from the previous step)"),
        // The transcript style cannot be requested (M19).
        ("steps:\n  - at: 0ms\n    device: alice-phone\n    open: transcript\n",
         "t.yaml:9:11: error: transcript style cannot be requested (M19): it is a per-bubble instance; open compact or expanded"),
    ])
    func diagnostic(body: String, expected: String) {
        #expect(ParserFixture.diagnostics(afterHeader: body) == expected)
    }

    @Test(arguments: [
        (["my-poll", "tally"], #"t.yaml:6:14: error: unknown app "my-pol"; registered apps: my-poll, tally; did you mean "my-poll"?"#),
        ([], #"t.yaml:6:14: error: unknown app "my-pol"; registered apps: none (leave out app.name to use the built-in app)"#),
    ])
    func unknownApp(registered: [String], expected: String) {
        #expect(ParserFixture.diagnostics(afterHeader: "app: { name: my-pol }\nsteps: []\n", registeredApps: registered) == expected)
    }

    @Test func aRegisteredAppIsAccepted() throws {
        let scenario = try ScenarioParser.parse(
            text: ParserFixture.header + "app: { name: my-poll, state: cloud-merge }\nsteps: []\n", file: "t.yaml",
            registeredApps: ["my-poll"]
        )
        #expect(scenario.app == Scenario.AppSpec(name: "my-poll", state: .cloudMerge))
    }

    @Test func everySectionReportsItsErrorsInFileOrder() {
        let text = """
            nmae: t
            seed: -1
            people:
              alice: [alice-phone]
              bob: [bob-phone]
            devices:
              bob-pad: { platform: android }
            network: { latency: 80 }
            options: { summary-lines: many }
            steps:
              - at: 0ms
                device: alice-phone
                txt: hi
            expect:
              - convergd: poll

            """
        #expect(ParserFixture.diagnostics(text) == """
            t.yaml:1:1: error: unknown key "nmae"; did you mean "name"?
            t.yaml:1:1: error: missing required key "name"
            t.yaml:2:7: error: expected a non-negative integer such as 7, found "-1", which is negative
            t.yaml:7:3: error: unknown device "bob-pad"; expected alice-phone or bob-phone
            t.yaml:7:24: error: expected ios, macos, watchos or ios9, found "android"
            t.yaml:8:21: error: expected a duration such as 80ms, found "80"
            t.yaml:9:27: error: expected a non-negative integer such as 3, found "many"
            t.yaml:11:5: error: a step needs an action: send, reply, insert, press-send, cancel, open, tap, close, text, sticker, \
            reinstall, offline, online, join or leave
            t.yaml:13:5: error: unknown key "txt" in a step; did you mean "text"?
            t.yaml:15:5: error: unknown check "convergd"; did you mean "converged"?
            """)
    }

    @Test func aFileThatCannotBeReadIsOneErrorWithoutAPlace() {
        let path = "/nonexistent/groupsim/missing.yaml"
        #expect(throws: ScenarioErrors.self) { try ScenarioParser.load(path: path) }
        do {
            _ = try ScenarioParser.load(path: path)
        } catch {
            #expect(error.description == "error: cannot read /nonexistent/groupsim/missing.yaml: no such file")
        }
    }

    @Test func aReadingErrorComesThroughAsIs() {
        #expect(ParserFixture.diagnostics("name: t\nname: u\n").hasPrefix("t.yaml:2:1: error:"))
    }
}
