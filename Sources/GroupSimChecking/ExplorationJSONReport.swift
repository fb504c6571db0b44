import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// `groupsim explore --format json`: one object with every count of an
/// `ExplorationReport`, in a fixed member order, and `parse` to read it back exactly
/// (shard files for `groupsim merge`).
///
/// Seeds are strings (they use all 64 bits); counts are integers; `percent`, `passed`,
/// `distinctOutcomes`, `replay` and a shard's `missing` (the shards not covered, as
/// ranges in the syntax of Slurm's `--array`: `2`, `0,2-3`) are derived and ignored when
/// read back. `fingerprint` and `groupsimVersion` say which scenario text and which GroupSim
/// explored, so that `merge` joins only shards of the same exploration.
///
/// Nothing in it depends on the machine, the wall clock, the number of workers or the
/// working folder (the file is written as given on the command line): running the same
/// shard again writes the same bytes, so a retried shard never changes a merged result.
package enum ExplorationJSONReport {
    public static let format = "groupsim-exploration-3"
    /// The formats before reports carried `fingerprint` and `groupsimVersion` (1), and
    /// before outcomes were counted per session as classes (2).
    static let formerFormats = ["groupsim-exploration-1", "groupsim-exploration-2"]
    /// The `version` member of every JSON report (`run`, `explore`, `merge`; docs/json-output.md),
    /// kept here, below the run report's renderer in Reporting, which repeats it as `JSONReport.version`.
    package static let version = 1

    public static func render(_ report: ExplorationReport) -> String { value(report).rendered() + "\n" }

    public static func value(_ report: ExplorationReport) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("format", .string(format)),
            ("version", .int(version)),
            ("scenario", .string(report.scenario)),
            ("file", .string(report.file)),
            ("fingerprint", .string(report.fingerprint)),
            ("groupsimVersion", .string(report.toolVersion)),
        ]
        switch report.mode {
        case .random(let seed, let requested):
            members += [("mode", .string("random")), ("seed", .string(String(seed))), ("requestedRuns", .int(requested))]
        case .exhaustive(let seed, let estimate, let simulated):
            members += [("mode", .string("exhaustive")), ("seed", .string(String(seed))),
                        ("estimatedOrders", .int(estimate)), ("simulatedSchedules", .int(simulated))]
            if let factoring = report.factoring {
                var fields: [(String, JSONValue)] = [
                    ("devices", .array(factoring.devices.map(JSONValue.string))),
                    ("dependentOrders", .int(factoring.dependentOrders)),
                    ("largestFactor", .int(factoring.largestFactor)),
                ]
                if let fallback = factoring.fallback { fields.append(("fallback", .string(fallback))) }
                members.append(("factoring", .object(fields)))
            }
        }
        members.append(("shard", report.shard.map { shard in
            .object([("count", .int(shard.count)), ("indices", .array(shard.indices.map { .int($0) })),
                     ("missing", .string(shard.missingRanges))])
        } ?? .null))
        // Only when true, so a whole exploration's report reads as it always did.
        if report.interrupted { members.append(("interrupted", .bool(true))) }
        members += [
            ("passed", .bool(report.passed)),
            ("runs", .count(report.runs)),
            ("failedRuns", .count(report.failedRuns)),
            ("stoppedRuns", .count(report.stoppedRuns)),
            ("distinctOutcomes", .int(report.distinctOutcomes)),
            ("devices", .array(report.devices.map(JSONValue.string))),
            ("sessions", .array(report.sessions.map(JSONValue.string))),
            ("checks", .array(report.checks.map(checkTally))),
            ("unexpectedFailures", .array(report.unexpectedFailures.map(checkTally))),
            ("outcomes", .array(report.outcomes.map { row in
                .object([
                    ("device", .string(row.device)),
                    ("session", .string(row.session)),
                    ("counts", .array(row.counts.map { count in
                        .object([
                            ("from", .string(count.shown.from)),
                            ("fromName", .string(count.shown.fromName)),
                            ("state", .object(count.shown.state.entries.map { ($0.key, .string($0.value)) })),
                            ("runs", .count(count.runs)),
                            ("percent", .string(ExplorationReport.percent(count.runs, of: report.runs))),
                        ])
                    })),
                ])
            })),
            ("pitfalls", .array(report.pitfalls.map { pitfall in
                .object([
                    ("kind", .string(pitfall.kind.rawValue)), ("rule", .string(pitfall.rule.rawValue)),
                    ("reference", .string(pitfall.rule.path)), ("runs", .count(pitfall.runs)),
                ])
            })),
            ("cloudConflicts", .object([
                ("writes", .count(report.cloudConflicts)), ("runs", .count(report.conflictRuns)), ("most", .int(report.mostConflicts)),
            ])),
            ("stepFailures", .array(report.stepFailures.map { failure in
                .object([
                    ("step", failure.step.map { .int($0) } ?? .null),
                    ("device", .string(failure.device)),
                    ("code", .string(failure.code)),
                    ("runs", .count(failure.runs)),
                ])
            })),
            ("failures", .array(report.failures.map { failure in
                var fields: [(String, JSONValue)] = [
                    ("run", .int(failure.reference.run)),
                    ("seed", .string(String(failure.reference.seed))),
                    ("failedChecks", .array(failure.failedChecks.map { .int($0) })),
                    ("unexpectedFailures", .array(failure.unexpected.map(JSONValue.string))),
                ]
                if case .random = report.mode {
                    fields.append(("replay", .string(report.replayCommand(seed: failure.reference.seed))))
                } else {
                    fields.append(("schedule", .array(failure.schedule.map(JSONValue.string))))
                }
                return .object(fields)
            })),
            ("outcomeClasses", .array(report.classes.map { entry in
                var fields: [(String, JSONValue)] = [
                    ("session", .string(entry.session)),
                    ("shown", .array(entry.shown.map(shown))),
                    ("runs", .count(entry.runs)),
                    ("percent", .string(ExplorationReport.percent(entry.runs, of: report.runs))),
                ]
                if let agreeing = entry.agreeing {
                    fields.append(("agreeing", .object([("fewest", .int(agreeing.lowerBound)), ("most", .int(agreeing.upperBound))])))
                }
                return .object(fields)
            })),
            ("outliers", .array(report.outliers.map { entry in
                .object([("session", .string(entry.session)), ("device", .string(entry.device)), ("runs", .count(entry.runs))])
            })),
        ]
        return .object(members)
    }

    /// One thing a device showed: its sender and state.
    static func shown(_ shown: ExplorationReport.Shown) -> JSONValue {
        .object([
            ("from", .string(shown.from)),
            ("fromName", .string(shown.fromName)),
            ("state", .object(shown.state.entries.map { ($0.key, .string($0.value)) })),
        ])
    }

    /// A check's tally, or an unexpected step failure's (counted as a failed check).
    static func checkTally(_ check: ExplorationReport.CheckTally) -> JSONValue {
        .object([
            ("text", .string(check.text)),
            ("line", check.line.map { .int($0) } ?? .null),
            ("failedRuns", .count(check.failedRuns)),
            ("passed", .bool(check.failedRuns == 0)),
            ("firstFailure", check.firstFailure.map(reference) ?? .null),
        ])
    }

    static func reference(_ reference: ExplorationReport.RunReference) -> JSONValue {
        .object([("run", .int(reference.run)), ("seed", .string(String(reference.seed)))])
    }

    /// Reads a report written by `render` back. Throws `ExplorationError.invalidReport`
    /// naming the member that is missing or malformed.
    public static func parse(_ text: String) throws(ExplorationError) -> ExplorationReport {
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            throw .invalidReport("not JSON: \(error)")
        }
        return try parse(json)
    }

    public static func parse(_ json: JSONValue) throws(ExplorationError) -> ExplorationReport {
        let root = Fields(json, "the report")
        let written = try root.string("format")
        guard written == format else {
            if formerFormats.contains(written) {
                throw .invalidReport("written by an older groupsim (format \"\(written)\", before reports carried a scenario "
                    + "fingerprint); explore the shards again with groupsim \(GroupSimVersion.current)")
            }
            throw .invalidReport("not an exploration report (format \"\(format)\" expected)")
        }
        if let value = root.optional("version") {
            let version = try Fields.int(value, "version")
            guard version <= Self.version else {
                throw .invalidReport("written by a newer groupsim (report version \(version); this one reads up to \(Self.version))")
            }
        }
        let seed = try root.seed("seed")
        let mode: ExplorationReport.Mode
        switch try root.string("mode") {
        case "random":
            mode = .random(seed: seed, requested: try root.int("requestedRuns"))
        case "exhaustive":
            mode = .exhaustive(seed: seed, estimate: try root.int("estimatedOrders"), simulated: try root.int("simulatedSchedules"))
        case let other:
            throw .invalidReport("unknown mode \"\(other)\"")
        }
        var shard: ExplorationReport.ShardCoverage?
        if let value = root.optional("shard") {
            let fields = Fields(value, "shard")
            shard = ExplorationReport.ShardCoverage(count: try fields.int("count"),
                indices: try fields.array("indices").map { item throws(ExplorationError) in
                try Fields.int(item, "shard index")
            })
        }
        let tally = { (item: JSONValue) throws(ExplorationError) -> ExplorationReport.CheckTally in
            let fields = Fields(item, "check")
            return ExplorationReport.CheckTally(
                text: try fields.string("text"),
                    line: try fields.optional("line").map { value throws(ExplorationError) in try Fields.int(value, "line") },
                failedRuns: try fields.count("failedRuns"), firstFailure: try fields.optional("firstFailure").map(reference))
        }
        let checks = try root.array("checks").map(tally)
        let unexpected = root.optional("unexpectedFailures") == nil ? [] : try root.array("unexpectedFailures").map(tally)
        let outcomes = try root.array("outcomes").map { item throws(ExplorationError) -> ExplorationReport.OutcomeTally in
            let fields = Fields(item, "outcome")
            let counts = try fields.array("counts").map { entry throws(ExplorationError) -> ExplorationReport.OutcomeCount in
                let count = Fields(entry, "outcome count")
                guard case .object(let members)? = count.optional("state") else { throw .invalidReport("outcome count: \"state\" must be "
                    + "an object") }
                return ExplorationReport.OutcomeCount(shown: try shown(members, count), runs: try count.count("runs"))
            }
            return ExplorationReport.OutcomeTally(device: try fields.string("device"), session: try fields.string("session"),
                counts: counts)
        }
        let pitfalls = try root.array("pitfalls").map { item throws(ExplorationError) -> ExplorationReport.PitfallTally in
            let fields = Fields(item, "pitfall")
            let name = try fields.string("kind")
            guard let kind = PitfallKind(rawValue: name) else { throw .invalidReport("unknown pitfall kind \"\(name)\"") }
            return ExplorationReport.PitfallTally(kind: kind, rule: Rule(rawValue: try fields.string("rule")), runs: try fields.count("runs"))
        }
        let stepFailures = try root.array("stepFailures").map { item throws(ExplorationError) -> ExplorationReport.StepFailureTally in
            let fields = Fields(item, "step failure")
            return ExplorationReport.StepFailureTally(
                step: try fields.optional("step").map { value throws(ExplorationError) in try Fields.int(value, "step") },
                device: try fields.string("device"), code: try fields.string("code"), runs: try fields.count("runs"))
        }
        let failures = try root.array("failures").map { item throws(ExplorationError) -> ExplorationReport.FailingRun in
            let fields = Fields(item, "failure")
            return ExplorationReport.FailingRun(
                reference: .init(run: try fields.int("run"), seed: try fields.seed("seed")),
                failedChecks: try fields.array("failedChecks").map { value throws(ExplorationError) in try Fields.int(value,
                    "failed check") },
                unexpected: try (fields.optional("unexpectedFailures").map { value throws(ExplorationError) in
                    try Fields(value, "unexpectedFailures").strings()
                }) ?? [],
                schedule: try (fields.optional("schedule").map { value throws(ExplorationError) in try Fields(value,
                    "schedule").strings() }) ?? [])
        }
        var interrupted = false
        if let value = root.optional("interrupted") {
            guard case .bool(let flag) = value else { throw .invalidReport("the report: \"interrupted\" must be true or false") }
            interrupted = flag
        }
        var report = ExplorationReport(
            scenario: try root.string("scenario"), file: try root.string("file"),
            fingerprint: try root.string("fingerprint"), toolVersion: try root.string("groupsimVersion"), mode: mode, shard: shard,
            devices: try Fields(try root.required("devices"), "devices").strings(),
            sessions: try Fields(try root.required("sessions"), "sessions").strings(),
            runs: try root.count("runs"), failedRuns: try root.count("failedRuns"), stoppedRuns: try root.count("stoppedRuns"),
            checks: checks, unexpectedFailures: unexpected, outcomes: outcomes, pitfalls: pitfalls, stepFailures: stepFailures,
                failures: failures)
        report.classes = try root.array("outcomeClasses").map { item throws(ExplorationError) -> ExplorationReport.OutcomeClass in
            let fields = Fields(item, "outcome class")
            let shown = try fields.array("shown").map { value throws(ExplorationError) -> ExplorationReport.Shown in
                let entry = Fields(value, "outcome class")
                guard case .object(let members) = try entry.required("state") else { throw .invalidReport("outcome class: \"state\" must "
                    + "be an object") }
                return try Self.shown(members, entry)
            }
            var agreeing: ClosedRange<Int>?
            if let range = fields.optional("agreeing") {
                let bounds = Fields(range, "outcome class \"agreeing\"")
                let fewest = try bounds.int("fewest"), most = try bounds.int("most")
                guard fewest <= most else { throw .invalidReport("outcome class: \"agreeing\" has fewest above most") }
                agreeing = fewest...most
            }
            return ExplorationReport.OutcomeClass(session: try fields.string("session"), shown: shown, runs: try fields.count("runs"),
                agreeing: agreeing)
        }
        report.outliers = try root.array("outliers").map { item throws(ExplorationError) -> ExplorationReport.Outlier in
            let fields = Fields(item, "outlier")
            return ExplorationReport.Outlier(session: try fields.string("session"), device: try fields.string("device"),
                runs: try fields.count("runs"))
        }
        // Reports written before conflicts were counted have none.
        if let value = root.optional("cloudConflicts") {
            let conflicts = Fields(value, "cloudConflicts")
            report.cloudConflicts = try conflicts.count("writes")
            report.conflictRuns = try conflicts.count("runs")
            report.mostConflicts = try conflicts.int("most")
        }
        report.interrupted = interrupted
        if let value = root.optional("factoring") {
            let fields = Fields(value, "factoring")
            report.factoring = .init(devices: try Fields(try fields.required("devices"), "factoring devices").strings(),
                                     dependentOrders: try fields.int("dependentOrders"), largestFactor: try fields.int("largestFactor"),
                                     fallback: try fields.optionalString("fallback"))
        }
        return report
    }

    /// A `Shown` from an object's `from`, `fromName` and `state` members.
    private static func shown(_ members: [(String, JSONValue)], _ fields: Fields) throws(ExplorationError) -> ExplorationReport.Shown {
        var state = StateMap()
        for (key, value) in members {
            guard case .string(let text) = value else { throw .invalidReport("outcome state \"\(key)\" must be a string") }
            state[key] = text
        }
        return ExplorationReport.Shown(from: try fields.optionalString("from"), fromName: try fields.optionalString("fromName"),
            state: state)
    }

    static func reference(_ value: JSONValue) throws(ExplorationError) -> ExplorationReport.RunReference {
        let fields = Fields(value, "run reference")
        return .init(run: try fields.int("run"), seed: try fields.seed("seed"))
    }
}

/// Typed access to one JSON object's members, with errors that name the member.
private struct Fields {
    let value: JSONValue
    let place: String

    init(_ value: JSONValue, _ place: String) {
        self.value = value
        self.place = place
    }

    /// The member, or nil when absent or null.
    func optional(_ key: String) -> JSONValue? {
        guard let member = value[key], member != .null else { return nil }
        return member
    }

    func required(_ key: String) throws(ExplorationError) -> JSONValue {
        guard let member = optional(key) else { throw .invalidReport("\(place): \"\(key)\" is missing") }
        return member
    }

    func string(_ key: String) throws(ExplorationError) -> String {
        guard case .string(let text) = try required(key) else { throw .invalidReport("\(place): \"\(key)\" must be a string") }
        return text
    }

    func optionalString(_ key: String) throws(ExplorationError) -> String? {
        guard let member = optional(key) else { return nil }
        guard case .string(let text) = member else { throw .invalidReport("\(place): \"\(key)\" must be a string or null") }
        return text
    }

    func int(_ key: String) throws(ExplorationError) -> Int { try Self.int(try required(key), "\(place) \"\(key)\"") }

    /// A count of runs or orders, of any size.
    func count(_ key: String) throws(ExplorationError) -> ExactCount {
        switch try required(key) {
        case .int(let number) where number >= 0: return ExactCount(UInt64(number))
        case .count(let count): return count
        default: throw .invalidReport("\(place) \"\(key)\" must be a whole number of at least 0")
        }
    }

    func seed(_ key: String) throws(ExplorationError) -> UInt64 {
        guard let seed = UInt64(try string(key)) else { throw .invalidReport("\(place): \"\(key)\" must be a whole number in a string") }
        return seed
    }

    func array(_ key: String) throws(ExplorationError) -> [JSONValue] {
        guard case .array(let items) = try required(key) else { throw .invalidReport("\(place): \"\(key)\" must be an array") }
        return items
    }

    /// The value as an array of strings.
    func strings() throws(ExplorationError) -> [String] {
        guard case .array(let items) = value else { throw .invalidReport("\(place) must be an array of strings") }
        var result: [String] = []
        for item in items {
            guard case .string(let text) = item else { throw .invalidReport("\(place) must be an array of strings") }
            result.append(text)
        }
        return result
    }

    static func int(_ value: JSONValue, _ place: String) throws(ExplorationError) -> Int {
        guard case .int(let number) = value, number >= 0, number <= Int64(Int.max) else {
            throw .invalidReport("\(place) must be a whole number of at least 0")
        }
        return Int(number)
    }
}
