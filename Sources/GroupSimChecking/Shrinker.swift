import GroupSimScenario
import GroupSimSimulation

/// Turns a failing run into a smaller scenario that still fails the same check, printed
/// as a scenario file that `groupsim run` reproduces (docs/exploration.md).
///
/// The search is greedy delta debugging over edits of the scenario, smallest-first in
/// what they leave: remove people (with their devices, steps, links and memberships),
/// remove devices, remove steps (halves, then quarters, ... then one at a time), drop
/// network links, turn one-step races into plain steps, lower latencies, jitters, race
/// windows and the cloud latency (to 0, else to half, in whole milliseconds), and remove
/// the optional fields of sends and replies. An edit is kept when the edited scenario
/// still fails; the passes repeat until none makes progress or the attempts run out.
///
/// Every candidate is printed with `ScenarioWriter` and read back with `ScenarioParser`
/// before it runs, and the scenario that runs is the one read back: an edit that makes
/// the scenario invalid (a reply to a session nobody sends, a `$dave` token once dave is
/// gone) is rejected, and the printed result reproduces the failure exactly. The
/// scenario's seed becomes the given seed, so the file replays without `--seed`.
///
/// The target is the first check, in file order, that fails; the shrunk scenario keeps
/// that check only, with an `error:` check's step renumbered as steps go (the steps a
/// check names are never removed). So that the failure keeps its cause instead of
/// becoming trivial, a candidate must also keep what made the original fail: each
/// `data` entry of a `complete` or `latest` check that the original run wrote is still
/// written, the `from` person of a `latest` check who sent in the session still sends
/// there, and a failing `no-pitfalls` still sees the pitfall it saw first.
///
/// Deterministic: the same scenario, seed and cap give the same result. Each attempt is
/// one run; the cost is at most `maxAttempts` runs plus the first.
public struct Shrinker: Sendable {
    public var apps: AppRegistry

    public init(apps: AppRegistry = AppRegistry()) {
        self.apps = apps
    }

    /// Shrinks the run of `scenario` with `seed`.
    ///
    /// - Returns: the smallest failing scenario found and its file text; when the run
    ///   fails no check, the scenario unchanged (with the seed) and `check` nil.
    /// - Throws: the scenario's problems (`Scenario.validate`); nothing runs then.
    public func shrink(_ scenario: Scenario, seed: UInt64, maxAttempts: Int = 500) async throws(ScenarioErrors) -> Result {
        var original = scenario
        original.seed = seed
        let report = try await original.run(seed: seed, apps: apps)
        guard let failing = report.checks.first(where: { !$0.passed }) else {
            return Result(scenario: original, yaml: ScenarioWriter.yaml(original), check: nil, attempts: 0, seed: seed,
                                reproduces: false)
        }
        let target = failing.spec.check
        var base = original
        base.checks = [Scenario.CheckSpec(target)]
        base.name = original.name.hasSuffix("-shrunk") ? original.name : original.name + "-shrunk"
        base.about = "Shrunk by groupsim shrink from \(original.name) with seed \(seed): the smallest scenario\n"
            + "found that still fails \(ScenarioWriter.check(target))\n"

        var search = Search(apps: apps, seed: seed, file: original.file, maxAttempts: maxAttempts,
                            cause: FailureCause(check: target, report: report))
        guard var current = await search.attempt(Candidate(scenario: base, target: target)) else {
            // The scenario cannot be printed and read back as it is (a scenario built in
            // Swift that breaks a rule of the format): nothing smaller can be checked.
            return Result(scenario: original, yaml: ScenarioWriter.yaml(original), check: target,
                                attempts: search.attempts, seed: seed, reproduces: false)
        }
        var progress = true
        while progress, search.hasBudget {
            progress = false
            for pass in Pass.allCases {
                if await search.run(pass, on: &current) { progress = true }
            }
        }
        return Result(scenario: current.scenario, yaml: current.yaml, check: current.target, attempts: search.attempts,
                            seed: seed, reproduces: true)
    }
}

extension Shrinker {
    /// What `Shrinker.shrink` found.
    public struct Result: Sendable {
    /// The smallest failing scenario found, with the run's seed as its `seed`; the
    /// scenario given (with the seed) when the run did not fail.
    public var scenario: Scenario
    /// `scenario` as a scenario file.
    public var yaml: String
    /// The check that still fails in `scenario`; nil when the run failed no check.
        public var check: Scenario.Check?
    /// Candidate scenarios tried (each printed, read back and, when valid, run).
    public var attempts: Int
    public var seed: UInt64
    /// Whether `yaml`, read back and run, fails `check`: false when the run failed no
    /// check, or when the scenario given could not be printed as a valid file.
    public var reproduces: Bool
    }
}

extension Shrinker {
    /// The kinds of edit, in the order each round tries them.
    enum Pass: CaseIterable {
        case people
        case devices
        case steps
        case links
        case races
        case delays
        case fields
    }

    /// A scenario that fails `target`, and its printed form once it has been checked.
    struct Candidate {
        var scenario: Scenario
        var target: Scenario.Check
        var yaml = ""
    }

    /// The search's state: the attempts made and what a failure must keep.
    struct Search {
        let apps: AppRegistry
        let seed: UInt64
        let file: String
        let maxAttempts: Int
        let cause: FailureCause
        var attempts = 0

        init(apps: AppRegistry, seed: UInt64, file: String, maxAttempts: Int, cause: FailureCause) {
            self.apps = apps
            self.seed = seed
            self.file = file
            self.maxAttempts = maxAttempts
            self.cause = cause
        }

        var hasBudget: Bool { attempts < maxAttempts }

        /// The candidate as read back from its printed form, when it is valid and its run
        /// still fails the target for the same cause; nil otherwise or when out of attempts.
        mutating func attempt(_ candidate: Candidate) async -> Candidate? {
            guard hasBudget else { return nil }
            attempts += 1
            let yaml = ScenarioWriter.yaml(candidate.scenario)
            guard let parsed = try? ScenarioParser.parse(text: yaml, file: file, registeredApps: apps.names),
                  parsed.checks.count == 1, let target = parsed.checks.first?.check, target == candidate.target
            else { return nil }
            guard let report = try? await parsed.run(seed: seed, apps: apps),
                  let result = report.checks.first, !result.passed, cause.holds(in: report) else { return nil }
            return Candidate(scenario: parsed, target: target, yaml: yaml)
        }

        /// Tries each edit of the pass on `current`, keeping those that still fail.
        /// Returns whether any was kept.
        mutating func run(_ pass: Pass, on current: inout Candidate) async -> Bool {
            switch pass {
            case .steps:
                return await removeSteps(from: &current)
            default:
                var progress = false
                // After a kept edit the edits are worked out again from the new scenario.
                editing: while hasBudget {
                    for candidate in Edits.candidates(pass, from: current) {
                        guard hasBudget else { break editing }
                        if let kept = await attempt(candidate) {
                            current = kept
                            progress = true
                            continue editing
                        }
                    }
                    break
                }
                return progress
            }
        }

        /// Delta debugging over the steps: removes chunks of half the steps, then a
        /// quarter, ... then single steps, moving on from a chunk only when it is needed.
        private mutating func removeSteps(from current: inout Candidate) async -> Bool {
            var progress = false
            var size = max(1, current.scenario.steps.count / 2)
            while hasBudget {
                var start = 0
                while start < current.scenario.steps.count, hasBudget {
                    let steps = current.scenario.steps
                    let chunk = Set(steps[start..<min(start + size, steps.count)].map(\.number))
                    if let candidate = Edits.removingSteps(chunk, from: current), let kept = await attempt(candidate) {
                        current = kept
                        progress = true
                    } else {
                        start += size
                    }
                }
                if size == 1 { break }
                size /= 2
            }
            return progress
        }
    }
}
