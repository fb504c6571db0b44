import Testing
@testable import GroupSim
@testable import GroupSimScenario
import GroupSimTesting

/// `network.fifo` and `options.recent-interaction`: read, checked with located errors and
/// a nearest-key suggestion like every other key, and printed back by `ScenarioWriter`.
@Suite struct BehaviourKeysParserTests {
    @Test func readsBothKeys() throws {
        let scenario = try #require(ParserFixture.scenario(afterHeader: """
            network: { latency: 80ms, fifo: true }
            options: { recent-interaction: 90s }
            steps: []

            """))
        #expect(scenario.network.fifo)
        #expect(scenario.options.recentInteraction == .seconds(90))
    }

    @Test func defaultsAreNoFifoAndSixtySeconds() throws {
        let scenario = try #require(ParserFixture.scenario(afterHeader: "steps: []\n"))
        #expect(!scenario.network.fifo)
        #expect(scenario.options.recentInteraction == .seconds(60))
        #expect(scenario == Scenario(name: scenario.name, seed: scenario.seed, people: scenario.people, devices: scenario.devices,
                                     conversations: scenario.conversations, timeline: [], file: scenario.file),
                "the Swift defaults are the file's defaults")
    }

    @Test(arguments: [
        ("network: { fiffo: true }\nsteps: []\n",
         #"t.yaml:6:12: error: unknown key "fiffo" in network; did you mean "fifo"?"#),
        ("network: { fifo: yes }\nsteps: []\n",
         #"t.yaml:6:18: error: expected true or false, found "yes""#),
        ("options: { recent-interactions: 1m }\nsteps: []\n",
         #"t.yaml:6:12: error: unknown key "recent-interactions" in options; did you mean "recent-interaction"?"#),
        ("options: { recent-interaction: 60 }\nsteps: []\n",
         #"t.yaml:6:32: error: expected a duration such as 80ms, found "60""#),
        ("options: { recent-interaction: -1s }\nsteps: []\n",
         #"t.yaml:6:32: error: expected a duration such as 80ms, found "-1s", which is negative; the allowed range is 0ms to 525600m "# +
             #"(365 days)"#),
    ])
    func locatesMistakes(_ body: String, _ expected: String) {
        #expect(ParserFixture.diagnostics(afterHeader: body) == expected)
    }

    @Test func writerRoundTripsBothKeys() throws {
        var scenario = try #require(ParserFixture.scenario(afterHeader: "steps: []\n"))
        scenario.network.fifo = true
        scenario.options.recentInteraction = .milliseconds(1500)
        let text = ScenarioWriter.yaml(scenario)
        #expect(text.contains("network:\n  fifo: true\n"))
        #expect(text.contains("options:\n  recent-interaction: 1500ms\n"))
        let reread = try ScenarioParser.parse(text: text, file: "written.yaml")
        #expect(reread.network.fifo)
        #expect(reread.options.recentInteraction == .milliseconds(1500))
        #expect(ScenarioWriter.yaml(reread) == text)
    }
}
