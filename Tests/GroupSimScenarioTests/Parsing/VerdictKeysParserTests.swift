import Testing
@testable import GroupSim
@testable import GroupSimScenario
import GroupSimTesting

/// `app.record-key` and `no-pitfalls: [KINDS]`: read, checked with located errors, and
/// printed back by `ScenarioWriter` (issue 35, no vacuous verdict).
@Suite struct VerdictKeysParserTests {
    static let steps = "steps:\n  - { at: 0ms, device: alice-phone, send: { session: poll } }\n"

    @Test func readsARecordKeyAndAListOfUnwantedPitfalls() throws {
        let scenario = try #require(ParserFixture.scenario(afterHeader: """
            app: { state: cloud-merge, record-key: poll.id }
            \(Self.steps)expect:
              - no-pitfalls: [lost-update, divergence]
              - no-pitfalls: true

            """))
        #expect(scenario.app.recordKey == "poll.id")
        #expect(scenario.checks.map(\.check) == [.noPitfallsOf([.lostUpdate, .divergence]), .noPitfalls])
        #expect(scenario.checks.map(\.check.kind) == [.noPitfalls, .noPitfalls])
    }

    @Test func theRecordKeyIsSessionByDefault() throws {
        let scenario = try #require(ParserFixture.scenario(afterHeader: "app: { state: cloud-merge }\n" + Self.steps))
        #expect(scenario.app.recordKey == "session")
        #expect(Scenario.AppSpec().recordKey == "session")
    }

    @Test(arguments: [
        ("app: { state: cloud-merge, record-key: \"poll id\" }\n",
         #"t.yaml:6:40: error: expected a URL query item name such as poll, of letters, digits, -, _, . or ~ "# +
             #"(the name before = in ?poll=lunch), found "poll id""#),
        ("app: { state: cloud-merge, record-key: \"a&b=c\" }\n",
         #"t.yaml:6:40: error: expected a URL query item name such as poll, of letters, digits, -, _, . or ~ "# +
             #"(the name before = in ?poll=lunch), found "a&b=c""#),
        ("app: { state: cloud-merge, record-key: \"\" }\n",
         #"t.yaml:6:40: error: expected a URL query item name such as poll, found """#),
        ("app: { record-key: poll }\n",
         #"t.yaml:6:20: error: record-key names the query item that carries the cloud record's name, but app.state is message "# +
             #"(the state travels in the URL); set app.state to cloud-overwrite, cloud-merge or cloud-cas, or leave out record-key"#),
        ("app: { state: cloud-cas, recordkey: poll }\n",
         #"t.yaml:6:26: error: unknown key "recordkey" in app; did you mean "record-key"?"#),
        ("expect:\n  - no-pitfalls: [lost-updates]\n",
         #"t.yaml:9:19: error: expected lost-update, divergence, foreign-identifier, stale-identifier, stale-selection, "# +
             #"dropped-url, unattributed, double-count, joined-late, shared-state or cancelled-write, found "lost-updates"; did you mean "lost-update"?"#),
        ("expect:\n  - no-pitfalls: [lost-update, nonsense]\n",
         #"t.yaml:9:32: error: expected lost-update, divergence, foreign-identifier, stale-identifier, stale-selection, "# +
             #"dropped-url, unattributed, double-count, joined-late, shared-state or cancelled-write, found "nonsense""#),
        ("expect:\n  - no-pitfalls: []\n",
         #"t.yaml:9:18: error: no-pitfalls lists none; to expect no pitfalls at all, write no-pitfalls: true"#),
        ("expect:\n  - no-pitfalls: lost-update\n",
         #"t.yaml:9:18: error: expected true or a list of pitfall kinds such as [lost-update], found "lost-update""#),
    ])
    func locatesMistakes(_ body: String, _ expected: String) {
        // The app's settings go before the steps, a check after them.
        let text = body.hasPrefix("expect") ? Self.steps + body : body + Self.steps
        #expect(ParserFixture.diagnostics(afterHeader: text) == expected)
    }

    @Test func writerRoundTripsBothKeys() throws {
        var scenario = try #require(ParserFixture.scenario(afterHeader: "app: { state: cloud-cas }\n" + Self.steps))
        let plain = ScenarioWriter.yaml(scenario)
        #expect(!plain.contains("record-key"), "the default is left out, so fingerprints stay")
        scenario.app.recordKey = "poll"
        scenario.checks = [Scenario.CheckSpec(.noPitfallsOf([.lostUpdate])), Scenario.CheckSpec(.noPitfalls)]
        let text = ScenarioWriter.yaml(scenario)
        #expect(text.contains("  record-key: poll\n"))
        #expect(text.contains("  - no-pitfalls: [lost-update]\n  - no-pitfalls: true\n"))
        let reread = try ScenarioParser.parse(text: text, file: "written.yaml")
        #expect(reread.app.recordKey == "poll")
        #expect(reread.checks.map(\.check) == scenario.checks.map(\.check))
        #expect(ScenarioWriter.yaml(reread) == text)
    }
}
