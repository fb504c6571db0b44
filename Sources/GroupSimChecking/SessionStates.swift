import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// What each device would show for a session if the user tapped it now: the state in
/// the live bubble's URL (`message`), or the cloud record it points to (cloud modes, M13).
final class SessionStates: Sendable {
    struct Shown: Equatable {
        var state: StateMap
        var provenance: Provenance
        /// The live bubble's message and sender, for explanations.
        var message: Int
        var sender: String
        /// Why the state could not be read (the cloud modes: the URL names no record, or
        /// the store has none by that name); nil when `state` is what the device shows.
        var unreadable: String? = nil
        /// Whether `state` is the record the device's app fetched when its user tapped the
        /// live bubble (M13, M21), rather than what a tap would fetch now.
        var fetched = false
        /// For a fetched record, the store's record now: what the next tap reads. A change
        /// it holds is not lost on the device, only not read yet.
        var store: Record? = nil

        struct Record: Equatable {
            var state: StateMap
            var provenance: Provenance
        }

        /// What a check compares: the state, or that it could not be read.
        var reading: Reading { unreadable == nil ? .state(state) : .unreadable }
    }

    /// What a device gives a check that reads its state: no bubble of the session, a
    /// bubble whose state could not be read, or the state. Only the last is evidence.
    enum Reading: Hashable {
        case noBubble
        case unreadable
        case state(StateMap)

        init(_ shown: Shown?) { self = shown?.reading ?? .noBubble }

        var isState: Bool {
            if case .state = self { return true }
            return false
        }
    }

    let outcome: RunOutcome
    /// Built once per run so that every question below costs a look-up, not a scan of
    /// every device, member or record: checking every session on every device stays
    /// linear in what the devices show.
    /// By the conversations of `outcome.members` (the first of a name), numbered in that
    /// order, their app devices; by session (index in `sessions`), its conversation's name.
    /// Names are told apart by comparing while they are few (`FewKeys`), not by hashing
    /// each in every run.
    private let memberConversations: FewKeys<String>
    private let appDevicesByConversation: [[Int]]
    private let conversationBySession: [String?]
    private let cloudByKey: [String: Int]
    /// Every session name in the order it first appears: in changes, then on devices.
    let sessions: [String]
    private let indexBySession: FewKeys<String>
    /// By index in `sessions`, the run's changes of the session (positions in
    /// `outcome.changes`), in the order made; none for a session that only devices show.
    private let changesBySession: [[Int]]
    /// Each session's key in the run's `LiveBubbles`, by index in `sessions` (-1: none).
    private let keys: [Int]
    /// The scenario's `join` steps, in file order: most scenarios have none, and then no
    /// device is asked whether it joined late (`joinedAfterStart`).
    private let joinSteps: [Scenario.Step]

    init(outcome: RunOutcome) {
        // Read where the steps lie: `Scenario.steps` joins every race's steps into a new array.
        var joins: [Scenario.Step] = []
        for item in outcome.scenario.timeline {
            switch item {
            case .step(let step): if case .join = step.action { joins.append(step) }
            case .race(let race): for step in race.steps { if case .join = step.action { joins.append(step) } }
            }
        }
        joinSteps = joins
        var memberConversations = FewKeys<String>()
        var appDevices: [[Int]] = []
        for entry in outcome.members where memberConversations.insert(entry.conversation).inserted {
            let members = entry.members
            // People usually come in the members' order: each is first looked for where the
            // last one was found; else in the list while it is short, and by a set made once
            // for a long one (the 96-device vote's 32 members hashed twice per run).
            var next = 0
            var many: Set<String>?
            func isMember(_ person: String) -> Bool {
                if next < members.count, members[next] == person {
                    next += 1
                    return true
                }
                guard members.count > 16 else { return members.contains(person) }
                let set = many ?? Set(members)
                many = set
                return set.contains(person)
            }
            // A person's devices come one after another: their person is looked up once.
            var last: (person: String, member: Bool)?
            appDevices.append(outcome.devices.indices.filter { index in
                let device = outcome.devices[index]
                guard device.runsApp else { return false }
                if let last, last.person == device.person { return last.member }
                last = (device.person, isMember(device.person))
                return last?.member ?? false
            })
        }
        self.memberConversations = memberConversations
        appDevicesByConversation = appDevices
        var index = FewKeys<String>()
        var changes: [[Int]] = []
        for (position, change) in outcome.changes.enumerated() {
            let session = index.insert(change.session).number
            if session == changes.count { changes.append([position]) } else { changes[session].append(position) }
        }
        changesBySession = changes
        var cloud: [String: Int] = [:]
        for (index, entry) in outcome.cloud.enumerated() where cloud[entry.key] == nil { cloud[entry.key] = index }
        cloudByKey = cloud
        let live = outcome.live
        // Most runs show only sessions a change names: the others are listed as the devices
        // list them, which only then are read.
        if index.keys.lazy.filter({ live.key(of: $0).map(live.isShown(key:)) == true }).count < live.shownSessionCount {
            for device in outcome.devices.indices { live.shown(device: device).forEach { _ = index.insert($0.session) } }
        }
        keys = index.keys.map { live.key(of: $0) ?? -1 }
        let specs = outcome.scenario.conversations
        conversationBySession = keys.map { key in
            guard key >= 0, let conversation = live.conversation(ofKey: key), specs.indices.contains(conversation) else { return nil }
            return specs[conversation].name
        }
        sessions = index.keys
        indexBySession = index
        // Last, so that the outcome moves here: kept before the reads above, it was copied.
        self.outcome = outcome
    }

    /// The positions in `outcome.changes` of the session's changes (by index in `sessions`), in the order made.
    func changes(ofSession index: Int) -> [Int] { changesBySession.indices.contains(index) ? changesBySession[index] : [] }

    /// Whether the scenario has a `join` step: without one no device joined late.
    var hasJoinSteps: Bool { !joinSteps.isEmpty }

    /// The session's index in `sessions`; nil for a session no change names and no device shows.
    func sessionIndex(_ name: String) -> Int? { indexBySession.number(of: name) }

    /// The devices that run the app and belong to the session's conversation at the end,
    /// in the scenario's order.
    func appDevices(for session: String) -> [DeviceSnapshot] {
        appDeviceIndices(for: session).map { outcome.devices[$0] }
    }

    /// The same, as indices into `outcome.devices`.
    func appDeviceIndices(for session: String) -> [Int] {
        memberConversations.number(of: conversation(of: session)).map { appDevicesByConversation[$0] } ?? []
    }

    /// The conversation a session lives in: where any device shows it, else the first.
    func conversation(of session: String) -> String {
        indexBySession.number(of: session).flatMap { conversationBySession[$0] }
            ?? outcome.scenario.conversations.first?.name ?? Scenario.ConversationSpec.defaultName
    }

    /// nil when the device shows no bubble of the session.
    func shown(_ session: String, on device: DeviceSnapshot) -> Shown? {
        if let index = indexBySession.number(of: session), let position = deviceIndex(of: device) {
            return shown(session: index, device: position)
        }
        // A snapshot that is not one of this run's, as it stands: read its own views.
        guard let view = device.session(session) else { return nil }
        return shown(session, state: view.urlState, provenance: view.provenance, message: view.message, sender: view.senderPerson,
                     device: nil)
    }

    /// `shown(_:on:)` by position: `session` indexes `sessions`, `device` `outcome.devices`.
    func shown(session: Int, device: Int) -> Shown? {
        guard let message = liveMessage(session: session, device: device), let envelope = outcome.live.envelope(of: message) else {
            return nil
        }
        return shown(sessions[session], state: envelope.state, provenance: envelope.provenance, message: envelope.id,
                     sender: envelope.senderPerson, device: device)
    }

    /// Whether `outcome.devices[device]`, showing no bubble of the session, is the device
    /// of a person who joined the session's conversation (a `join` step) no earlier than
    /// the session's first message was sent: new members receive no history (M6), so the
    /// device never had the session, and nothing was lost there. Reads the steps and the
    /// run's ledger, never the trace, so that exploration judges it alike.
    func joinedAfterStart(_ session: String, device: Int) -> Bool {
        guard !joinSteps.isEmpty, outcome.devices.indices.contains(device), liveMessage(session, device: device) == nil else { return false }
        let person = outcome.devices[device].person
        let conversation = conversation(of: session)
        let specs = outcome.scenario.conversations
        guard let spec = specs.first(where: { $0.name == conversation }), !spec.members.contains(person) else { return false }
        // The first join of the person there that ran.
        let joins = joinSteps.lazy.filter { step in
            step.action == .join(person: person) && (step.conversation ?? specs.first?.name) == conversation
        }
        guard let joined = joins.compactMap({ self.outcome.ledger.start(ofStep: $0.number) }).first else { return false }
        let began = outcome.changes.lazy.filter { $0.session == session }
            .compactMap { self.outcome.ledger.carrier(device: $0.device, session: session, step: $0.step)?.time }.min()
        guard let began else { return false }
        return began <= joined
    }

    /// `joinedAfterStart(_:device:)` for a snapshot of this run.
    func joinedAfterStart(_ session: String, on device: DeviceSnapshot) -> Bool {
        deviceIndex(of: device).map { joinedAfterStart(session, device: $0) } ?? false
    }

    /// The message of the live bubble `outcome.devices[device]` shows for the session, if any:
    /// what it shows depends on nothing else, so a reader can work that out once per message.
    func liveMessage(_ session: String, device: Int) -> Int? {
        indexBySession.number(of: session).flatMap { liveMessage(session: $0, device: device) }
    }

    /// `liveMessage(_:device:)` with the session by its index in `sessions`: a caller that
    /// asks about every device of a session finds the session's name once.
    func liveMessage(session index: Int, device: Int) -> Int? {
        guard outcome.devices.indices.contains(device), sessions.indices.contains(index) else { return nil }
        return keys[index] < 0 ? nil : outcome.live.message(device: device, key: keys[index])
    }

    /// What `devices` (indices into `outcome.devices`) show for the session, worked out once
    /// per live bubble's message: what a device shows depends on nothing else. `of[i]` is
    /// the index in `distinct` of what `devices[i]` shows (nil: no bubble); `distinct` is
    /// in the order of the first device showing each.
    struct ByMessage {
        var of: [Int]
        var distinct: [Shown?]
    }

    /// The devices that run the app in the session's conversation (`appDeviceIndices(for:)`)
    /// and what they show (`byMessage(session:devices:)`).
    struct AppDevicesShow {
        var devices: [Int]
        var byMessage: ByMessage

        /// The same without `removed` (indices into `outcome.devices`); `distinct` keeps
        /// its order, so what a device shows still groups as before.
        func without(_ removed: [Int]) -> AppDevicesShow {
            var kept = AppDevicesShow(devices: [], byMessage: ByMessage(of: [], distinct: byMessage.distinct))
            for (device, which) in zip(devices, byMessage.of) where !removed.contains(device) {
                kept.devices.append(device)
                kept.byMessage.of.append(which)
            }
            return kept
        }
    }

    func shownOnAppDevices(_ session: String) -> AppDevicesShow {
        let devices = appDeviceIndices(for: session)
        return AppDevicesShow(devices: devices, byMessage: byMessage(session: session, devices: devices))
    }

    private func byMessage(session: String, devices: [Int]) -> ByMessage {
        var result = ByMessage(of: [], distinct: [])
        result.of.reserveCapacity(devices.count)
        let index = indexBySession.number(of: session)
        // By message number + 1 (0: no bubble): the index in `distinct`. The few distinct
        // messages of a session are searched in a short list, and found by hash past 16: a
        // table by message number would cost every session the run's whole message count.
        var known: [(slot: Int, index: Int)] = []
        var table: [Int: Int]?
        // Devices next to each other mostly show the same message: the last one found is
        // tried first. Whether a tap fetched is asked once, not per device.
        var last = (slot: -1, index: 0)
        let fetched = outcome.ledger.hasFetchedViews
        for device in devices {
            if fetched, let index, showsFetchedView(session: index, device: device) {
                // What it fetched is its own: shared with no other device showing the message.
                result.distinct.append(shown(session: index, device: device))
                result.of.append(result.distinct.count - 1)
                continue
            }
            let slot = max(0, (index.flatMap { liveMessage(session: $0, device: device) } ?? -1) + 1)
            if slot == last.slot {
                result.of.append(last.index)
                continue
            }
            if let found = table != nil ? table?[slot] : known.first(where: { $0.slot == slot })?.index {
                result.of.append(found)
                last = (slot, found)
                continue
            }
            result.distinct.append(slot == 0 ? nil : index.flatMap { shown(session: $0, device: device) })
            let added = result.distinct.count - 1
            if table != nil {
                table?[slot] = added
            } else {
                known.append((slot, added))
                if known.count > 16 { table = Dictionary(uniqueKeysWithValues: known.map { ($0.slot, $0.index) }) }
            }
            result.of.append(added)
            last = (slot, added)
        }
        return result
    }

    /// The device's position in `outcome.devices` when it is that snapshot, unchanged.
    private func deviceIndex(of device: DeviceSnapshot) -> Int? {
        let index = device.runIndex
        guard outcome.devices.indices.contains(index), outcome.devices[index].isSame(as: device) else {
            return outcome.devices.firstIndex { $0.isSame(as: device) }
        }
        return index
    }

    /// Whether `outcome.devices[device]` shows for the session (by index in `sessions`) the
    /// record its app fetched on a tap (`Shown.fetched`): then what it shows is its own, not
    /// its live bubble's alone. Costs nothing in a run where no tap fetched.
    func showsFetchedView(session index: Int, device: Int) -> Bool {
        outcome.ledger.hasFetchedViews && shown(session: index, device: device)?.fetched == true
    }

    /// What tapping a live bubble shows: its URL's state, or the cloud record it points to.
    /// In the cloud modes a device (by index in `outcome.devices`) whose app fetched the
    /// record while that bubble was selected shows what the fetch answered, which may be
    /// older than the store's record now: a tap reads the cloud once (M13, M21).
    private func shown(_ session: String, state: StateMap, provenance: Provenance, message: Int, sender: String, device: Int?) -> Shown {
        switch outcome.scenario.app.state {
        case .message:
            return Shown(state: state, provenance: provenance, message: message, sender: sender)
        case .cloudOverwrite, .cloudMerge, .cloudCAS:
            let recordKey = outcome.scenario.app.recordKey
            guard let key = state[recordKey] else {
                return Shown(state: StateMap(), provenance: Provenance(), message: message, sender: sender,
                             unreadable: Self.noRecordKey(recordKey, in: state))
            }
            if let device, let view = outcome.ledger.view(device: device, key: key), view.message == message {
                guard let fetched = view.state else {
                    return Shown(state: StateMap(), provenance: Provenance(), message: message, sender: sender,
                                 unreadable: "the cloud store had no record named \"\(key)\" when the tap fetched it (the bubble's "
                                     + "`\(recordKey)` item)", fetched: true)
                }
                let now = cloudByKey[key].map { Shown.Record(state: outcome.cloud[$0].state, provenance: outcome.cloud[$0].provenance) }
                return Shown(state: fetched, provenance: view.provenance, message: message, sender: sender, fetched: true, store: now)
            }
            guard let index = cloudByKey[key] else {
                return Shown(state: StateMap(), provenance: Provenance(), message: message, sender: sender,
                             unreadable: "the cloud store has no record named \"\(key)\" (the bubble's `\(recordKey)` item)")
            }
            let entry = outcome.cloud[index]
            return Shown(state: entry.state, provenance: entry.provenance, message: message, sender: sender)
        }
    }

    /// Why a bubble whose URL has no `recordKey` item names no record, with the items it
    /// has: one of them is likely the record's name.
    private static func noRecordKey(_ recordKey: String, in state: StateMap) -> String {
        var names: [String] = []
        for entry in state.entries where names.last != entry.key { names.append(entry.key) }
        let items = names.isEmpty ? "it has no query items" : "its items are " + names.map { "`\($0)`" }.joined(separator: ", ")
        return "the bubble's URL has no `\(recordKey)` item to name its cloud record (\(items); set app.record-key)"
    }
}
