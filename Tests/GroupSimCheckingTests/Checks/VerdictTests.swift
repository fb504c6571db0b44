import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
import GroupSimTesting

/// Verdicts a developer can trust: a simulation runs once, whatever the calls;
/// every callback the timeline prints can be checked.
@Suite struct VerdictTests {
    static let vote = Fixture.group + """
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
          - { at: 500ms, device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }
        expect:
          - converged: poll

        """

    /// A second `run()` gives the first one's outcome, not a world with every device
    /// added again; so do two calls made at once.
    @Test func aSimulationRunsOnce() async throws {
        let scenario = try Fixture.scenario(Self.vote)
        let simulation = Simulation(scenario: scenario)
        let first = try await simulation.run()
        let second = try await simulation.run()
        #expect(second.devices.map(\.name) == scenario.devices.map(\.name))
        #expect(second.digest == first.digest)
        #expect(second.trace.events == first.trace.events)
        #expect(RunReport(outcome: second).passed)

        let fresh = Simulation(scenario: scenario)
        async let one = fresh.run()
        async let two = fresh.run()
        let (a, b) = try await (one, two)
        #expect(a.digest == first.digest && b.digest == first.digest)
        #expect(b.devices.count == scenario.devices.count)
    }

    /// Every callback name the timeline prints (`--callbacks`) is one a `callbacks:` check
    /// accepts, and the sequence as printed holds.
    @Test(arguments: ["lifecycle-callbacks.yaml", "direct-send.yaml", "lessons/dropped-url-fixed.yaml", "pickles-race-cloud-merge.yaml"])
    func everyPrintedCallbackCanBeChecked(_ file: String) async throws {
        let path = ScenarioFiles.root.appendingPathComponent("Scenarios").appendingPathComponent(file).path
        let report = try await ScenarioParser.load(path: path).run()
        var printed: [String: [String]] = [:]
        for event in report.outcome.trace.events {
            if case .callback(let callback) = event.kind { printed[event.subject, default: []].append(callback.rawValue) }
        }
        #expect(!printed.isEmpty)
        let checks = report.outcome.devices.compactMap { device in
            printed[device.name].map { "  - callbacks: { device: \(device.name), sequence: [\($0.joined(separator: ", "))] }" }
        }
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let withChecks = original.components(separatedBy: "\nexpect:")[0] + "\nexpect:\n" + checks.joined(separator: "\n") + "\n"
        let rerun = try await ScenarioParser.parse(text: withChecks, file: path).run()
        #expect(rerun.checks.count == checks.count)
        for check in rerun.checks { #expect(check.passed, "\(check.text): \(check.detail)") }
        #expect(Set(printed.values.joined()).isSubset(of: Set(AppCallback.names)))
    }

    /// Exploration judges checks without their words (a `latest` check reads the caption
    /// alone, and only when sender and state held); over many seeds its verdicts are the
    /// explained ones, captions included. A failure names the seed to replay.
    @Test(arguments: ["pickles-race.yaml", "lessons/identifiers-broken.yaml", "lessons/reinstall-broken.yaml", "platforms.yaml"])
    func quickVerdictsAreTheExplainedOnes(_ file: String) async throws {
        let path = ScenarioFiles.root.appendingPathComponent("Scenarios").appendingPathComponent(file).path
        let scenario = try ScenarioParser.load(path: path)
        for run in 0..<60 {
            let seed = Explorer.seed(forRun: run, base: scenario.seed)
            let outcome = try await Simulation(scenario: scenario, seed: seed).run()
            let explained = RunReport(outcome: outcome).checks.map(\.passed)
            let quick = RunReport(outcome: outcome, explainingPitfalls: false).checks.map(\.passed)
            #expect(quick == explained, "\(file) seed \(seed): \(quick) against \(explained)")
        }
    }
}
