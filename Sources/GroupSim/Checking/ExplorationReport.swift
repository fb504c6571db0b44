/// What an exploration found over many runs of one scenario (`groupsim explore`): per
/// check how many runs failed it, the distribution of outcomes per device and session,
/// the pitfalls with how many runs reported each, and the failing runs to replay.
///
/// Every list is sorted by a rule that depends only on the counts and the scenario, never
/// on which run finished first, so the same exploration gives the same report with one
/// worker or many, and `merge` of shard reports gives exactly the report of the whole
/// (DESIGN.md rule 4). Render it with `ExplorationTextReport` or `ExplorationJSONReport`;
/// `ExplorationJSONReport.parse` reads the JSON back for merging.
public struct ExplorationReport: Sendable, Hashable {
    /// How the runs were chosen.
    public enum Mode: Sendable, Hashable {
        /// Run `i` of `requested` used the seed `Explorer.seed(forRun: i, base: seed)`:
        /// fresh latency, jitter and race draws per run, replayable with `run --seed`.
        case sampled(seed: UInt64, requested: Int)
        /// Every distinct delivery order with the scenario's own draws (`seed`): one run
        /// per order; `estimate` was the up-front bound, `simulated` the schedules
        /// actually simulated (pruned duplicates included).
        case exhaustive(seed: UInt64, estimate: Int, simulated: Int)
    }

    /// Which shards of a random exploration a report covers, when not all of them.
    public struct ShardCoverage: Sendable, Hashable, CustomStringConvertible {
        public var count: Int
        /// Sorted shard indices below `count`.
        public var indices: [Int]

        public var description: String { indices.map { "\($0)/\(count)" }.joined(separator: ", ") }
    }

    /// One run, by its number in the exploration and the seed that replays it.
    public struct RunReference: Sendable, Hashable {
        /// 0-based run number (for `exhaustive`, the order's number in search order).
        public var run: Int
        public var seed: UInt64
    }

    /// One check of the scenario and how many runs failed it.
    public struct CheckTally: Sendable, Hashable {
        /// The check in one line, as `groupsim run` prints it: `converged poll`.
        public var text: String
        /// Where it is written in the scenario file.
        public var line: Int?
        public var failedRuns: Int
        /// The failing run with the lowest number.
        public var firstFailure: RunReference?
    }

    /// What one device would show for one session at the end of a run: the live bubble's
    /// sender and the state tapping it would show (M12; in the cloud modes the store's
    /// record, M13). Message numbers are left out: they vary from run to run; so do the
    /// participant UUIDs in a state, which are written as `<person@device>` instead.
    public struct Shown: Sendable, Hashable, Comparable {
        /// The person who sent the live bubble; nil when the device shows no bubble.
        public var from: String?
        /// Their contact name (`Bob`).
        public var fromName: String?
        public var state: StateMap

        public init(from: String?, fromName: String?, state: StateMap) {
            self.from = from
            self.fromName = fromName
            self.state = state
        }

        /// By sender (no bubble last), then by the state's text.
        public static func < (lhs: Self, rhs: Self) -> Bool {
            switch (lhs.from, rhs.from) {
            case (nil, .some): return false
            case (.some, nil): return true
            case (let left?, let right?) where left != right: return left < right
            default:
                let left = lhs.state.description
                let right = rhs.state.description
                return left != right ? left < right : lhs.state.url() < rhs.state.url()
            }
        }
    }

    /// One outcome and in how many runs it came out.
    public struct OutcomeCount: Sendable, Hashable {
        public var shown: Shown
        public var runs: Int
    }

    /// The outcomes of one session on one device, most frequent first (ties: by `Shown`).
    public struct OutcomeTally: Sendable, Hashable {
        public var device: String
        public var session: String
        public var counts: [OutcomeCount]
    }

    /// A pitfall kind and how many runs reported it at least once.
    public struct PitfallTally: Sendable, Hashable {
        public var kind: PitfallKind
        /// The MESSAGES.md rule the runs cited (`lost-update` is M12 with state in the
        /// message, M13 with a cloud store that overwrites).
        public var rule: String
        public var runs: Int
    }

    /// A step that failed with a code, and in how many runs.
    public struct StepFailureTally: Sendable, Hashable {
        /// 1-based step number; nil for an app's own action.
        public var step: Int?
        public var device: String
        /// The error name from MESSAGES.md, or `noBubble`.
        public var code: String
        public var runs: Int
    }

    /// A run that failed at least one check.
    public struct FailingRun: Sendable, Hashable {
        public var reference: RunReference
        /// Indices into `checks` of the checks it failed.
        public var failedChecks: [Int]
        /// For `exhaustive`: the order, event by event (`m2 to alice-phone`).
        public var schedule: [String]
    }

    /// The most failing runs a report keeps, lowest run numbers first.
    public static let failureSampleLimit = 10

    public var scenario: String
    /// The scenario file as given (for replay lines), or `<swift>`.
    public var file: String
    public var mode: Mode
    /// nil when the report covers every run (also after merging every shard).
    public var shard: ShardCoverage?
    /// Every device, in the scenario's order.
    public var devices: [String]
    /// The sessions the scenario's steps name, in the order first named.
    public var sessions: [String]
    /// Runs in this report (for `exhaustive`: distinct delivery orders).
    public var runs: Int
    /// Runs that failed at least one check.
    public var failedRuns: Int
    /// Runs stopped at `Simulation.eventLimit` before going quiet.
    public var stoppedRuns: Int
    /// In the scenario's order.
    public var checks: [CheckTally]
    /// By device (scenario order), then session (scenario order, others by name).
    public var outcomes: [OutcomeTally]
    /// In `PitfallKind` order.
    public var pitfalls: [PitfallTally]
    /// By step, device and code.
    public var stepFailures: [StepFailureTally]
    /// The failing runs with the lowest numbers, at most `failureSampleLimit`.
    public var failures: [FailingRun]
    /// A 64-bit key (hex) of each distinct whole-run outcome, sorted: what devices show
    /// for every session. Kept so that merged shards count distinct outcomes exactly.
    public var outcomeKeys: [String]
    /// The registered app the scenario names (`app: { name: ... }`), nil for the built-in
    /// app: such a run replays from Swift, where the app is registered.
    public var app: String? = nil

    /// Every check held in every run.
    public var passed: Bool { failedRuns == 0 }

    /// How many distinct whole-run outcomes (every device's view of every session) came out.
    public var distinctOutcomes: Int { outcomeKeys.count }

    /// The failing run with the lowest number: replay it with `groupsim run FILE --seed`.
    public var firstFailure: FailingRun? { failures.first }

    /// The seed the runs derive from (random) or ran with (exhaustive).
    public var seed: UInt64 {
        switch mode {
        case .sampled(let seed, _), .exhaustive(let seed, _, _): seed
        }
    }

    /// The outcomes of `session` on `device`, or an empty list.
    public func outcomes(of session: String, on device: String) -> [OutcomeCount] {
        outcomes.first { $0.device == device && $0.session == session }?.counts ?? []
    }

    /// The tally of the check written on `line`, if any.
    public func check(atLine line: Int) -> CheckTally? { checks.first { $0.line == line } }

    /// `48.2%`: `count` out of `total` in tenths of a percent, rounded half up, computed
    /// with integers so every machine prints the same.
    public static func percent(_ count: Int, of total: Int) -> String {
        guard total > 0 else { return "0%" }
        let tenths = (count * 1000 * 2 + total) / (total * 2)
        return "\(tenths / 10).\(tenths % 10)%"
    }
}
