import Foundation
import Testing
import GroupSim
import GroupSimBench
import GroupSimScenarios
@testable import GroupSimCLI

/// The targets of `groupsim bench`'s ratios live in one file, Benchmarks/Thresholds.json:
/// bench prints each ratio beside its target and whether it is met. No test asserts a
/// ratio: each is a ratio of times, which a loaded machine moves.
@Suite(.serialized) struct BenchThresholdsTests {
    static func shipped() throws -> BenchThresholds {
        let text = try #require(BundledScenarios.benchThresholds, "Benchmarks/Thresholds.json ships with the tool")
        return try BenchThresholds(json: text)
    }

    @Test func theFileGivesEveryRatioATarget() throws {
        let thresholds = try Self.shipped()
        let ids = thresholds.ratios.map(\.id)
        #expect(ids == ["a-over-simpy", "d", "b-events-over-c", "e-over-b", "f-over-b", "explore-over-simulation-100",
                        "explore-over-simulation-300", "explore-over-simulation-1000", "vote-controller-over-vote"])
        #expect(thresholds.ratios.allSatisfy { $0.min != nil || $0.max != nil })
        #expect(thresholds["d"]?.min == 0.40)
        #expect(thresholds["b-events-over-c"]?.min == 0.10)
        #expect(thresholds["explore-over-simulation-1000"]?.max == 1.3)
        #expect(thresholds.text("d", 0.263) == "0.263 (target >= 0.4: not met)")
        #expect(thresholds.text("explore-over-simulation-300", 1.2, digits: 2) == "1.20 (target <= 1.3: met)")
        #expect(thresholds.text("unknown", 2) == "2.000")
        // The SimPy script reads the same file for its target.
        let script = try String(contentsOfFile: CLI.path("scripts/bench-simpy.py"), encoding: .utf8)
        #expect(script.contains("\"a-over-simpy\""))
        #expect(ids.contains("a-over-simpy"))
    }

    @Test func benchPrintsItsRatiosWithTheirTargets() async throws {
        let result = await CLI.run(["bench", "--quick", "--scenario", CLI.path("Scenarios/pickles-race.yaml")])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("absolute figures (per second, seconds, MB) hold for this machine only; the ratios travel "
                                       + "(targets from Benchmarks/Thresholds.json)"))
        let lines = result.output.split(separator: "\n").map(String.init)
        for (label, target) in [("(d) ratio (a)/(c): ", "target >= 0.4"), ("(b) events over (c): ", "target >= 0.1"),
                                ("(e) custom MessagesApp", "target >= 0.5"), ("(f) custom controller", "target >= 0.5")] {
            let line = lines.first { $0.hasPrefix(label) }
            #expect(line?.contains("(\(target): ") == true, "\(label) in:\n\(result.output)")
        }
        // The events (b) ran are exact even if their speed is not.
        #expect(lines.contains { $0.hasPrefix("(b) events over (c): ") && !$0.hasPrefix("(b) events over (c): 0 events") })
    }
}
