import Foundation
import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// Reading a report written by `render` back: `Decodable` types that mirror the wire
/// format, read with `JSONDecoder`, then turned into an `ExplorationReport`.
///
/// The text is first read with `JSONValue.parse`, for three things `JSONDecoder` does not
/// do: it says where a broken file stops being JSON (line and column), it refuses a
/// duplicate member instead of keeping one silently, and it reads counts of any size
/// exactly (`JSONDecoder` reads numbers only up to 64 bits, and an exhaustive
/// exploration counts up to about 10^196 orders). Counts past 64 bits are set aside by
/// their place in the document and replaced by -1, which `Count` looks up and every
/// other number field refuses.
extension ExplorationJSONReport {
    /// Reads a report written by `render` back. Throws `ExplorationError.invalidReport`
    /// naming the member that is missing or malformed, and where it is.
    public static func parse(_ text: String) throws(ExplorationError) -> ExplorationReport {
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            throw .invalidReport("not JSON: \(error)")
        }
        var large: [String: ExactCount] = [:]
        let data = Data(Wire.settingAside(json, at: "", into: &large).rendered(indent: nil).utf8)
        let decoder = JSONDecoder()
        decoder.userInfo[Wire.largeCounts] = large
        do {
            try decoder.decode(Wire.Header.self, from: data).check()
            return try decoder.decode(Wire.Report.self, from: data).report()
        } catch let error as ExplorationError {
            throw error
        } catch let error as DecodingError {
            throw .invalidReport(Wire.message(error))
        } catch {
            throw .invalidReport("\(error)")
        }
    }
}

/// The wire format `groupsim-exploration-3`, member for member. Derived members
/// (`percent`, `passed`, `distinctOutcomes`, `replay`, `reference`, a shard's `missing`)
/// are not read. `interrupted` and `factoring` are written only when they apply;
/// `unexpectedFailures` and `cloudConflicts` are absent from reports written before they
/// were counted. Other formats are refused by `Header`, older ones by name.
private enum Wire {
    static let largeCounts = CodingUserInfoKey(rawValue: "groupsim.largeCounts")!
    static let whole = "must be a whole number of at least 0"

    /// `value` with every count past 64 bits replaced by -1, each recorded in `large`
    /// under its `key(_:)` path.
    static func settingAside(_ value: JSONValue, at path: String, into large: inout [String: ExactCount]) -> JSONValue {
        switch value {
        case .count(let count):
            large[path] = count
            return .int(-1)
        case .array(let items):
            return .array(items.enumerated().map { settingAside($1, at: path + "[\($0)]", into: &large) })
        case .object(let members):
            return .object(members.map { ($0, settingAside($1, at: path + JSONValue.string($0).rendered(), into: &large)) })
        default:
            return value
        }
    }

    /// A path that names one place unambiguously: member names quoted, indices bracketed.
    static func key(_ path: [any CodingKey]) -> String {
        path.map { key in key.intValue.map { "[\($0)]" } ?? JSONValue.string(key.stringValue).rendered() }.joined()
    }

    /// The message for a member that is missing or malformed: the object it is in (by its
    /// path, `outcomes[0].counts[1]`), the member, and what was expected.
    static func message(_ error: DecodingError) -> String {
        let (path, what): ([any CodingKey], String) = switch error {
        case .keyNotFound(let key, let context): (context.codingPath + [key], "is missing")
        case .valueNotFound(_, let context): (context.codingPath, "is missing")
        case .typeMismatch(let type, let context): (context.codingPath, "must be \(expected(type))")
        case .dataCorrupted(let context): (context.codingPath, context.debugDescription)
        @unknown default: ([], "\(error)")
        }
        guard let last = path.last else { return "the report \(what)" }
        let place = path.dropLast().enumerated().map { offset, key in
            key.intValue.map { "[\($0)]" } ?? (offset == 0 ? "" : ".") + key.stringValue
        }.joined()
        return "\(place.isEmpty ? "the report" : place): \(last.intValue.map { "item \($0)" } ?? "\"\(last.stringValue)\"") \(what)"
    }

    static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int.Type: "a whole number of at least 0"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }

    /// The value read as `Raw` and made a `T` by `make`; when that gives nil, refused with
    /// `message`, which names the value's place.
    static func single<Raw: Decodable, T>(_ decoder: any Decoder, _ make: (Raw) -> T?, else message: String) throws -> T {
        guard let value = make(try decoder.singleValueContainer().decode(Raw.self)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: message))
        }
        return value
    }

    /// The members read before anything else, so that a report of another format or a
    /// newer version is named as such rather than by its first unexpected member.
    struct Header: Decodable {
        let format: String
        let version: Whole?

        func check() throws(ExplorationError) {
            guard format == ExplorationJSONReport.format else {
                throw .invalidReport(ExplorationJSONReport.formerFormats.contains(format)
                    ? "written by an older groupsim (format \"\(format)\", before reports carried a scenario fingerprint); "
                        + "explore the shards again with groupsim \(GroupSimVersion.current)"
                    : "not an exploration report (format \"\(ExplorationJSONReport.format)\" expected)")
            }
            if let version = version?.value, version > ExplorationJSONReport.version {
                throw .invalidReport("written by a newer groupsim (report version \(version); this one reads up to "
                    + "\(ExplorationJSONReport.version))")
            }
        }
    }

    /// A whole number of at least 0 that fits in an `Int`.
    struct Whole: Decodable {
        let value: Int
        init(from decoder: any Decoder) throws {
            value = try Wire.single(decoder, { (number: Int) in number >= 0 ? number : nil }, else: Wire.whole)
        }
    }

    /// A count of runs or orders, of any size: past 64 bits, it was set aside as -1.
    struct Count: Decodable {
        let value: ExactCount
        init(from decoder: any Decoder) throws {
            let large = (decoder.userInfo[Wire.largeCounts] as? [String: ExactCount])?[Wire.key(decoder.codingPath)]
            value = try Wire.single(decoder, { (number: Int) in number == -1 ? large : number >= 0 ? ExactCount(number) : nil },
                                    else: Wire.whole)
        }
    }

    /// A seed: all 64 bits, so written as a string of digits.
    struct Seed: Decodable {
        let value: UInt64
        init(from decoder: any Decoder) throws {
            value = try Wire.single(decoder, { (text: String) in UInt64(text) }, else: "must be a whole number in a string")
        }
    }

    struct Reference: Decodable {
        let run: Whole, seed: Seed
        var reference: ExplorationReport.RunReference { .init(run: run.value, seed: seed.value) }
    }

    struct CheckTally: Decodable {
        let text: String, line: Whole?, failedRuns: Count, firstFailure: Reference?
        var tally: ExplorationReport.CheckTally {
            .init(text: text, line: line?.value, failedRuns: failedRuns.value, firstFailure: firstFailure?.reference)
        }
    }

    /// What a device showed.
    struct Shown: Decodable {
        let from: String?, fromName: String?, state: [String: String]
        var shown: ExplorationReport.Shown {
            .init(from: from, fromName: fromName, state: StateMap(state.map { DataEntry($0.key, $0.value) }))
        }
    }

    struct OutcomeCount: Decodable {
        let from: String?, fromName: String?, state: [String: String], runs: Count
        var count: ExplorationReport.OutcomeCount {
            .init(shown: Shown(from: from, fromName: fromName, state: state).shown, runs: runs.value)
        }
    }

    struct Outcome: Decodable {
        let device: String, session: String, counts: [OutcomeCount]
        var tally: ExplorationReport.OutcomeTally { .init(device: device, session: session, counts: counts.map(\.count)) }
    }

    struct Pitfall: Decodable {
        let kind: Kind, rule: String, runs: Count

        struct Kind: Decodable {
            let value: Scenario.PitfallKind
            init(from decoder: any Decoder) throws {
                let kinds = Scenario.PitfallKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                value = try Wire.single(decoder, Scenario.PitfallKind.init(rawValue:), else: "must be one of \(kinds)")
            }
        }
    }

    struct StepFailure: Decodable { let step: Whole?, device: String, code: String, runs: Count }

    struct Failure: Decodable {
        let run: Whole, seed: Seed, failedChecks: [Whole], unexpectedFailures: [String]?, schedule: [String]?
        var failing: ExplorationReport.FailingRun {
            .init(reference: .init(run: run.value, seed: seed.value), failedChecks: failedChecks.map(\.value),
                  unexpected: unexpectedFailures ?? [], schedule: schedule ?? [])
        }
    }

    struct OutcomeClass: Decodable {
        let session: String, shown: [Shown], runs: Count, agreeing: Agreeing?

        struct Agreeing: Decodable {
            let fewest: Whole, most: Whole
            enum Bound: CodingKey { case fewest, most }

            init(from decoder: any Decoder) throws {
                let bounds = try decoder.container(keyedBy: Bound.self)
                (fewest, most) = (try bounds.decode(Whole.self, forKey: .fewest), try bounds.decode(Whole.self, forKey: .most))
                guard fewest.value <= most.value else {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "has fewest above most"))
                }
            }
        }
    }

    struct Outlier: Decodable { let session: String, device: String, runs: Count }

    struct Conflicts: Decodable { let writes: Count, runs: Count, most: Whole }

    struct Shard: Decodable { let count: Whole, indices: [Whole] }

    struct MemoryStop: Decodable { let budget: Whole, held: Whole }

    struct Factoring: Decodable {
        let devices: [String], dependentOrders: Whole, largestFactor: Whole, fallback: String?, unfactored: [String]?
    }

    /// The report: members in the order `render` writes them.
    struct Report: Decodable {
        let scenario: String, file: String, fingerprint: String, groupsimVersion: String, mode: String, seed: Seed
        let requestedRuns: Whole?, estimatedOrders: Whole?, simulatedSchedules: Whole?, search: String?, factoring: Factoring?, shard: Shard?
        let interrupted: Bool?, memoryStop: MemoryStop?, runs: Count, failedRuns: Count, stoppedRuns: Count, devices: [String], sessions: [String]
        let checks: [CheckTally], unexpectedFailures: [CheckTally]?, outcomes: [Outcome], pitfalls: [Pitfall]
        let cloudConflicts: Conflicts?, stepFailures: [StepFailure], failures: [Failure], outcomeClasses: [OutcomeClass]
        let outliers: [Outlier]

        func report() throws(ExplorationError) -> ExplorationReport {
            func present(_ number: Whole?, _ name: String) throws(ExplorationError) -> Int {
                guard let number else { throw .invalidReport("the report: \"\(name)\" is missing") }
                return number.value
            }
            let mode: ExplorationReport.Mode
            switch self.mode {
            case "random": mode = .random(seed: seed.value, requested: try present(requestedRuns, "requestedRuns"))
            case "exhaustive":
                mode = .exhaustive(seed: seed.value, estimate: try present(estimatedOrders, "estimatedOrders"),
                                   simulated: try present(simulatedSchedules, "simulatedSchedules"))
            case let other: throw .invalidReport("the report: \"mode\" must be \"random\" or \"exhaustive\", not \"\(other)\"")
            }
            var report = ExplorationReport(
                scenario: scenario, file: file, fingerprint: fingerprint, toolVersion: groupsimVersion, mode: mode,
                shard: shard.map { .init(count: $0.count.value, indices: $0.indices.map(\.value)) },
                devices: devices, sessions: sessions, runs: runs.value, failedRuns: failedRuns.value, stoppedRuns: stoppedRuns.value,
                checks: checks.map(\.tally), unexpectedFailures: (unexpectedFailures ?? []).map(\.tally),
                outcomes: .init(outcomes.map(\.tally)),
                pitfalls: pitfalls.map { .init(kind: $0.kind.value, rule: Rule(rawValue: $0.rule), runs: $0.runs.value) },
                stepFailures: stepFailures.map { .init(step: $0.step?.value, device: $0.device, code: $0.code, runs: $0.runs.value) },
                failures: failures.map(\.failing))
            report.classes = outcomeClasses.map { .init(session: $0.session, shown: $0.shown.map(\.shown), runs: $0.runs.value,
                                                        agreeing: $0.agreeing.map { $0.fewest.value...$0.most.value }) }
            report.outliers = outliers.map { .init(session: $0.session, device: $0.device, runs: $0.runs.value) }
            // Reports written before conflicts were counted have none.
            if let cloudConflicts {
                report.cloudConflicts = cloudConflicts.writes.value
                report.conflictRuns = cloudConflicts.runs.value
                report.mostConflicts = cloudConflicts.most.value
            }
            report.interrupted = interrupted ?? false
            report.memoryStop = memoryStop.map { .init(budget: $0.budget.value, held: $0.held.value) }
            if let search {
                guard let known = ExplorationReport.Search(rawValue: search) else {
                    throw .invalidReport("the report: \"search\" must be \"optimal\", \"every-alternative\" or \"factored\", "
                        + "not \"\(search)\"")
                }
                report.search = known
            }
            report.factoring = factoring.map {
                .init(devices: $0.devices, dependentOrders: $0.dependentOrders.value, largestFactor: $0.largestFactor.value,
                      fallback: $0.fallback, unfactored: $0.unfactored ?? [])
            }
            return report
        }
    }
}
