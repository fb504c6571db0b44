import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// Reading a report written by `render` back: the text is read once, by `JSONValue.parse`
/// (which says where a broken file stops being UTF-8 or JSON, refuses a duplicate member,
/// and reads counts of any size exactly: an exhaustive exploration counts up to about
/// 10^196 orders), and that value is turned member by member into an `ExplorationReport`.
///
/// The wire format `groupsim-exploration-3`: derived members (`percent`, `passed`,
/// `distinctOutcomes`, `replay`, `reference`, a shard's `missing`) and unknown ones are
/// not read. `interrupted` and `factoring` are written only when they apply;
/// `unexpectedFailures` and `cloudConflicts` are absent from reports written before they
/// were counted. Other formats are refused by their `format`, older ones by name.
extension ExplorationJSONReport {
    /// Reads a report written by `render` back. Throws `ExplorationError.invalidReport`
    /// naming the member that is missing or malformed, and where it is.
    package static func parse(_ text: String) throws(ExplorationError) -> ExplorationReport { try parse(Array(text.utf8)) }

    /// Reads the bytes of a report file; bytes that are not UTF-8 are refused by place.
    package static func parse(_ bytes: [UInt8]) throws(ExplorationError) -> ExplorationReport {
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            throw .invalidReport("not JSON: \(error)")
        }
        let root = Node(value: json, path: [])
        try checkHeader(root)
        return try report(root)
    }

    /// The members read before anything else, so that a report of another format or a
    /// newer version is named as such rather than by its first unexpected member.
    private static func checkHeader(_ root: Node) throws(ExplorationError) {
        let format = try root("format", Node.string)
        let version = try root.optional("version", Node.whole)
        guard format == Self.format else {
            throw .invalidReport(formerFormats.contains(format)
                ? "written by an older groupsim (format \"\(format)\", before reports carried a scenario fingerprint); "
                    + "explore the shards again with groupsim \(GroupSimVersion.current)"
                : "not an exploration report (format \"\(Self.format)\" expected)")
        }
        if let version, version > Self.version {
            throw .invalidReport("written by a newer groupsim (report version \(version); this one reads up to \(Self.version))")
        }
    }

    /// The report: members read in the order `render` writes them, so that of several
    /// faults the first in the file is named.
    private static func report(_ root: Node) throws(ExplorationError) -> ExplorationReport {
        typealias Report = ExplorationReport
        let scenario = try root("scenario", Node.string), file = try root("file", Node.string)
        let fingerprint = try root("fingerprint", Node.string), toolVersion = try root("groupsimVersion", Node.string)
        let modeName = try root("mode", Node.string), seed = try root("seed", Node.seed)
        let requestedRuns = try root.optional("requestedRuns", Node.whole)
        let estimatedOrders = try root.optional("estimatedOrders", Node.whole)
        let simulatedSchedules = try root.optional("simulatedSchedules", Node.whole)
        let search = try root.optional("search", Node.string)
        let factoring = try root.optional("factoring") { (node: Node) throws(ExplorationError) in
            Report.Factoring(devices: try node("devices", Node.strings), dependentOrders: try node("dependentOrders", Node.whole),
                             largestFactor: try node("largestFactor", Node.whole), fallback: try node.optional("fallback", Node.string),
                             unfactored: try node.optional("unfactored", Node.strings) ?? [])
        }
        let shard = try root.optional("shard") { (node: Node) throws(ExplorationError) in
            Report.ShardCoverage(count: try node("count", Node.whole), indices: try node.list("indices", Node.whole))
        }
        let interrupted = try root.optional("interrupted", Node.bool)
        let memoryStop = try root.optional("memoryStop") { (node: Node) throws(ExplorationError) in
            Report.MemoryStop(budget: try node("budget", Node.whole), held: try node("held", Node.whole))
        }
        let runs = try root("runs", Node.count), failedRuns = try root("failedRuns", Node.count)
        let stoppedRuns = try root("stoppedRuns", Node.count)
        let devices = try root("devices", Node.strings), sessions = try root("sessions", Node.strings)
        let checks = try root.list("checks", checkTally)
        let unexpected = try root.optionalList("unexpectedFailures", checkTally)
        let outcomes = try root.list("outcomes") { (node: Node) throws(ExplorationError) in
            Report.OutcomeTally(device: try node("device", Node.string), session: try node("session", Node.string),
                                counts: try node.list("counts") { (count: Node) throws(ExplorationError) in
                                    Report.OutcomeCount(shown: try shown(count), runs: try count("runs", Node.count))
                                })
        }
        let pitfalls = try root.list("pitfalls") { (node: Node) throws(ExplorationError) in
            Report.PitfallTally(kind: try node("kind", Node.pitfallKind), rule: Rule(rawValue: try node("rule", Node.string)),
                                runs: try node("runs", Node.count))
        }
        let conflicts = try root.optional("cloudConflicts") { (node: Node) throws(ExplorationError) in
            (writes: try node("writes", Node.count), runs: try node("runs", Node.count), most: try node("most", Node.whole))
        }
        let stepFailures = try root.list("stepFailures") { (node: Node) throws(ExplorationError) in
            Report.StepFailureTally(step: try node.optional("step", Node.whole), device: try node("device", Node.string),
                                    code: try node("code", Node.string), runs: try node("runs", Node.count))
        }
        let failures = try root.list("failures") { (node: Node) throws(ExplorationError) in
            Report.FailingRun(reference: try reference(node), failedChecks: try node.list("failedChecks", Node.whole),
                              unexpected: try node.optional("unexpectedFailures", Node.strings) ?? [],
                              schedule: try node.optional("schedule", Node.strings) ?? [])
        }
        let classes = try root.list("outcomeClasses") { (node: Node) throws(ExplorationError) in
            Report.OutcomeClass(session: try node("session", Node.string), shown: try node.list("shown", shown),
                                runs: try node("runs", Node.count), agreeing: try node.optional("agreeing", agreeing))
        }
        let outliers = try root.list("outliers") { (node: Node) throws(ExplorationError) in
            Report.Outlier(session: try node("session", Node.string), device: try node("device", Node.string),
                           runs: try node("runs", Node.count))
        }

        func present(_ number: Int?, _ name: String) throws(ExplorationError) -> Int {
            guard let number else { throw .invalidReport("the report: \"\(name)\" is missing") }
            return number
        }
        let mode: Report.Mode
        switch modeName {
        case "random": mode = .random(seed: seed, requested: try present(requestedRuns, "requestedRuns"))
        case "exhaustive":
            mode = .exhaustive(seed: seed, estimate: try present(estimatedOrders, "estimatedOrders"),
                               simulated: try present(simulatedSchedules, "simulatedSchedules"))
        case let other: throw .invalidReport("the report: \"mode\" must be \"random\" or \"exhaustive\", not \"\(other)\"")
        }
        var report = Report(scenario: scenario, file: file, fingerprint: fingerprint, toolVersion: toolVersion, mode: mode,
                            shard: shard, devices: devices, sessions: sessions, runs: runs, failedRuns: failedRuns,
                            stoppedRuns: stoppedRuns, checks: checks, unexpectedFailures: unexpected ?? [], outcomes: .init(outcomes),
                            pitfalls: pitfalls, stepFailures: stepFailures, failures: failures)
        report.classes = classes
        report.outliers = outliers
        // Reports written before conflicts were counted have none.
        if let conflicts {
            (report.cloudConflicts, report.conflictRuns, report.mostConflicts) = (conflicts.writes, conflicts.runs, conflicts.most)
        }
        report.interrupted = interrupted ?? false
        report.memoryStop = memoryStop
        if let search {
            guard let known = Report.Search(rawValue: search) else {
                throw .invalidReport("the report: \"search\" must be \"optimal\", \"every-alternative\" or \"factored\", not \"\(search)\"")
            }
            report.search = known
        }
        report.factoring = factoring
        return report
    }

    private static func reference(_ node: Node) throws(ExplorationError) -> ExplorationReport.RunReference {
        .init(run: try node("run", Node.whole), seed: try node("seed", Node.seed))
    }

    private static func checkTally(_ node: Node) throws(ExplorationError) -> ExplorationReport.CheckTally {
        .init(text: try node("text", Node.string), line: try node.optional("line", Node.whole), failedRuns: try node("failedRuns", Node.count),
              firstFailure: try node.optional("firstFailure", reference))
    }

    /// What a device showed: `from`, `fromName` and `state` of a count or a class.
    private static func shown(_ node: Node) throws(ExplorationError) -> ExplorationReport.Shown {
        .init(from: try node.optional("from", Node.string), fromName: try node.optional("fromName", Node.string),
              state: StateMap(try node("state") { (state: Node) throws(ExplorationError) in try state.members(Node.string) }.map { Scenario.DataEntry($0.0, $0.1) }))
    }

    private static func agreeing(_ node: Node) throws(ExplorationError) -> ClosedRange<Int> {
        let fewest = try node("fewest", Node.whole), most = try node("most", Node.whole)
        guard fewest <= most else { throw node.refused("has fewest above most") }
        return fewest...most
    }
}

/// A value of a report and its place in it (`outcomes[0].counts[1]`), for messages that
/// name the member that is missing or malformed and what was expected.
private struct Node {
    enum Part { case member(String), item(Int) }

    let value: JSONValue
    let path: [Part]

    /// `what` is wrong with this value: `checks[0]: "line" must be ...`, `devices: item 0 ...`.
    func refused(_ what: String) -> ExplorationError {
        guard let last = path.last else { return .invalidReport("the report \(what)") }
        let place = path.dropLast().enumerated().map { offset, step in
            switch step {
            case .member(let name): (offset == 0 ? "" : ".") + name
            case .item(let index): "[\(index)]"
            }
        }.joined()
        let name = switch last {
        case .member(let name): "\"\(name)\""
        case .item(let index): "item \(index)"
        }
        return .invalidReport("\(place.isEmpty ? "the report" : place): \(name) \(what)")
    }

    /// The members of an object, each read by `read`, in file order.
    func members<T>(_ read: (Node) throws(ExplorationError) -> T) throws(ExplorationError) -> [(String, T)] {
        guard case .object(let members) = value else { throw refused("must be an object") }
        var result: [(String, T)] = []
        for (name, member) in members { result.append((name, try read(Node(value: member, path: path + [.member(name)])))) }
        return result
    }

    /// The items of an array, each read by `read`.
    func items<T>(_ read: (Node) throws(ExplorationError) -> T) throws(ExplorationError) -> [T] {
        guard case .array(let items) = value else { throw refused("must be an array") }
        var result: [T] = []
        for (index, item) in items.enumerated() { result.append(try read(Node(value: item, path: path + [.item(index)]))) }
        return result
    }

    /// The member `name` read by `read`; nil when it is absent or null.
    func optional<T>(_ name: String, _ read: (Node) throws(ExplorationError) -> T) throws(ExplorationError) -> T? {
        guard case .object(let members) = value else { throw refused("must be an object") }
        guard let member = members.first(where: { $0.0 == name })?.1 else { return nil }
        if case .null = member { return nil }
        return try read(Node(value: member, path: path + [.member(name)]))
    }

    /// The member `name` read by `read`; refused when it is absent or null.
    func callAsFunction<T>(_ name: String, _ read: (Node) throws(ExplorationError) -> T) throws(ExplorationError) -> T {
        guard let value = try optional(name, read) else { throw Node(value: .null, path: path + [.member(name)]).refused("is missing") }
        return value
    }

    static func string(_ node: Node) throws(ExplorationError) -> String {
        guard case .string(let text) = node.value else { throw node.refused("must be a string") }
        return text
    }

    static func strings(_ node: Node) throws(ExplorationError) -> [String] { try node.items(string) }

    /// The member `name`, an array, with each item read by `read`.
    func list<T>(_ name: String, _ read: (Node) throws(ExplorationError) -> T) throws(ExplorationError) -> [T] {
        try self(name) { (node: Node) throws(ExplorationError) in try node.items(read) }
    }

    func optionalList<T>(_ name: String, _ read: (Node) throws(ExplorationError) -> T) throws(ExplorationError) -> [T]? {
        try optional(name) { (node: Node) throws(ExplorationError) in try node.items(read) }
    }

    static func bool(_ node: Node) throws(ExplorationError) -> Bool {
        guard case .bool(let value) = node.value else { throw node.refused("must be true or false") }
        return value
    }

    /// A whole number of at least 0 that fits in an `Int`.
    static func whole(_ node: Node) throws(ExplorationError) -> Int {
        guard case .int(let number) = node.value, number >= 0, let value = Int(exactly: number) else {
            throw node.refused("must be a whole number of at least 0")
        }
        return value
    }

    /// A count of runs or orders, of any size.
    static func count(_ node: Node) throws(ExplorationError) -> ExactCount {
        if case .count(let count) = node.value { return count }
        return ExactCount(try whole(node))
    }

    /// A seed: all 64 bits, so written as a string of digits.
    static func seed(_ node: Node) throws(ExplorationError) -> UInt64 {
        guard let seed = UInt64(try string(node)) else { throw node.refused("must be a whole number in a string") }
        return seed
    }

    static func pitfallKind(_ node: Node) throws(ExplorationError) -> Scenario.PitfallKind {
        guard let kind = Scenario.PitfallKind(rawValue: try string(node)) else {
            let kinds = Scenario.PitfallKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw node.refused("must be one of \(kinds)")
        }
        return kind
    }
}
