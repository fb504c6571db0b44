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
    var shown: [(slot: Slot, shown: ExplorationReport.Shown)]
    /// The same rows as slots and numbers: row `i` showed `shownValues[rowValues[i]]`, each
    /// distinct thing a session's devices showed listed once.
    var rowSlots: [Slot]
    var rowValues: [Int32]
    var shownValues: [ExplorationReport.Shown]
    /// Distinct kinds, sorted, each with the rule its first report cited.
    var pitfalls: [(kind: PitfallKind, rule: Rule)]
    /// Distinct, in the order they happened.
    var stepFailures: [StepFailureKey]
    /// The failed steps no `error:` check expects: each fails the run.
    var unexpected: [StepFailureKey]
    /// The line of each one's step in the scenario file.
    var unexpectedLines: [StepFailureKey: Int] = [:]
    /// Per session (in the order of `shown`'s first device, then others by name): its
    /// outcome class in this run.
    var classes: [SessionClass]
    /// For exhaustive exploration: the order, event by event.
    var schedule: [String]
    /// Conditional writes the store refused in this run (M13).
    var cloudConflicts: Int

    /// What one session's devices showed in one run.
    struct SessionClass: Sendable {
        var session: String
        /// The distinct things shown, sorted.
        var shown: [ExplorationReport.Shown]
        /// How many devices showed the most common thing.
        var agreeing: Int
        /// The devices that showed something else, in device order.
        var outliers: [String]
    }

    /// - Parameter sessions: the scenario's sessions in the order its steps name them;
    ///   every device gets a row for each (a device that shows none counts as "no bubble").
    init(reference: ExplorationReport.RunReference, report: RunReport, sessions: [String], schedule: [String] = []) {
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
        var contactNames: [String: String] = [:]
        for person in outcome.scenario.people where contactNames[person.key] == nil { contactNames[person.key] = person.contactName }
        // What a device shows for a session depends only on the live bubble's message (its
        // state, or the record its state points to): each message's row is made once per
        // session and shared by every device that shows it.
        var outcomes = SessionOutcomes(sessions)
        var rows: [(slot: Slot, shown: ExplorationReport.Shown)] = []
        rows.reserveCapacity(outcome.devices.count * max(1, sessions.count))
        var rowClasses: [(session: Int, shown: Int)] = []
        rowClasses.reserveCapacity(rows.capacity)
        for (position, device) in outcome.devices.enumerated() {
            let table = device.sessionTable
            var extra: [String] = []
            for position in 0..<table.count where !outcomes.isNamed(table.name(at: position)) {
                extra.append(table.name(at: position))
            }
            for session in sessions + extra.sorted() {
                let (index, shown) = outcomes.row(session, message: states.liveMessage(session, device: position)) {
                    let seen = states.shown(session, on: device)
                    return ExplorationReport.Shown(from: seen?.sender, fromName: seen.map { contactNames[$0.sender] ?? $0.sender },
                                                   state: Self.canonical(seen?.state ?? StateMap(), names: names, keys: keys))
                }
                rows.append((Slot(device: device.name, session: session), outcomes.sessions[index].shown[shown]))
                rowClasses.append((index, shown))
            }
        }
        shown = rows
        classes = outcomes.classes(rows: rows, rowClasses: rowClasses)
        rowSlots = rows.map(\.slot)
        var offsets: [Int] = []
        shownValues = []
        for session in outcomes.sessions {
            offsets.append(shownValues.count)
            shownValues += session.shown
        }
        rowValues = rowClasses.map { Int32(offsets[$0.session] + $0.shown) }
        var kinds: [(kind: PitfallKind, rule: Rule)] = []
        var kindsSeen: Set<PitfallKind> = []
        for pitfall in report.pitfalls where kindsSeen.insert(pitfall.kind).inserted {
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

    /// The distinct things each session's devices show in one run, found as the rows are
    /// made: a row costs an array read when its message was seen before, a hash of what is
    /// shown only for a new message.
    struct SessionOutcomes {
        struct Session {
            var name: String
            /// Distinct things shown, in the order first seen, and how many rows showed each.
            var shown: [ExplorationReport.Shown] = []
            var counts: [Int] = []
            /// By message number + 1 (0: no bubble): the index in `shown`, or -1.
            var byMessage: [Int32] = []
            var byShown: [ExplorationReport.Shown: Int] = [:]
        }

        private(set) var sessions: [Session]
        private var indexByName: [String: Int] = [:]
        /// How many sessions the scenario's steps name: the first ones.
        private let named: Int

        init(_ named: [String]) {
            sessions = named.map { Session(name: $0) }
            self.named = named.count
            for (index, name) in named.enumerated() where indexByName[name] == nil { indexByName[name] = index }
        }

        /// Whether the scenario's steps name the session (every device gets a row for it).
        func isNamed(_ name: String) -> Bool { indexByName[name].map { $0 < named } ?? false }

        /// The session's index and the index of what the row shows; `make` runs once per
        /// session and message.
        mutating func row(_ session: String, message: Int?, make: () -> ExplorationReport.Shown) -> (Int, Int) {
            let index: Int
            if let known = indexByName[session] {
                index = known
            } else {
                index = sessions.count
                indexByName[session] = index
                sessions.append(Session(name: session))
            }
            let slot = (message ?? -1) + 1
            if slot >= 0, slot < sessions[index].byMessage.count, sessions[index].byMessage[slot] >= 0 {
                let shown = Int(sessions[index].byMessage[slot])
                sessions[index].counts[shown] += 1
                return (index, shown)
            }
            let value = make()
            let shown: Int
            if let known = sessions[index].byShown[value] {
                shown = known
            } else {
                shown = sessions[index].shown.count
                sessions[index].shown.append(value)
                sessions[index].counts.append(0)
                sessions[index].byShown[value] = shown
            }
            sessions[index].counts[shown] += 1
            if slot >= 0 {
                if slot >= sessions[index].byMessage.count {
                    sessions[index].byMessage.append(contentsOf: repeatElement(-1, count: slot + 1 - sessions[index].byMessage.count))
                }
                sessions[index].byMessage[slot] = Int32(shown)
            }
            return (index, shown)
        }

        /// Each session's class, in the order the rows first show it: the distinct things
        /// shown, sorted; how many devices showed the most common one (ties: the first in
        /// `Shown`'s order); the devices that showed something else, in row order.
        func classes(rows: [(slot: Slot, shown: ExplorationReport.Shown)], rowClasses: [(session: Int, shown: Int)]) -> [SessionClass] {
            var order: [Int] = []
            var position = [Int](repeating: -1, count: sessions.count)
            for row in rowClasses where position[row.session] < 0 {
                position[row.session] = order.count
                order.append(row.session)
            }
            var majority = [Int](repeating: -1, count: sessions.count)
            var result: [SessionClass] = order.map { index in
                let session = sessions[index]
                var most = -1
                for candidate in session.shown.indices {
                    guard most >= 0 else { most = candidate; continue }
                    if session.counts[candidate] > session.counts[most]
                        || (session.counts[candidate] == session.counts[most] && session.shown[candidate] < session.shown[most]) {
                        most = candidate
                    }
                }
                majority[index] = most
                return SessionClass(session: session.name, shown: session.shown.sorted(), agreeing: most >= 0 ? session.counts[most] : 0,
                                    outliers: [])
            }
            for (row, entry) in zip(rows, rowClasses) where entry.shown != majority[entry.session] {
                result[position[entry.session]].outliers.append(row.slot.device)
            }
            return result
        }
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
        let state = keys.isEmpty ? state : StateMap(state.entries.map { DataEntry(keys[$0.key] ?? $0.key, keys[$0.value] ?? $0.value) })
        guard state.entries.contains(where: { $0.key.utf8.count >= 36 || $0.value.utf8.count >= 36 }) else { return state }
        func rewrite(_ text: String) -> String {
            var result = text
            for id in ParticipantID.occurrences(in: text) {
                let name = names[id] ?? "<unknown id>"
                result = result.replacing(id.uuidString, with: name).replacing(id.uuidString.lowercased(), with: name)
            }
            return result
        }
        return StateMap(state.entries.map { DataEntry(rewrite($0.key), rewrite($0.value)) })
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
