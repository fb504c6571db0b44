import GroupSimScenario
import GroupSimSimulation

extension Explorer {
    /// Replays one failing run of `report` in-process with the trace on: the same seed
    /// (random exploration) or the same order of events (exhaustive), with this
    /// explorer's registered apps. The `RunReport` holds every device's transcript;
    /// `MermaidReport.render` and `HTMLReport.render` draw it. Throws what
    /// `Scenario.run` throws for a scenario that does not validate.
    public func replay(_ failure: ExplorationReport.FailingRun, of report: ExplorationReport) async throws(ScenarioErrors) -> RunReport {
        switch report.mode {
        case .random:
            return try await scenario.run(seed: failure.reference.seed, apps: apps)
        case .exhaustive(let seed, _, _):
            // Followed by the texts alone: no pruning, which could hide the event named next.
            let controller = OrderRecorder(scenario: scenario, prefix: [], visited: [], reducing: false, schedule: failure.schedule)
            let checked = try ValidatedScenario(scenario, registeredApps: apps.names)
            return RunReport(outcome: try await Simulation(checked, seed: seed, apps: apps, controller: controller).run())
        }
    }

    /// The scenario as a file that replays a failing run of a random exploration: its
    /// seed is the run's, and it names the registered app (`app: { name: ... }`), so a
    /// command line built with `GroupSimCommand(apps:)` runs it with `run FILE`. nil for
    /// an exhaustive exploration, whose failing order is not a seed.
    public func scenarioFile(replaying failure: ExplorationReport.FailingRun, of report: ExplorationReport) -> String? {
        guard case .random = report.mode else { return nil }
        var replayed = scenario
        replayed.seed = failure.reference.seed
        return ScenarioWriter.yaml(replayed)
    }
}
