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
    /// The run's fingerprint (`groupsim run` prints it as `trace:`): `RunOutcome.digest`'s
    /// encoding of the events and final state, then every check's text, verdict and
    /// finding. Two runs that differ in a transcript, the cloud's contents, a failure or
    /// a check's result never share it.
    public var digest: String {
        var encoder = CanonicalEncoder()
        outcome.encode(into: &encoder)
        encoder.int(Int64(checks.count))
        for check in checks {
            encoder.string(check.text)
            encoder.int(check.passed ? 1 : 0)
            encoder.string(check.detail)
        }
        return encoder.hexDigest
    }
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
