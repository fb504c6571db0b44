import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// One run of an exploration reduced to what the report counts: which checks failed,
/// what every device shows for every session, the pitfall kinds and failed steps.
struct ExploredRun: Sendable {
    /// A device and a session: one row of the outcome distribution.
    struct Slot: Sendable, Hashable {
        var device: String
        var session: String
    }

    /// A failed step, as counted: step number, device and error name.
    struct StepFailureKey: Sendable, Hashable, Comparable {
        var step: Int?
        var device: String
        var code: String

        /// `step 3 on bob-phone failed unexpectedly: noBubble`, as `groupsim run` says it.
        var unexpectedText: String { "step \(step.map(String.init) ?? "-") on \(device) failed unexpectedly: \(code)" }

        static func < (a: Self, b: Self) -> Bool {
            if (a.step ?? Int.max) != (b.step ?? Int.max) { return (a.step ?? Int.max) < (b.step ?? Int.max) }
            if a.device != b.device { return a.device < b.device }
            return a.code < b.code
        }
    }

    var reference: ExplorationReport.RunReference
    var failedChecks: [Int]
    var quiet: Bool
    /// In device order, then session order (the scenario's sessions first, others by name).
    var shown: [(slot: Slot, shown: ExplorationReport.Shown)] { rows.list }
    /// The same rows, a few numbers each: what the tally counts.
    var rows: OutcomeRows
    /// Distinct kinds, sorted, each with the rule its first report cited.
    var pitfalls: [(kind: Scenario.PitfallKind, rule: Rule)]
    /// Distinct, in the order they happened.
    var stepFailures: [StepFailureKey]
    /// The failed steps no `error:` check expects: each fails the run.
    var unexpected: [StepFailureKey]
    /// The line of each one's step in the scenario file.
    var unexpectedLines: [StepFailureKey: Int] = [:]
    /// Per session (in the order of `shown`'s first device, then others by name): its
    /// outcome class in this run.
    var classes: [SessionClass]
    /// For exhaustive exploration: the order, event by event (reported for a failing run only).
    var schedule: [String]
    /// Conditional writes the store refused in this run (M13).
    var cloudConflicts: Int

    /// Whether a check failed or a step failed unexpectedly: the run is a failing run.
    var failed: Bool { !failedChecks.isEmpty || !unexpected.isEmpty }

    /// What one session's devices showed in one run.
    struct SessionClass: Sendable {
        var session: String
        /// The distinct things shown, sorted.
        var shown: [ExplorationReport.Shown]
        /// How many devices showed the most common thing.
        var agreeing: Int
        /// The devices that showed something else, in device order, by number in the
        /// run's `rows.devices` (the tally counts them by number, not by name).
        var outliers: [Int32]
    }

    /// What every run of one scenario names alike: the sessions its steps name (a list and
    /// a set) and each person's contact name. Worked out once for a chunk of runs.
    struct Naming: Sendable {
        let sessions: [String]
        let named: Set<String>
        let contactNames: [String: String]

        init(sessions: [String], scenario: Scenario) {
            self.sessions = sessions
            named = Set(sessions)
            var contactNames: [String: String] = [:]
            for person in scenario.people where contactNames[person.key] == nil { contactNames[person.key] = person.contactName }
            self.contactNames = contactNames
        }
    }

    /// - Parameter sessions: the scenario's sessions in the order its steps name them;
    ///   every device gets a row for each (a device that shows none counts as "no bubble").
    init(reference: ExplorationReport.RunReference, report: RunReport, sessions: [String], schedule: [String] = []) {
        self.init(reference: reference, report: report, naming: Naming(sessions: sessions, scenario: report.outcome.scenario),
                  schedule: schedule)
    }

    /// `naming`: the run's scenario's, as `Naming(sessions:scenario:)` makes it.
    init(reference: ExplorationReport.RunReference, report: RunReport, naming: Naming, schedule: [String] = []) {
        let sessions = naming.sessions
        self.reference = reference
        self.schedule = schedule
        let outcome = report.outcome
        failedChecks = report.checks.indices.filter { !report.checks[$0].passed }
        quiet = outcome.quiet
        cloudConflicts = outcome.cloudConflicts
        let states = report.states
        let names = IdentifierNames(outcome)
        var keys: [String: String] = [:]
        for device in outcome.devices {
            for (generation, install) in device.installIDs.enumerated() {
                keys[install] = generation == 0 ? "<install:\(device.name)>" : "<install \(generation + 1):\(device.name)>"
            }
        }
        if outcome.scenario.app.identity == .account {
            let streams = RandomStreams(seed: outcome.seed)
            for person in outcome.scenario.people { keys[AppIdentity.accountID(streams, person: person.key)] = "<account:\(person.key)>" }
        }
        var rows = OutcomeRows(capacity: outcome.devices.count * sessions.count)
        let named = naming.named
        let numbers = sessions.map { rows.session($0) }
        // Each session's index in `states`, found by name once per run, not once per device.
        let indices = sessions.map(states.sessionIndex)
        let contactNames = naming.contactNames
        // What a device shows for a session depends only on its live bubble's message (its
        // state, or the record that state points to), and a message belongs to one session:
        // each thing shown is made and numbered once per message, found by the message's
        // run-wide number, and once for "no bubble". The table grows with the messages, not
        // with sessions times messages.
        var byMessage: [Int32] = []
        var noBubble: Int32 = -1
        let devices = outcome.devices
        func make(_ session: String, position: Int) -> Int32 {
            let seen = states.shown(session, on: devices[position])
            return rows.number(of: ExplorationReport.Shown(
                from: seen?.sender, fromName: seen.map { contactNames[$0.sender] ?? $0.sender },
                state: Self.canonical(seen?.state ?? StateMap(), names: names, keys: keys)))
        }
        // By position: a device's snapshot is read only for what it shows, once per message.
        func addRow(_ session: String, _ number: Int32, index: Int?, position: Int) {
            let value: Int32
            if let index, let message = states.liveMessage(session: index, device: position), message >= 0,
               !states.showsFetchedView(session: index, device: position) {
                byMessage.grow(toInclude: message, with: -1)
                if byMessage[message] < 0 { byMessage[message] = make(session, position: position) }
                value = byMessage[message]
            } else if let index, states.showsFetchedView(session: index, device: position) {
                // The record its tap fetched (M13): its own, not its bubble's.
                value = make(session, position: position)
            } else {
                if noBubble < 0 { noBubble = make(session, position: position) }
                value = noBubble
            }
            rows.append(session: number, number: value)
        }
        // The common run: no tap fetched a record (M13) and no app named a session, so
        // every device has a row of each named session in order, and what it shows
        // depends on its live bubble's message alone.
        let grid = !outcome.ledger.hasFetchedViews && numbers.elementsEqual(numbers.indices.lazy.map { Int32($0) })
            && !devices.isEmpty && !sessions.isEmpty && devices.indices.allSatisfy { outcome.live.appNamedSessions(device: $0).isEmpty }
        if grid {
            // First each row's live message + 1 (0: no bubble), read a few sessions at a
            // time for every device: the live bubbles lie by session, so reading each
            // device's row of every session in turn reached a new page at every row.
            let width = sessions.count, count = devices.count * width
            var values = [Int32](unsafeUninitializedCapacity: count) { column, initialized in
                for first in stride(from: 0, to: width, by: OutcomeRows.sessionBlock) {
                    let few = min(OutcomeRows.sessionBlock, width - first)
                    for position in devices.indices {
                        let start = position * width + first
                        for place in first..<(first + few) {
                            let message = indices[place].flatMap { states.liveMessage(session: $0, device: position) } ?? -1
                            column[start + place - first] = message >= 0 ? Int32(truncatingIfNeeded: message + 1) : 0
                        }
                    }
                }
                initialized = count
            }
            // Then, in row order, each message's thing shown is made and numbered where
            // the row-by-row pass made it first, so every number stays what it was.
            var byPlace: [Int32] = []
            var index = 0
            for position in devices.indices {
                for session in sessions {
                    let message = Int(values[index])
                    byPlace.grow(toInclude: message, with: -1)
                    if byPlace[message] < 0 { byPlace[message] = make(session, position: position) }
                    values[index] = byPlace[message]
                    index += 1
                }
            }
            rows.fill(devices: devices.map(\.name), values: values)
        }
        for position in devices.indices where !grid {
            rows.startDevice(devices[position].name)
            for (place, session) in sessions.enumerated() {
                addRow(session, numbers[place], index: indices[place], position: position)
            }
            // Sessions no step names, by name: the few an app named itself.
            let appNamed = outcome.live.appNamedSessions(device: position)
            guard !appNamed.isEmpty else { continue }
            for session in appNamed.filter({ !named.contains($0) }).sorted() {
                addRow(session, rows.session(session), index: states.sessionIndex(session), position: position)
            }
        }
        self.rows = rows
        classes = rows.classes
        // A run reports a few kinds: found in the list, without a set made each run.
        var kinds: [(kind: Scenario.PitfallKind, rule: Rule)] = []
        for pitfall in report.pitfalls where !kinds.contains(where: { $0.kind == pitfall.kind }) {
            kinds.append((pitfall.kind, pitfall.rule))
        }
        pitfalls = kinds.sorted { $0.kind < $1.kind }
        var failures: [StepFailureKey] = []
        var counted: Set<StepFailureKey> = []
        for failure in outcome.failures {
            let key = StepFailureKey(step: failure.attributedStep, device: failure.device, code: failure.code.name)
            if counted.insert(key).inserted { failures.append(key) }
        }
        stepFailures = failures
        unexpected = report.unexpectedFailures.map {
            StepFailureKey(step: $0.failure.attributedStep, device: $0.failure.device, code: $0.failure.code.name)
        }
        for (key, failure) in zip(unexpected, report.unexpectedFailures) { unexpectedLines[key] = failure.line }
    }

    /// `state` with every participant UUID in it written as whose identifier it is on
    /// which device (`<carol@carol-phone>`, M1), or `<unknown id>` when no device holds it
    /// now (another device's, M4, or one minted before a reinstall, M2). UUIDs are minted
    /// from each run's seed, so without this every run would look like a new outcome.
    ///
    /// Install ids and account ids (`app.identity`) are minted from the seed too: `keys`
    /// names them (`<install:bob-phone>`, `<account:bob>`).
    /// Every device's identifiers, named `<person@device>`: made the first time a state
    /// holds an identifier, so a run whose states hold none does not name them all.
    final class IdentifierNames {
        private let outcome: RunOutcome
        private var table: [ParticipantID: String]?

        init(_ outcome: RunOutcome) { self.outcome = outcome }

        subscript(id: ParticipantID) -> String? {
            if let table { return table[id] }
            var made: [ParticipantID: String] = [:]
            for device in outcome.devices {
                for entry in device.identifiers { made[entry.id] = "<\(entry.person)@\(device.name)>" }
            }
            table = made
            return made[id]
        }
    }

    static func canonical(_ state: StateMap, names: IdentifierNames, keys: [String: String] = [:]) -> StateMap {
        let state = keys.isEmpty ? state : StateMap(state.entries.map { Scenario.DataEntry(keys[$0.key] ?? $0.key, keys[$0.value] ?? $0.value) })
        guard state.entries.contains(where: { $0.key.utf8.count >= 36 || $0.value.utf8.count >= 36 }) else { return state }
        func rewrite(_ text: String) -> String {
            var result = text
            for id in ParticipantID.occurrences(in: text) {
                let name = names[id] ?? "<unknown id>"
                result = result.replacing(id.uuidString, with: name).replacing(id.uuidString.lowercased(), with: name)
            }
            return result
        }
        return StateMap(state.entries.map { Scenario.DataEntry(rewrite($0.key), rewrite($0.value)) })
    }

    /// The sessions a scenario's steps name, in the order first named: the rows every
    /// run reports, whether or not a device shows the session.
    static func sessions(of scenario: Scenario) -> [String] {
        var names: [String] = []
        var named: Set<String> = []
        for step in scenario.steps {
            if let name = step.action.session, named.insert(name).inserted { names.append(name) }
        }
        return names
    }
}
