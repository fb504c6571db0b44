import GroupSimScenario
import GroupSimSimulation

/// A check and whether it held, with what was actually found.
public struct CheckResult: Sendable {
    public var spec: Scenario.CheckSpec
    public var passed: Bool
    /// The check as written, in one line: `latest alice-phone poll from=carol`.
    public var text: String
    /// What was found, so a failure says why: `alice-phone shows m3 from bob`.
    public var detail: String
}

extension RunReport {
    /// A step that failed with no `error: {step: N, ...}` check expecting it: a failed check
    /// in its own right ("step 3 on bob-phone failed unexpectedly: noBubble"), in `run`,
    /// `explore` and the JSON report.
    public struct UnexpectedFailure: Sendable, Hashable {
        public var failure: RunOutcome.StepFailure
        /// The line of the step in its scenario file, if it came from one.
        public var line: Int?

        /// `step 3 on bob-phone failed unexpectedly: noBubble`.
        public var text: String {
            "step \(failure.attributedStep.map(String.init) ?? "-") on \(failure.device) failed unexpectedly: \(failure.code.name)"
        }

        /// Why it failed (and, for a failure after its step ended, how it follows from the
        /// step), and what would expect it.
        public var detail: String {
            let later = failure.step == nil ? failure.origin.map { "\($0.text(failedAt: failure.time)): " } ?? "" : ""
            return "\(later)\(failure.reason); no error: { step: \(failure.attributedStep.map(String.init) ?? "-"), ... } check expects it"
        }

        /// The failed steps of `outcome` that no `error:` check of its scenario names, once
        /// per step, device and code, in the order they happened. A failure after its step
        /// ended counts as that step's (`attributedStep`); an app's own action, which no step
        /// set off, is not a step and is not counted.
        static func find(in outcome: RunOutcome) -> [UnexpectedFailure] {
            // Most runs fail no step: then neither the checks nor the steps are read.
            guard !outcome.failures.isEmpty else { return [] }
            var expected: Set<Int> = []
            for spec in outcome.scenario.checks {
                if case .error(let step, _) = spec.check { expected.insert(step) }
            }
            var lines: [Int: Int] = [:]
            for step in outcome.scenario.steps {
                if let line = step.location?.line { lines[step.number] = line }
            }
            var found: [UnexpectedFailure] = []
            for failure in outcome.failures {
                guard let step = failure.attributedStep, !expected.contains(step) else { continue }
                guard !found.contains(where: {
                    $0.failure.attributedStep == step && $0.failure.device == failure.device && $0.failure.code == failure.code
                })
                else { continue }
                found.append(UnexpectedFailure(failure: failure, line: lines[step]))
            }
            return found
        }
    }
}
