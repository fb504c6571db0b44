import Foundation
import GroupSim
import GroupSimBench
import GroupSimMessages
import Testing

/// A failing run found by exploring a registered controller replays in-process, draws as
/// Mermaid and HTML, and writes as a scenario file naming the app; the printed hint says
/// how to replay it from Swift.
@Suite struct ReplayTests {
    static func race() throws -> (Explorer, Scenario) {
        var apps = AppRegistry()
        apps.register("url-state") { URLPollController() }
        let scenario = try ScenarioParser.parse(text: """
            name: url-race
            people: { alice: [alice-phone], bob: [bob-phone], carol: [carol-phone] }
            network: { latency: 50ms, jitter: 40ms }
            app: { name: url-state }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: lunch } } }
              - at: 1s
                race:
                  within: 10ms
                  steps:
                    - { device: bob-phone, reply: { session: poll, data: { bob: pizza } } }
                    - { device: carol-phone, reply: { session: poll, data: { carol: sushi } } }
            expect:
              - converged: poll
            """, file: "url-race.yaml", registeredApps: apps.names)
        return (Explorer(scenario: scenario, apps: apps), scenario)
    }

    @Test func randomFailureReplaysDrawsAndWritesAFile() async throws {
        let (explorer, _) = try Self.race()
        let report = try await explorer.explore(runs: 50, seed: 3)
        let failure = try #require(report.firstFailure, "no run diverged in \(report.runs)")
        let replay = try await explorer.replay(failure, of: report)
        #expect(!replay.passed, "seed \(failure.reference.seed) passed on replay")
        #expect(replay.outcome.seed == failure.reference.seed)
        #expect(replay.outcome.devices.allSatisfy { !$0.sessions.isEmpty })
        #expect(MermaidReport.render(replay).contains("sequenceDiagram"))
        #expect(HTMLReport.render(replay).contains("url-race"))

        let file = try #require(explorer.scenarioFile(replaying: failure, of: report))
        #expect(file.contains("name: url-state"))
        #expect(file.contains("seed: \(failure.reference.seed)"))
        let reread = try ScenarioParser.parse(text: file, file: "replay.yaml", registeredApps: explorer.apps.names)
        #expect(try await reread.run(apps: explorer.apps).digest == replay.digest)

        let text = ExplorationTextReport.render(report)
        #expect(text.contains("replay: the app \"url-state\" is registered from Swift"), "\(text)")
        #expect(text.contains("scenario.run(seed: \(failure.reference.seed), apps: apps)"))
        #expect(!text.contains("replay: groupsim run"))
    }

    @Test func exhaustiveFailureReplaysItsOrder() async throws {
        let (explorer, _) = try Self.race()
        let report = try await explorer.exhaustive()
        let failures = report.failures
        #expect(!failures.isEmpty)
        for failure in failures.prefix(3) {
            let replay = try await explorer.replay(failure, of: report)
            #expect(!replay.passed, "order #\(failure.reference.run) passed on replay: \(failure.schedule)")
        }
        #expect(explorer.scenarioFile(replaying: try #require(failures.first), of: report) == nil)
    }

    /// Replay seeds use all 64 bits: a written file with a seed past Int64.max reads back.
    @Test func seedsPastInt64ReadBack() throws {
        let scenario = try ScenarioParser.parse(text: """
            name: big-seed
            seed: 18446744073709551615
            people: { alice: [alice-phone] }
            steps:
              - { at: 0ms, device: alice-phone, text: hi }
            """, file: "big-seed.yaml")
        #expect(scenario.seed == UInt64.max)
    }
}
