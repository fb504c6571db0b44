/// A finished run with its checks and pitfalls: what every renderer prints.
public struct RunReport: Sendable {
    public var outcome: RunOutcome
    public var checks: [CheckResult]
    public var pitfalls: [Pitfall]

    /// Checks the outcome and finds its pitfalls.
    public init(outcome: RunOutcome) {
        self.outcome = outcome
        pitfalls = PitfallDetector.detect(outcome)
        checks = CheckEvaluator.evaluate(outcome, pitfalls: pitfalls)
    }

    /// Every check held.
    public var passed: Bool { checks.allSatisfy(\.passed) }
    public var digest: String { outcome.digest }
}

extension Scenario {
    /// Runs the scenario once and checks it: the whole pipeline in one call.
    ///
    /// - Parameters:
    ///   - seed: overrides the scenario's seed.
    ///   - apps: the apps the scenario may name in `app.name`.
    /// - Throws: the scenario's problems, as `validate` finds them; nothing runs then.
    public func run(seed: UInt64? = nil, apps: AppRegistry = AppRegistry()) async throws(ScenarioErrors) -> RunReport {
        let outcome = try await Simulation(scenario: self, seed: seed, apps: apps).run()
        return RunReport(outcome: outcome)
    }
}
