import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// What an exploration found over many runs of one scenario (`groupsim explore`): per
/// check how many runs failed it, the distribution of outcomes per device and session,
/// the pitfalls with how many runs reported each, and the failing runs to replay.
///
/// Every list is sorted by a rule that depends only on the counts and the scenario, never
/// on which run finished first, so the same exploration gives the same report with one
/// worker or many, and `merge` of shard reports gives exactly the report of the whole
/// (determinism rule 4, README). Render it with `ExplorationTextReport` or `ExplorationJSONReport`;
/// `ExplorationJSONReport.parse` reads the JSON back for merging.
public struct ExplorationReport: Sendable, Hashable {
    /// How the runs were chosen.
    public enum Mode: Sendable, Hashable {
        /// Run `i` of `requested` used the seed `Explorer.seed(forRun: i, base: seed)`:
        /// fresh latency, jitter and race draws per run, replayable with `run --seed`.
        case random(seed: UInt64, requested: Int)
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

        public init(count: Int, indices: [Int]) {
            self.count = count
            self.indices = indices
        }

        public var description: String { indices.map { "\($0)/\(count)" }.joined(separator: ", ") }

        /// How many of the `count` shards are not covered.
        public var missingCount: Int { max(0, count - Set(indices).count) }

        /// The shard indices below `count` that are not covered, in increasing order, at
        /// most `limit` of them. O(`limit` + `indices.count`), however large `count` is.
        public func missing(limit: Int) -> [Int] {
            var result: [Int] = []
            var covered = indices.sorted()[...]
            var index = 0
            while index < count, result.count < limit {
                while let next = covered.first, next < index { covered = covered.dropFirst() }
                if covered.first == index {
                    covered = covered.dropFirst()
                } else {
                    result.append(index)
                }
                index += 1
            }
            return result
        }

        /// The missing shard indices as ranges, in the syntax of Slurm's `--array`
        /// (`2`, `0,2-3`; empty when none is missing), so that the shards to run again can
        /// be passed on as they are. O(`indices.count`), however large `count` is.
        public var missingRanges: String {
            var ranges: [String] = []
            var next = 0
            func gap(upTo end: Int) {
                guard next < end else { return }
                ranges.append(next == end - 1 ? "\(next)" : "\(next)-\(end - 1)")
            }
            for index in Set(indices).sorted() where index >= 0 && index < count {
                gap(upTo: index)
                next = index + 1
            }
            gap(upTo: count)
            return ranges.joined(separator: ",")
        }

        /// `shard 2/4 is missing`, `shards 1/4 and 2/4 are missing`, or with more than
        /// `limit`, the first `limit` and how many more.
        public func missingDescription(limit: Int = 20) -> String {
            let shown = missing(limit: limit).map { "\($0)/\(count)" }
            let total = missingCount
            guard total > 0 else { return "no shard is missing" }
            if total == 1, let only = shown.first { return "shard \(only) is missing" }
            if total > shown.count { return "shards \(shown.joined(separator: ", ")) and \(total - shown.count) more are missing" }
            return "shards \(shown.dropLast().joined(separator: ", ")) and \(shown.last ?? "") are missing"
        }
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
        public var failedRuns: ExactCount
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
        public var runs: ExactCount
    }

    /// The outcomes of one session on one device, most frequent first (ties: by `Shown`).
    ///
    /// A report of a large group has a row per device and session: 10 million rows at
    /// 1,000 devices. A row built by exploration keeps its device, its session and, when it
    /// has one outcome (most rows), the thing shown as numbers into one table that every
    /// row of the report shares (`OutcomeNames`): 40 bytes a row instead of 88, read back
    /// as values. Rows compare and hash by those values, never by the table.
    public struct OutcomeTally: Sendable, Hashable {
        private var names: OutcomeNames
        private var deviceNumber: Int32
        private var sessionNumber: Int32
        private var storage: Counts

        private enum Counts: Sendable {
            /// One outcome: the number of the thing shown in `names.values`, and its runs.
            case one(Int32, ExactCount)
            case many([OutcomeCount])
        }

        public var device: String {
            get { names.devices[Int(deviceNumber)] }
            set { (names, deviceNumber) = names.adding(device: newValue) }
        }

        public var session: String {
            get { names.sessions[Int(sessionNumber)] }
            set { (names, sessionNumber) = names.adding(session: newValue) }
        }

        public var counts: [OutcomeCount] {
            get {
                switch storage {
                case .one(let value, let runs): [OutcomeCount(shown: names.values[Int(value)], runs: runs)]
                case .many(let counts): counts
                }
            }
            set { storage = .many(newValue) }
        }

        /// A row with a table of its own; exploration's rows share one (`init(names:...)`).
        init(device: String, session: String, counts: [OutcomeCount]) {
            names = OutcomeNames(devices: [device], sessions: [session], values: [])
            deviceNumber = 0
            sessionNumber = 0
            storage = .many(counts)
        }

        /// A row whose device, session and (for one outcome) thing shown are numbers in `names`.
        init(names: OutcomeNames, device: Int32, session: Int32, value: Int32, runs: ExactCount) {
            self.names = names
            deviceNumber = device
            sessionNumber = session
            storage = .one(value, runs)
        }

        init(names: OutcomeNames, device: Int32, session: Int32, counts: [OutcomeCount]) {
            self.names = names
            deviceNumber = device
            sessionNumber = session
            storage = .many(counts)
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            guard lhs.device == rhs.device, lhs.session == rhs.session else { return false }
            if case .one(let left, let leftRuns) = lhs.storage, case .one(let right, let rightRuns) = rhs.storage {
                return leftRuns == rightRuns && lhs.names.values[Int(left)] == rhs.names.values[Int(right)]
            }
            return lhs.counts == rhs.counts
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(device)
            hasher.combine(session)
            switch storage {
            case .one(let value, let runs):
                hasher.combine(1)
                hasher.combine(names.values[Int(value)])
                hasher.combine(runs)
            case .many(let counts):
                hasher.combine(counts.count)
                for count in counts {
                    hasher.combine(count.shown)
                    hasher.combine(count.runs)
                }
            }
        }
    }

    /// The names and things shown that a report's outcome rows refer to by number; never
    /// changed once made (a row given a new name gets a table of its own).
    final class OutcomeNames: Sendable {
        let devices: [String]
        let sessions: [String]
        let values: [Shown]

        init(devices: [String], sessions: [String], values: [Shown]) {
            self.devices = devices
            self.sessions = sessions
            self.values = values
        }

        func adding(device: String) -> (OutcomeNames, Int32) {
            (OutcomeNames(devices: devices + [device], sessions: sessions, values: values), Int32(devices.count))
        }

        func adding(session: String) -> (OutcomeNames, Int32) {
            (OutcomeNames(devices: devices, sessions: sessions + [session], values: values), Int32(sessions.count))
        }
    }

    /// One outcome class of a session: the distinct things its devices showed at the end
    /// of a run (each device's live bubble, as `Shown`), whichever device showed which.
    /// One thing means every device agreed; more mean the views parted (M12).
    public struct OutcomeClass: Sendable, Hashable {
        public var session: String
        /// Sorted by `Shown`'s order, each once.
        public var shown: [Shown]
        public var runs: ExactCount
        /// Random exploration: over the class's runs, the fewest and the most devices that
        /// showed the most common thing; nil where it was not counted (exhaustive).
        public var agreeing: ClosedRange<Int>?

        public init(session: String, shown: [Shown], runs: ExactCount, agreeing: ClosedRange<Int>? = nil) {
            self.session = session
            self.shown = shown
            self.runs = runs
            self.agreeing = agreeing
        }

        /// The same session and things shown: two reports' classes merge by this.
        var key: ClassKey { ClassKey(session: session, shown: shown) }
    }

    struct ClassKey: Hashable, Sendable {
        var session: String
        var shown: [Shown]
    }

    /// A device that showed something other than its session's most common view.
    public struct Outlier: Sendable, Hashable {
        public var session: String
        public var device: String
        public var runs: ExactCount
    }

    /// A pitfall kind and how many runs reported it at least once.
    public struct PitfallTally: Sendable, Hashable {
        public var kind: Scenario.PitfallKind
        /// The docs/behaviour.md rule the runs cited (`lost-update` is M12 with state in the
        /// message, M13 with a cloud store that overwrites).
        public var rule: Rule
        public var runs: ExactCount
    }

    /// A step that failed with a code, and in how many runs.
    public struct StepFailureTally: Sendable, Hashable {
        /// 1-based step number; nil for an app's own action.
        public var step: Int?
        public var device: String
        /// The error name from docs/behaviour.md, or `noBubble`.
        public var code: String
        public var runs: ExactCount
    }

    /// A run that failed at least one check, or had a step fail unexpectedly.
    public struct FailingRun: Sendable, Hashable {
        public var reference: RunReference
        /// Indices into `checks` of the checks it failed.
        public var failedChecks: [Int]
        /// Its unexpected step failures, as `unexpectedFailures` words them.
        public var unexpected: [String] = []
        /// For `exhaustive`: the order, event by event (`m2 to alice-phone`).
        public var schedule: [String]
    }

    /// The most failing runs a report keeps, lowest run numbers first.
    public static let failureSampleLimit = 10

    public var scenario: String
    /// The scenario file as given (for replay lines), or `<swift>`.
    public var file: String
    /// `Scenario.fingerprint` of the scenario explored: shard reports merge only when
    /// theirs are equal (the same scenario text, whatever its file's path).
    public var fingerprint: String
    /// The `GroupSimVersion` that explored: shard reports merge only when theirs are equal.
    public var toolVersion: String
    public var mode: Mode
    /// nil when the report covers every run (also after merging every shard).
    public var shard: ShardCoverage?
    /// Every device, in the scenario's order.
    public var devices: [String]
    /// The sessions the scenario's steps name, in the order first named.
    public var sessions: [String]
    /// Runs in this report (for `exhaustive`: distinct delivery orders).
    public var runs: ExactCount
    /// Runs that failed at least one check or had a step fail unexpectedly.
    public var failedRuns: ExactCount
    /// Runs stopped at `Simulation.eventLimit` before going quiet.
    public var stoppedRuns: ExactCount
    /// In the scenario's order.
    public var checks: [CheckTally]
    /// Steps that failed in some run with no `error:` check expecting them, each counted
    /// as a failed check (`step 3 on bob-phone failed unexpectedly: noBubble`), by step,
    /// device and code; `line` is the step's.
    public var unexpectedFailures: [CheckTally] = []
    /// By device (scenario order), then session (scenario order, others by name).
    public var outcomes: OutcomeTallies
    /// In `PitfallKind` order.
    public var pitfalls: [PitfallTally]
    /// By step, device and code.
    public var stepFailures: [StepFailureTally]
    /// The failing runs with the lowest numbers, at most `failureSampleLimit`.
    public var failures: [FailingRun]
    /// Each session's outcome classes (what set of things its devices showed) with how
    /// many runs gave each: by session (scenario order), then most runs first, then by
    /// the things shown. Counting per session keeps "distinct outcomes" meaningful in a
    /// 96-device group, where no two runs leave every device showing the same.
    public var classes: [OutcomeClass] = []
    /// Random exploration: per session and device, the runs in which the device showed
    /// something other than the session's most common view; by session, then most runs.
    public var outliers: [Outlier] = []
    /// The registered app the scenario names (`app: { name: ... }`), nil for the built-in
    /// app: such a run replays from Swift, where the app is registered.
    public var app: String? = nil
    /// Conditional writes the cloud store refused, over every run: under `app.state:
    /// cloud-cas` each is one retry the race cost (M13).
    public var cloudConflicts: ExactCount = 0
    /// Runs with at least one refused conditional write.
    public var conflictRuns: ExactCount = 0
    /// The most refused writes in one run.
    public var mostConflicts: Int = 0
    /// The exploration was stopped early (`groupsim explore` on SIGINT or SIGTERM, or its
    /// task cancelled): `runs` is fewer than planned, and the counts are those of the
    /// first `runs` runs in run order, so they are the same however many workers ran.
    public var interrupted = false
    /// An exhaustive search that stopped because it would have held more than its memory
    /// budget (`--max-memory`): `interrupted` is set too, and the counts are those of the
    /// orders searched. nil for every other report.
    public var memoryStop: MemoryStop? = nil

    /// Where an exhaustive search stopped for memory: its budget and what it held then,
    /// in bytes (counted from the sizes of what it keeps, `SearchMemory`).
    public struct MemoryStop: Sendable, Hashable {
        public var budget: Int
        public var held: Int

        public init(budget: Int, held: Int) {
            self.budget = budget
            self.held = held
        }
    }

    /// How an exhaustive exploration was split into parts counted apart; nil for random
    /// exploration and for `--no-factor`.
    public var factoring: Factoring? = nil

    /// Which search an exhaustive exploration made, which says what its schedules
    /// simulated are beside its orders; nil for random exploration (and in reports written
    /// before it was recorded).
    public var search: Search? = nil

    /// The searches of `--exhaustive` (docs/exploration.md).
    public enum Search: String, Sendable, Hashable {
        /// By races with wakeup trees (an app registered from Swift): one schedule per order.
        case optimal
        /// Branching at every alternative (the built-in app's orders, a device that goes
        /// offline and back): several schedules per order, each order counted once.
        case everyAlternative = "every-alternative"
        /// Factored: the dependent orders and each device's local orders are simulated, and
        /// the orders counted from them.
        case factored
    }

    /// How exhaustive exploration split the orders (docs/exploration.md, "Factoring").
    public struct Factoring: Sendable, Hashable {
        /// Devices whose arrival orders, once no step could read them any more, were each
        /// simulated once and combined by counting, in the scenario's order.
        public var devices: [String]
        /// Distinct orders of everything else (steps, and what they read), enumerated.
        public var dependentOrders: Int
        /// The most local orders one device had, over every dependent order.
        public var largestFactor: Int
        /// Why it enumerated everything instead, when it did.
        public var fallback: String?
        /// Devices whose arrivals were enumerated with the dependent part because their
        /// app did something on an arrival that others could see, one sentence each
        /// (`bob-phone's app fetched from the cloud store on an arrival (m2 to bob-phone)`),
        /// in the scenario's device order.
        public var unfactored: [String]

        public init(devices: [String], dependentOrders: Int, largestFactor: Int, fallback: String? = nil, unfactored: [String] = []) {
            self.devices = devices
            self.dependentOrders = dependentOrders
            self.largestFactor = largestFactor
            self.fallback = fallback
            self.unfactored = unfactored
        }

        /// One line for the text report.
        public var summary: String {
            if let fallback { return "not factored: \(fallback); every order was enumerated" }
            let shown = devices.prefix(4).joined(separator: ", ") + (devices.count > 4 ? " and \(devices.count - 4) more" : "")
            let factored = "factored: \(Plural.count(dependentOrders, "dependent order")) enumerated; the arrival orders of "
                + "\(Plural.count(devices.count, "device")) (\(shown)) counted per device, at most \(largestFactor) each"
            guard !unfactored.isEmpty else { return factored }
            return factored + "\nnot factored: " + Self.acted(unfactored) + "; those devices' arrivals were enumerated"
        }

        /// The first of `unfactored`'s sentences, then how many more devices acted.
        static func acted(_ unfactored: [String]) -> String {
            guard let first = unfactored.first else { return "" }
            let more = unfactored.count - 1
            return more == 0 ? first : first + " (and \(Plural.count(more, "more device")) whose app acted on an arrival)"
        }
    }

    /// Every check held in every run.
    public var passed: Bool { failedRuns.isZero }

    /// How many distinct outcome classes came out, over every session (`classes`).
    public var distinctOutcomes: Int { classes.count }

    /// The outcome classes of `session`, most runs first.
    public func classes(of session: String) -> [OutcomeClass] { classes.filter { $0.session == session } }

    /// The failing run with the lowest number: replay it with `groupsim run FILE --seed`.
    public var firstFailure: FailingRun? { failures.first }

    /// The seed the runs derive from (random) or ran with (exhaustive).
    public var seed: UInt64 {
        switch mode {
        case .random(let seed, _), .exhaustive(let seed, _, _): seed
        }
    }

    /// The outcomes of `session` on `device`, or an empty list.
    public func outcomes(of session: String, on device: String) -> [OutcomeCount] {
        outcomes.first { $0.device == device && $0.session == session }?.counts ?? []
    }

    /// The tally of the check written on `line`, if any.
    public func check(atLine line: Int) -> CheckTally? { checks.first { $0.line == line } }

    /// How many runs this report was meant to cover: every requested run, or the runs
    /// of the shards it covers; for an exhaustive search, nil (its size is an estimate).
    public var plannedRuns: Int? {
        guard case .random(_, let requested) = mode else { return nil }
        guard let shard, shard.count > 0 else { return requested }
        return shard.indices.reduce(0) { total, index in
            total + (requested > index ? (requested - index - 1) / shard.count + 1 : 0)
        }
    }

    /// The command that replays the run with `seed`: `groupsim run FILE --seed N`, or for
    /// a scenario read from standard input, `groupsim run - --seed N` fed the same text.
    public func replayCommand(seed: UInt64) -> String {
        file == "<stdin>" ? "groupsim run - --seed \(seed) (with the same scenario on standard input)"
            : "groupsim run \(ShellWord.quote(file)) --seed \(seed)"
    }

    /// Where an exhaustive search stopped for memory, in words, for the report's heading:
    /// `stopped at the memory budget: enumerated 1,054 of an estimated 39,916,800 orders; ...`.
    /// A factored search enumerates local orders (schedules) and counts many more orders
    /// from them: it says both.
    public var memoryStopDescription: String? {
        guard let memoryStop, case .exhaustive(_, let estimate, let simulated) = mode else { return nil }
        let factored = factoring.map { $0.fallback == nil } ?? false
        let enumerated = factored ? simulated : runs.clampedInt
        let counted = factored ? " (\(runs.description.count > 15 ? runs.readable : runs.grouped) orders counted from them)" : ""
        let why: String
        if estimate == 0 {
            // The first schedule's own decisions passed the budget before any estimate.
            why = "the first schedule alone held more than the budget (its every decision among the events in flight), "
                + "before any order was enumerated"
        } else if enumerated < estimate {
            why = "enumerated \(enumerated.grouped) of an estimated \(estimate.grouped) orders\(counted)"
        } else {
            why = "enumerated \(enumerated.grouped) orders\(counted), more than the up-front estimate of \(estimate.grouped): "
                + "the estimate counts only the orders of what the first run saw between two steps, and events that cross a step "
                + "in other orders add more"
        }
        // A search stops at the step that passes the budget, so what it held often prints as
        // the budget does: then it says so rather than "about 4 MiB, over 4 MiB".
        let held = Self.bytes(memoryStop.held), budget = Self.bytes(memoryStop.budget)
        let size = held == budget ? "just over --max-memory \(budget)" : "about \(held), over --max-memory \(budget)"
        return "stopped at the memory budget: \(why); the search held \(size); the counts below are of the orders searched"
    }

    /// `1.5 GiB`, `512 MiB`, `300 KiB`: binary units, as `--max-memory` takes them.
    public static func bytes(_ count: Int) -> String {
        let units: [(String, Int)] = [("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]
        for (name, size) in units where count >= size {
            let tenths = Int((Double(count) / Double(size) * 10).rounded())
            return tenths % 10 == 0 ? "\(tenths / 10) \(name)" : "\(tenths / 10).\(tenths % 10) \(name)"
        }
        return "\(count) bytes"
    }

    /// `48.2%` of an exact count (`ExactCount.percent(of:)`).
    public static func percent(_ count: ExactCount, of total: ExactCount) -> String { count.percent(of: total) }

    /// `48.2%`: `count` out of `total` in tenths of a percent, rounded half up, computed
    /// with integers so every machine prints the same.
    /// Never traps: counts near `Int.max` are divided in full width, and a count above
    /// `total` (which no valid report holds) prints as `over 100%`.
    public static func percent(_ count: Int, of total: Int) -> String {
        guard total > 0, count >= 0 else { return "0%" }
        guard count <= total else { return "over 100%" }
        // count * 1000 / total, rounded half up, without overflow: at most 1000.
        let product = UInt(count).multipliedFullWidth(by: 1000)
        let (quotient, remainder) = UInt(total).dividingFullWidth(product)
        let tenths = remainder >= UInt(total) - remainder ? quotient + 1 : quotient
        return "\(tenths / 10).\(tenths % 10)%"
    }
}
