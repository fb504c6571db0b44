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
    package static let format = "groupsim-exploration-3"
    /// The formats before reports carried `fingerprint` and `groupsimVersion` (1), and
    /// before outcomes were counted per session as classes (2).
    static let formerFormats = ["groupsim-exploration-1", "groupsim-exploration-2"]
    /// The `version` member of every JSON report (`run`, `explore`, `merge`; docs/json-output.md),
    /// kept here, below the run report's renderer in Reporting, which repeats it as `JSONReport.version`.
    package static let version = 1

    package static func render(_ report: ExplorationReport) -> String { value(report).rendered() + "\n" }

    package static func value(_ report: ExplorationReport) -> JSONValue {
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
            if let search = report.search { members.append(("search", .string(search.rawValue))) }
            if let factoring = report.factoring {
                var fields: [(String, JSONValue)] = [
                    ("devices", .array(factoring.devices.map(JSONValue.string))),
                    ("dependentOrders", .int(factoring.dependentOrders)),
                    ("largestFactor", .int(factoring.largestFactor)),
                ]
                if let fallback = factoring.fallback { fields.append(("fallback", .string(fallback))) }
                if !factoring.unfactored.isEmpty { fields.append(("unfactored", .array(factoring.unfactored.map(JSONValue.string)))) }
                members.append(("factoring", .object(fields)))
            }
        }
        members.append(("shard", report.shard.map { shard in
            .object([("count", .int(shard.count)), ("indices", .array(shard.indices.map { .int($0) })),
                     ("missing", .string(shard.missingRanges))])
        } ?? .null))
        // Only when true, so a whole exploration's report reads as it always did.
        if report.interrupted { members.append(("interrupted", .bool(true))) }
        if let stop = report.memoryStop {
            members.append(("memoryStop", .object([("budget", .int(stop.budget)), ("held", .int(stop.held))])))
        }
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
}
