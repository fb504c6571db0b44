import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
import GroupSimTesting

/// The rules of docs/scenario-format.md section by section, and the parser's choices where it is silent.
@Suite struct ScenarioParserRulesTests {
    /// Bodies after `ParserFixture.header` (which is lines 1 to 5) and their exact diagnostics.
    @Test(arguments: [
        // devices
        ("devices:\n  carol-phone: { app: gone }\nsteps: []\n",
         #"t.yaml:7:23: error: expected installed or missing, found "gone""#),
        // conversation, conversations
        ("conversation: [alice]\nconversations: { team: [bob] }\nsteps: []\n",
         "t.yaml:7:1: error: give either conversation or conversations, not both"),
        ("conversation: [alice, alice]\nsteps: []\n",
         #"t.yaml:6:23: error: alice is listed twice in conversation"#),
        ("conversation: []\nsteps: []\n",
         "t.yaml:6:15: error: conversation has no members; list at least one person"),
        ("""
         conversations: { family: [alice, bob], team: [alice, carol] }
         steps:
           - at: 0ms
             device: alice-phone
             text: hi
           - at: 0ms
             device: carol-phone
             conversation: family
             text: hi
           - at: 0ms
             device: bob-phone
             conversation: tema
             text: hi
           - at: 1s
             device: bob-phone
             offline: true

         """,
         """
         t.yaml:8:5: error: a text step needs conversation: when there are several (family or team)
         t.yaml:12:13: error: carol-phone belongs to carol, who is not a member of conversation "family"
         t.yaml:17:19: error: unknown conversation "tema"; did you mean "team"?
         """),
        // network
        ("network:\n  links:\n    - { from: bob, to: alise }\n    - { from: bob-phone, to: bob-phone }\nsteps: []\n",
         """
         t.yaml:8:24: error: unknown person or device "alise"; did you mean "alice"?
         t.yaml:9:30: error: a link from bob-phone to itself carries nothing: a device never receives its own copies
         """),
        ("network: { jitter: -5ms }\nsteps: []\n",
         #"t.yaml:6:20: error: expected a duration such as 80ms, found "-5ms", which is negative; the allowed range is 0ms to 525600m "# +
             #"(365 days)"#),
        ("network: { latency: 9999999999999m }\nsteps: []\n",
         #"t.yaml:6:21: error: duration "9999999999999m" is too large; the allowed range is 0ms to 525600m (365 days)"#),
        // A latency and jitter that add up past Int64 nanoseconds crashed explore.
        ("network: { latency: 6307200000s, jitter: 6307200000s }\nsteps: []\n",
         """
         t.yaml:6:21: error: duration "6307200000s" is too large; the allowed range is 0ms to 525600m (365 days)
         t.yaml:6:42: error: duration "6307200000s" is too large; the allowed range is 0ms to 525600m (365 days)
         """),
        ("network: { latency: 525600m, jitter: 31536000s }\napp: { cloud-latency: 525601m }\nsteps: []\n",
         #"t.yaml:7:23: error: duration "525601m" is too large; the allowed range is 0ms to 525600m (365 days)"#),
        // app, options
        ("app: { identity: install-ids, selection: latest }\nsteps: []\n",
         """
         t.yaml:6:18: error: expected participant-id, install-id or account, found "install-ids"; did you mean "install-id"?
         t.yaml:6:42: error: expected tapped or newest, found "latest"
         """),
        ("app: { state: cloud-cass }\nsteps: []\n",
         #"t.yaml:6:15: error: expected message, cloud-overwrite, cloud-merge or cloud-cas, found "cloud-cass"; "# +
             #"did you mean "cloud-cas"?"#),
        ("app: { state: cloud-overwrit }\noptions: { identifiers: per-conversaton }\nsteps: []\n",
         """
         t.yaml:6:15: error: expected message, cloud-overwrite, cloud-merge or cloud-cas, found "cloud-overwrit"; \
         did you mean "cloud-overwrite"?
         t.yaml:7:25: error: expected per-device or per-conversation, found "per-conversaton"; did you mean "per-conversation"?
         """),
        // steps: times
        ("steps:\n  - at: 0ms\n    after: 1s\n    device: alice-phone\n    text: hi\n",
         "t.yaml:8:5: error: give either at: or after:, not both"),
        ("steps:\n  - at: 9223372036854ms\n    device: alice-phone\n    text: hi\n  - after: 1ms\n    device: alice-phone\n    text: hi\n",
         #"t.yaml:7:9: error: duration "9223372036854ms" is too large; the allowed range is 0ms to 525600m (365 days)"#),
        ("steps:\n  - at: 525600m\n    device: alice-phone\n    text: hi\n  - after: 1ms\n    device: alice-phone\n    text: hi\n",
         "t.yaml:10:12: error: time too late: the previous step's 525600m plus 1ms is past the latest step time, 525600m (365 days)"),
        // Counts name their range.
        ("options: { summary-lines: 1000000001 }\nsteps: []\n",
         "t.yaml:6:27: error: expected a non-negative integer such as 3, found \"1000000001\", which is out of range; the allowed " +
             "range is 0 to 1000000000"),
        ("steps:\n  - { at: 0ms, device: alice-phone, send: { session: s } }\n" +
            "expect:\n  - summaries: { device: alice-phone, session: s, count: -1 }\n",
         "t.yaml:9:58: error: expected a number of summary lines such as 2, found \"-1\", which is out of range; the allowed range is " +
             "0 to 1000000000"),
        ("steps:\n  - at: 1.0000000001s\n    device: alice-phone\n    text: hi\n",
         #"t.yaml:7:9: error: duration "1.0000000001s" is finer than a nanosecond"#),
        // steps: races
        ("""
         steps:
           - at: 0ms
             device: alice-phone
             race:
               within: 0ms
               steps:
                 - { at: 0ms, device: alice-phone, text: hi }
                 - { device: bob-phone, race: { within: 1ms, steps: [] } }

         """,
         """
         t.yaml:8:5: error: a race takes only at: or after: beside race:; move "device" into one of the race's steps
         t.yaml:10:15: error: a race's within must be longer than 0ms: each step starts at an offset drawn from [0, within)
         t.yaml:12:13: error: a step inside a race starts at the race's time; remove "at"
         t.yaml:13:11: error: a step needs an action: send, reply, insert, press-send, cancel, open, tap, close, text, sticker, \
         reinstall, offline, online, join or leave
         t.yaml:13:32: error: a race cannot contain another race
         """),
        // actions
        ("steps:\n  - at: 0ms\n    device: alice-phone\n    reinstall: false\n",
         "t.yaml:9:16: error: reinstall: false does nothing; write the step only when it happens"),
        ("steps:\n  - at: 0ms\n    device: alice-phone\n    conversation: group\n    offline: true\n",
         #"t.yaml:9:5: error: offline acts on the whole device, not on one conversation; remove "conversation""#),
        ("steps:\n  - at: 0ms\n    device: alice-phone\n    text: \"\"\n",
         "t.yaml:9:11: error: an empty text message cannot be sent"),
        ("""
         steps:
           - at: 0ms
             device: alice-phone
             send: { session: poll }
           - at: 1s
             device: bob-phone
             reply: { session: poll, url: x, data: { $bobb: "$5" } }

         """,
         """
         t.yaml:12:29: error: reply takes session, data, the layout's fields, summary and direct; "url" is only for send and insert
         t.yaml:12:45: error: unknown person "$bobb" in data; did you mean "$bob"?
         """),
        ("""
         steps:
           - at: 0ms
             device: alice-phone
             join: dave
           - at: 0ms
             device: alice-phone
             leave: bob
           - at: 1ms
             device: alice-phone
             leave: bob

         """,
         """
         t.yaml:9:11: error: unknown person "dave"; expected alice, bob or carol
         t.yaml:15:12: error: bob is not a member of conversation "group"
         """),
        ("steps:\n  - at: 0ms\n    device: alice-phone\n    sticker: { file: a.png, bytes: 3 }\n",
         """
         t.yaml:9:14: error: missing required key "description" in sticker
         t.yaml:9:29: error: a sticker is either a file or described by format, bytes and pixels; remove "bytes" or file
         """),
        // sessions
        ("""
         conversations: { family: [alice, bob], team: [alice, bob] }
         steps:
           - at: 0ms
             device: alice-phone
             conversation: team
             send: { session: poll }
           - at: 1s
             device: bob-phone
             conversation: family
             reply: { session: poll }

         """,
         #"t.yaml:15:23: error: session "poll" belongs to conversation "team" (created at line 11), not "family""#),
        // checks
        ("""
         steps:
           - at: 0ms
             device: alice-phone
             send: { session: poll }
         expect:
           - pitfalls: []
           - no-pitfalls: false
           - summaries: { device: alice-phone, session: poll, count: 2, texts: [a] }
           - error: { step: 2, code: 42 }
           - converged: pol
             diverged: poll
           - callbacks: { device: alice-phone, sequence: [willBecomeActiv] }

         """,
         """
         t.yaml:11:15: error: pitfalls lists none; to expect no pitfalls, write no-pitfalls: true
         t.yaml:12:18: error: no-pitfalls takes true or a list of pitfall kinds; to expect pitfalls, write pitfalls: [...]
         t.yaml:13:61: error: count is 2 but texts lists 1 line
         t.yaml:14:20: error: step 2 is out of range; the file has 1 step
         t.yaml:14:29: error: unknown error code "42"; codes: \(MessageErrorCode.allCases.map(\.description).joined(separator: ", "))
         t.yaml:15:16: error: unknown session "pol"; did you mean "poll"?
         t.yaml:16:5: error: a check has one key, but this one has both "converged" and "diverged"; write two checks
         t.yaml:17:50: error: unknown callback "willBecomeActiv"; did you mean "willBecomeActive"?
         """),
    ] as [(String, String)])
    func diagnostic(body: String, expected: String) {
        #expect(ParserFixture.diagnostics(afterHeader: body) == expected)
    }

    @Test(arguments: [
        // Person keys and device names share one namespace.
        ("name: t\npeople:\n  alice: [bob]\n  bob: [bob-phone, alice-phone, bob-phone]\nsteps: []\n",
         """
         t.yaml:4:3: error: person "bob" has the same name as a device (line 3)
         t.yaml:4:33: error: device "bob-phone" is listed twice (line 4)
         """),
        ("name: t\npeople:\n  alice: []\n  bob: { name: Bobby }\n  carol: carol-phone\nsteps: []\n",
         """
         t.yaml:3:10: error: alice has no devices; list at least one, such as [alice-phone]
         t.yaml:4:8: error: missing required key "devices" in person "bob"
         t.yaml:5:10: error: expected a list of devices such as [alice-phone], or { devices: [alice-phone], name: Alice }, \
         found "carol-phone"
         """),
        ("name: t\nseed: 1.5\npeople: []\nsteps: {}\n",
         """
         t.yaml:2:7: error: expected a non-negative integer such as 7, found "1.5"
         t.yaml:3:9: error: expected a mapping of people to their devices, such as { alice: [alice-phone] }, found a list
         t.yaml:4:8: error: expected a list of steps such as [{ at: 0ms, device: alice-phone, send: { session: poll } }], \
         found a mapping
         """),
    ])
    func wholeFileDiagnostic(text: String, expected: String) {
        #expect(ParserFixture.diagnostics(text) == expected)
    }

    @Test func namesInPeopleAndDevicesAreReadInBothForms() throws {
        let scenario = try #require(ParserFixture.scenario(afterHeader: """
            devices:
              carol-phone: { platform: watchos, app: missing }
              bob-ipad: { platform: ios9 }
            steps: []

            """))
        #expect(scenario.devices == [
            Scenario.DeviceSpec(name: "alice-phone", person: "alice"),
            Scenario.DeviceSpec(name: "bob-phone", person: "bob"),
            Scenario.DeviceSpec(name: "bob-ipad", person: "bob", platform: .ios9),
            Scenario.DeviceSpec(name: "carol-phone", person: "carol", platform: .watchos, hasApp: false),
        ])
        #expect(scenario.people.map(\.contactName) == ["Alice", "Bob", "Carol"])
    }

    @Test func severalConversationsKeepFileOrderAndStepsNameThem() throws {
        let scenario = try #require(ParserFixture.scenario(afterHeader: """
            conversations: { team: [carol, alice], family: [alice, bob] }
            steps:
              - at: 0ms
                device: alice-phone
                conversation: team
                send: { session: poll }
              - after: 1s
                device: carol-phone
                conversation: team
                reply: { session: poll }
              - after: 1s
                device: bob-ipad
                offline: true

            """))
        #expect(scenario.conversations == [
            Scenario.ConversationSpec(name: "team", members: ["carol", "alice"]),
            Scenario.ConversationSpec(name: "family", members: ["alice", "bob"]),
        ])
        #expect(scenario.steps.map(\.conversation) == ["team", "team", nil])
        #expect(scenario.steps.map(\.time.nanoseconds) == [0, 1_000_000_000, 2_000_000_000])
    }

    /// The first step's `after:` counts from 0ms, a race's steps take its time and are
    /// numbered in file order, and steps may be listed out of time order.
    @Test func timesAndNumbers() throws {
        let scenario = try #require(ParserFixture.scenario(afterHeader: """
            steps:
              - after: 250ms
                device: alice-phone
                text: hi
              - after: 1.25s
                race:
                  within: 5ms
                  steps:
                    - { device: bob-phone, text: a }
                    - { device: carol-phone, text: b }
              - after: 2m
                device: bob-ipad
                text: c
              - at: 100us
                device: bob-ipad
                text: d

            """))
        let steps = scenario.steps
        #expect(steps.map(\.number) == [1, 2, 3, 4, 5])
        #expect(steps.map(\.time.nanoseconds) == [250_000_000, 1_500_000_000, 1_500_000_000, 121_500_000_000, 100_000])
        #expect(scenario.timeline.count == 4)
    }

    /// A reply earlier than the send that creates its session is valid: it fails when run
    /// (noBubble), which is what an `error:` check is for.
    @Test func aReplyBeforeTheSendIsValid() throws {
        let scenario = try #require(ParserFixture.scenario(afterHeader: """
            steps:
              - at: 1s
                device: alice-phone
                send: { session: poll }
              - at: 0ms
                device: bob-phone
                reply: { session: poll }
            expect:
              - error: { step: 2, code: noBubble }
              - error: { step: 1, code: 8 }

            """))
        #expect(scenario.checks.map(\.check) == [.error(step: 2, code: .noBubble), .error(step: 1, code: .urlExceedsMaxSize)])
    }

    /// Tokens are kept as written; `$5` is not a token; data values keep their text.
    @Test func tokensAndDataKeepTheirText() throws {
        let scenario = try #require(ParserFixture.scenario(afterHeader: """
            steps:
              - at: 0ms
                device: alice-phone
                send:
                  session: poll
                  caption: "$me pays $5 to $bob"
                  subcaption: $carol
                  summary: "$ alone"
                  url: "https://example.com/?a=$zed"
                  data: { $me: $carol, price: 1.50, done: true, n: 7 }

            """))
        let compose = Scenario.Compose(
            session: "poll",
            data: [Scenario.DataEntry("$me", "$carol"), Scenario.DataEntry("price", "1.50"), Scenario.DataEntry("done", "true"), Scenario.DataEntry("n", "7")],
            caption: "$me pays $5 to $bob", subcaption: "$carol", summary: "$ alone", url: "https://example.com/?a=$zed"
        )
        #expect(scenario.steps.first?.action == .send(compose))
    }

    @Test(arguments: [
        ("$me", ["me"]),
        ("$5 and $ and $", []),
        ("$bob's and $carol-jones_2!", ["bob", "carol-jones_2"]),
        ("$$me", ["me"]),
        ("price: 5$", []),
        ("$é", []),
    ])
    func tokenNames(text: String, names: [String]) {
        #expect(ScenarioParser.Context.tokenNames(in: text) == names)
    }

    /// No input crashes the parser: every line of a full scenario deleted, doubled, or its
    /// value replaced by something of the wrong kind gives a scenario or diagnostics.
    @Test func mangledFilesNeverCrash() {
        let lines = ScenarioParserTests.picklesRace.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let replacements = ["[]", "{}", "", "-1", "99999999999999999999999", "x", "true", "1.5", "[[[]]]", "{ a: { b: c } }"]
        var outcomes = 0
        for index in lines.indices {
            var variants: [[String]] = []
            var deleted = lines
            deleted.remove(at: index)
            variants.append(deleted)
            var doubled = lines
            doubled.insert(lines[index], at: index)
            variants.append(doubled)
            if let colon = lines[index].firstIndex(of: ":") {
                for replacement in replacements {
                    var changed = lines
                    changed[index] = String(lines[index][...colon]) + " " + replacement
                    variants.append(changed)
                }
            }
            for variant in variants {
                let rendered = ParserFixture.diagnostics(variant.joined(separator: "\n"))
                #expect(!rendered.isEmpty)
                outcomes += 1
            }
        }
        #expect(outcomes > 400)
    }
}
