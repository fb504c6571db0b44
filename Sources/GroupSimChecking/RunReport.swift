import GroupSimScenario
import GroupSimSimulation

/// A finished run with its checks and pitfalls: what every renderer prints.
public struct RunReport: Sendable {
    /// The outcome checked, kept once, in `states`: a copy of its own here retained every
    /// part of it in every run, and released them all again.
    public var outcome: RunOutcome {
        get { states.outcome }
        set { states = SessionStates(outcome: newValue) }
    }
    public var checks: [CheckResult]
    /// Steps that failed with no `error:` check expecting them: each a failed check.
    public var unexpectedFailures: [UnexpectedFailure]
    public var pitfalls: [Pitfall]
    /// What each device shows for each session, worked out once for the pitfalls, the
    /// checks and exploration's outcome key (of the outcome this report was made from).
    private(set) var states: SessionStates

    /// Checks the outcome and finds its pitfalls.
    public init(outcome: RunOutcome) {
        self.init(outcome: outcome, explainingPitfalls: true)
    }

    /// - Parameter explainingPitfalls: false leaves the pitfalls' words and the detail of
    ///   checks over every device empty, for a reader that counts pitfalls by kind and
    ///   rule and checks by whether they held (exploration).
    package init(outcome: RunOutcome, explainingPitfalls: Bool) {
        let states = SessionStates(outcome: outcome)
        self.states = states
        // What each session's app devices show, worked out once for the pitfalls and the checks.
        let shown = states.sessions.map(states.shownOnAppDevices)
        pitfalls = PitfallDetector.detect(outcome, states: states, shown: shown, explained: explainingPitfalls)
        checks = CheckEvaluator.evaluate(outcome, pitfalls: pitfalls, states: states, shown: shown, explained: explainingPitfalls)
        unexpectedFailures = UnexpectedFailure.find(in: outcome)
    }

    /// Every check held and no step failed unexpectedly.
    public var passed: Bool { unexpectedFailures.isEmpty && checks.allSatisfy(\.passed) }

    /// The checks that held, and all of them: the scenario's checks, and one failed check
    /// per unexpected step failure.
    public var checkCounts: CheckCounts {
        CheckCounts(held: checks.filter(\.passed).count, total: checks.count + unexpectedFailures.count)
    }

    /// How many checks held, of how many (`3 of 4 checks held`).
    public struct CheckCounts: Sendable, Hashable, Codable {
        public var held: Int
        public var total: Int

        public init(held: Int, total: Int) {
            self.held = held
            self.total = total
        }
    }
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
        encoder.int(Int64(unexpectedFailures.count))
        for failure in unexpectedFailures { encoder.string(failure.text) }
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
        RunReport(outcome: try await Simulation(scenario: self, seed: seed, apps: apps).run())
    }
}

extension ValidatedScenario {
    /// `Scenario.run(seed:apps:)` without checking the scenario again.
    package func run(seed: UInt64? = nil, apps: AppRegistry) async throws(ScenarioErrors) -> RunReport {
        RunReport(outcome: try await Simulation(self, seed: seed, apps: apps).run())
    }
}
