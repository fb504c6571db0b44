import Foundation
// README exploration example begins
import GroupSim
import Testing

/// A property test: whatever the latencies and whoever answers first, both picks survive
/// on every device and the devices agree (M12, M13).
@Test func bothPicksSurviveEverySchedule() async throws {
    let scenario = try ScenarioParser.parse(text: """
        name: poll-race
        people: { alice: [alice-phone], bob: [bob-phone], carol: [carol-phone] }
        network: { latency: 300ms, jitter: 700ms }
        app: { state: cloud-merge }          # try `message`: the test then fails, with seeds
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
          - at: 3s
            race:
              within: 2s
              steps:
                - { device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }
                - { device: carol-phone, reply: { session: poll, data: { carol: pickles } } }
        expect:
          - converged: poll
          - complete: { session: poll, data: { bob: tomatoes, carol: pickles } }
        """, file: "poll-race.yaml")
    let report = try await Explorer(scenario: scenario, workers: 2).explore(runs: 300, seed: 1)
    for check in report.checks where check.failedRuns > 0 {
        Issue.record("""
            \(check.text) failed in \(check.failedRuns) of \(report.runs) runs; \
            replay: groupsim run poll-race.yaml --seed \(check.firstFailure?.seed ?? 0)
            """)
    }
}
// README exploration example ends

@Suite struct ExplorerReadmeExampleTests {
    /// The README shows exactly this file's property test, so the two cannot drift apart.
    @Test func readmeShowsThisExample() throws {
        let here = URL(fileURLWithPath: #filePath)
        let source = try String(contentsOf: here, encoding: .utf8)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = "// README exploration example begins\n"
        let end = "// README exploration example ends\n"
        let example = try #require(source.components(separatedBy: begin).dropFirst().first?.components(separatedBy: end).first)
        #expect(readme.contains("```swift\n" + example + "```\n"))
    }

    /// With the state in the message instead, the same property test finds failing seeds
    /// that replay (M12): what the README's comment promises.
    @Test func messageStateFailsWithReplayableSeeds() async throws {
        let here = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let start = try #require(here.range(of: "name: poll-race"))
        let stop = try #require(here.range(of: "\"\"\", file: \"poll-race.yaml\")"))
        let text = String(here[start.lowerBound..<stop.lowerBound]).replacingOccurrences(of: "state: cloud-merge", with: "state: message")
        // The literal's lines carry the 8 spaces of indentation its closing quotes remove.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix("        ") ? $0.dropFirst(8) : $0 }
        let scenario = try ScenarioParser.parse(text: lines.joined(separator: "\n"), file: "poll-race.yaml")
        let report = try await Explorer(scenario: scenario, workers: 2).explore(runs: 100, seed: 1)
        let failure = try #require(report.firstFailure)
        let replay = try await scenario.run(seed: failure.reference.seed)
        #expect(!replay.passed, "replay: groupsim run poll-race.yaml --seed \(failure.reference.seed)")
    }
}
