import GroupSimCore

/// Every device's live bubble of each session in each conversation (M10: a session's
/// newest bubble there), with the summary lines the session left there: what each device
/// shows. Written only by the device call that adds a bubble to a transcript
/// (`DeviceCall.add`), an array write per copy; read by `SessionStates`, the snapshots'
/// sessions and, through them, the checks and pitfalls. Old systems draw no bubbles (M26).
///
/// A session a step names is keyed by its number in the run, one an app named by the next
/// key at its first bubble; a conversation by its position, one that is not the scenario's
/// likewise. So the table holds every bubble at any size, each row as long as the highest
/// key it holds.
package struct LiveBubbles: Sendable {
    /// One live bubble (`message` -1: none) and when it was added, run-wide: a transcript
    /// keeps its live bubbles in the order they were added.
    private struct Bubble {
        var message: Int32 = -1
        var summaries: Int32 = 0
        var order: Int32 = -1
    }

    /// A device's live bubble of a session, as its snapshot lists them.
    package struct Shown: Sendable {
        /// The conversation's position in the scenario's.
        package var conversation: Int
        package var session: String
        package var envelope: Envelope
        /// Every summary line the session left in the conversation (M10).
        package var summaries: Int
    }

    private let devices: Int
    private let scenarioConversations: Int
    /// A row per conversation, at `key * devices + device`: by session first, so the
    /// copies of one message, which arrive close together, write close together.
    private var rows: [[Bubble]]
    /// The row of the first conversation (key 0), kept out of `rows` (whose first row stays
    /// empty): a copy in a one-conversation run writes it without reaching `rows`' storage
    /// (and checking that it is unique) first.
    private var firstRow: [Bubble] = []
    /// Each conversation's key by name: the scenario's their position, any other one past them.
    private var conversationKeys: [String: Int]
    private let numbered: Int
    private var sessionKeys: [String: Int]
    private var sessionNames: [String]
    /// Per session key: the first device (in the scenario's order) showing a bubble of it
    /// in a scenario conversation, and its first such conversation, as a device lists its
    /// sessions; `Int32.max` while none. A bubble, once shown, stays (M10).
    private var firstShower: [(device: Int32, conversation: Int32)] = []
    private var added: Int32 = 0
    /// The app messages by number, as they were first added.
    private var messages: [Envelope?] = []
    /// How many session keys some device shows in a scenario conversation.
    package private(set) var shownSessionCount = 0

    package init(tables: ScenarioTables) {
        devices = tables.scenario.devices.count
        scenarioConversations = tables.scenario.conversations.count
        rows = Array(repeating: [], count: scenarioConversations)
        conversationKeys = tables.conversationNumbers
        numbered = tables.sessionNumbers.count
        sessionKeys = tables.sessionNumbers
        var names = Array(repeating: "", count: numbered)
        for (name, number) in tables.sessionNumbers where names.indices.contains(number) { names[number] = name }
        sessionNames = names
    }

    /// The table of a run that never ran: nothing shown.
    package init() {
        devices = 0
        scenarioConversations = 0
        rows = []
        conversationKeys = [:]
        numbered = 0
        sessionKeys = [:]
        sessionNames = []
    }

    /// Forgets the run, keeping the room its rows took.
    mutating func reset() {
        rows.removeLast(rows.count - scenarioConversations)
        for index in rows.indices { rows[index].removeAll(keepingCapacity: true) }
        firstRow.removeAll(keepingCapacity: true)
        if conversationKeys.count > scenarioConversations { conversationKeys = conversationKeys.filter { $0.value < scenarioConversations } }
        if sessionNames.count > numbered {
            sessionKeys = sessionKeys.filter { $0.value < numbered }
            sessionNames.removeLast(sessionNames.count - numbered)
        }
        firstShower.removeAll(keepingCapacity: true)
        added = 0
        messages.removeAll(keepingCapacity: true)
        shownSessionCount = 0
    }

    // MARK: - Written by the device call

    /// `envelope` became its session's live bubble on device `device` (M10), collapsing the
    /// previous one, which left a summary line when `leftSummary`.
    mutating func add(_ envelope: Envelope, on device: Int, leftSummary: Bool) {
        guard device >= 0, device < devices else { return }
        // The number the message carries is read first: the name only when it has none.
        var key = envelope.sessionNumber
        if key < 0 || key >= numbered {
            guard let session = envelope.sessionName else { return }
            key = self.key(session)
        }
        var conversation = envelope.conversationNumber
        if conversation < 0 || conversation >= scenarioConversations {
            conversation = conversationKeys[envelope.conversation] ?? rows.count
            if conversation >= rows.count {
                conversationKeys[envelope.conversation] = conversation
                rows.append([])
            }
        }
        let id = envelope.id
        if id >= 0, id >= messages.count || messages[id] == nil {
            messages.grow(toInclude: id, with: nil)
            messages[id] = envelope
        }
        // The row is reached once, and changed where it lies.
        let room = (scenarioConversations == 1 ? max(numbered, key + 1) : key + 1) * devices
        let isNew = conversation == 0
            ? Self.write(&firstRow, at: key * devices + device, message: id, order: added, leftSummary: leftSummary, room: room)
            : Self.write(&rows[conversation], at: key * devices + device, message: id, order: added, leftSummary: leftSummary, room: room)
        added &+= 1
        guard isNew, conversation < scenarioConversations else { return }
        firstShower.grow(toInclude: key, with: (Int32.max, Int32.max))
        let (first, firstConversation) = firstShower[key]
        if first == Int32.max { shownSessionCount += 1 }
        if Int32(device) < first || (Int32(device) == first && Int32(conversation) < firstConversation) {
            firstShower[key] = (Int32(device), Int32(conversation))
        }
    }

    /// Writes a live bubble into its row, made `room` long at its first; true when the row had none of the session.
    private static func write(_ row: inout [Bubble], at index: Int, message: Int, order: Int32, leftSummary: Bool, room: Int) -> Bool {
        if row.isEmpty { row.reserveCapacity(room) }
        row.grow(toInclude: index, with: Bubble())
        let isNew = row[index].message < 0
        row[index].message = Int32(truncatingIfNeeded: message)
        row[index].order = order
        if leftSummary { row[index].summaries += 1 }
        return isNew
    }

    /// The session's key, given one now if it has none.
    private mutating func key(_ session: String) -> Int {
        if let known = sessionKeys[session] { return known }
        sessionKeys[session] = sessionNames.count
        sessionNames.append(session)
        return sessionNames.count - 1
    }

    // MARK: - Read

    /// The session's key; nil for one no step names and no device shows.
    package func key(of session: String) -> Int? { sessionKeys[session] }

    /// The session of `key`.
    package func session(ofKey key: Int) -> String { sessionNames[key] }

    /// Whether a device shows a bubble of the session keyed `key` in a scenario conversation.
    package func isShown(key: Int) -> Bool { firstShower.indices.contains(key) && firstShower[key].device != Int32.max }

    /// The scenario conversation (by position) of the first bubble of session `key` a
    /// device lists: on the first device showing one, its first conversation. Nil: none shown.
    package func conversation(ofKey key: Int) -> Int? { isShown(key: key) ? Int(firstShower[key].conversation) : nil }

    /// The message of the device's live bubble of session `key` in the first scenario
    /// conversation it shows one in, as its snapshot lists them first; nil when none.
    package func message(device: Int, key: Int) -> Int? { first(device: device, key: key).map { Int($0.bubble.message) } }

    /// The device's first live bubble of `session`, as `shown(device:)` lists them; nil when none.
    package func first(device: Int, session: String) -> Shown? {
        guard let key = sessionKeys[session], let (conversation, bubble) = first(device: device, key: key),
              let envelope = envelope(of: Int(bubble.message)) else { return nil }
        return Shown(conversation: conversation, session: session, envelope: envelope, summaries: Int(bubble.summaries))
    }

    private func first(device: Int, key: Int) -> (conversation: Int, bubble: Bubble)? {
        guard device >= 0, device < devices, key >= 0 else { return nil }
        for conversation in 0..<scenarioConversations {
            if let bubble = bubble(in: conversation, device: device, key: key) { return (conversation, bubble) }
        }
        return nil
    }

    /// The device's live bubble of session `key` in conversation `conversation` (by key); nil when none.
    @inline(__always)
    private func bubble(in conversation: Int, device: Int, key: Int) -> Bubble? {
        let index = key * devices + device
        return conversation == 0 ? Self.bubble(in: firstRow, at: index) : Self.bubble(in: rows[conversation], at: index)
    }

    @inline(__always)
    private static func bubble(in row: [Bubble], at index: Int) -> Bubble? {
        index < row.count && row[index].message >= 0 ? row[index] : nil
    }

    /// The app message numbered `message`, as a live bubble holds it.
    package func envelope(of message: Int) -> Envelope? { messages.indices.contains(message) ? messages[message] : nil }

    /// The device's live bubble of `session` in `conversation` (any conversation).
    /// `number`: the session's number in the scenario's table (`WorldFacts.sessionNumber`)
    /// when the caller has it, -1 when not or when the scenario does not name the session.
    /// Inlined: a device call reads it where the live bubbles lie, and a call kept out of
    /// line copied the whole table (retaining each of its arrays) on every staged message.
    @inline(__always)
    package func envelope(device: Int, conversation: Int, named name: String, session: String, number: Int = -1) -> Envelope? {
        let place = conversation >= 0 && conversation < scenarioConversations ? conversation : conversationKeys[name]
        guard let place, device >= 0, device < devices, let key = number >= 0 && number < numbered ? number : sessionKeys[session] else { return nil }
        return bubble(in: place, device: device, key: key).flatMap { envelope(of: Int($0.message)) }
    }

    /// The session keys the device shows a bubble of in a scenario conversation, with the bubbles.
    private func bubbles(in conversation: Int, device: Int, from first: Int = 0) -> [(key: Int, bubble: Bubble)] {
        let keys = ((conversation == 0 ? firstRow.count : rows[conversation].count) + devices - 1) / max(devices, 1)
        return (min(first, keys)..<keys).compactMap { key in bubble(in: conversation, device: device, key: key).map { (key, $0) } }
    }

    /// Every live bubble the device shows in the scenario's conversations: conversation by
    /// conversation, each in the order its transcript holds them.
    package func shown(device: Int) -> [Shown] {
        guard device >= 0, device < devices else { return [] }
        var all: [Shown] = []
        for conversation in 0..<scenarioConversations {
            for (key, bubble) in bubbles(in: conversation, device: device).sorted(by: { $0.bubble.order < $1.bubble.order }) {
                guard let envelope = envelope(of: Int(bubble.message)) else { continue }
                all.append(Shown(conversation: conversation, session: sessionNames[key], envelope: envelope, summaries: Int(bubble.summaries)))
            }
        }
        return all
    }

    /// The sessions no step names (an app named them) that the device shows, once per
    /// scenario conversation it shows each in.
    package func appNamedSessions(device: Int) -> [String] {
        guard sessionNames.count > numbered, device >= 0, device < devices else { return [] }
        return (0..<scenarioConversations).flatMap { bubbles(in: $0, device: device, from: numbered).map { sessionNames[$0.key] } }
    }
}
