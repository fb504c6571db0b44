import GroupSimCore

/// What the pitfall analysis needs of a run's messages, kept as the events happen, with
/// the trace on or off: when each step began, which message carried each device's change
/// in a session (its first send in that session for that step), when that message
/// reached each device, and each device's live bubble of each session a step names in
/// each conversation.
///
/// Exploration keeps no trace, yet its verdicts must be the ones `groupsim run --seed`
/// gives for the same run: a change overwritten by someone who had seen it is no lost
/// update (M12), and only this record says who had seen it. Each event costs a constant:
/// a step an array write, a send one hash, a delivered copy two array writes.
package struct RunLedger: Sendable, RunPart {
    /// The message that carried one device's change in a session (`carrier(device:session:step:)`).
    package struct Carrier: Sendable, Hashable {
        package var message: Int
        package var time: VirtualTime
        /// Where its row of arrival times starts in `arrivals`, and its conversation (-1:
        /// none of the scenario's, one column per device).
        fileprivate var row: Int
        fileprivate var conversation: Int
    }

    /// A device, a session by its number in the scenario (`ScenarioTables.sessionNumbers`),
    /// and the device's last step when it sent (-1: none yet).
    private struct CarrierKey: Hashable {
        var device: Int
        var session: Int
        var step: Int
    }

    /// The same for a session no step names (an app named it): by name.
    private struct NamedCarrierKey: Hashable {
        var device: Int
        var session: String
        var step: Int
    }

    /// Each device's position in the scenario's devices, and per conversation each device's
    /// column in a row and the row's width (`ScenarioTables.ledgerColumns`).
    private let deviceIndex: [String: Int]
    private let sessionNumbers: [String: Int]
    private let columns: [Int32]
    private let widths: [Int]
    /// When each step began, by step number (the first step of a number; nil: never).
    private var stepStarts: [VirtualTime?] = []
    /// The step each device began last, by device (-1: none): the step its sends belong to.
    private var lastStep: [Int]
    private var carriers: [CarrierKey: Carrier] = [:]
    private var namedCarriers: [NamedCarrierKey: Carrier] = [:]
    /// Each carrier's row in `arrivals` and its conversation, by message number (row -1:
    /// the message carries no change of a step).
    private var rowOfMessage: [(row: Int, conversation: Int32)] = []
    /// When each carrier reached each device that can be a member of its conversation, in
    /// nanoseconds (`Int64.min`: never), a row per carrier: a member count of numbers per
    /// message, one write per copy, and no search when asked.
    private var arrivals: [Int64] = []
    /// Each device's live bubble of each numbered session in each conversation, the
    /// message's number at `(conversation * sessions + session) * devices + device` (-1:
    /// none), as the device's transcripts have it (M10: the newest bubble of a session is
    /// its live one; a device can show a session in each conversation). By session first:
    /// the copies of one message, which arrive close together, write close together.
    /// Empty when the ledger does not track live bubbles (`tracksLiveBubbles`).
    private var live: [Int32] = []
    private let sessionCount: Int
    private let conversationCount: Int
    /// Whether the ledger knows every device's live bubbles: with one conversation always
    /// (but for a scenario without devices), with several while the table stays within
    /// `liveTableLimit` entries.
    package let tracksLiveBubbles: Bool
    /// With several conversations: per numbered session, the first device (in the
    /// scenario's order) that shows a bubble of it and the first conversation (in the
    /// scenario's order) it shows it in, as a device's session table lists them; `Int32.max`
    /// while no device shows one. A bubble, once shown, stays (M10), so the first shower
    /// only moves to an earlier device.
    private var firstShower: [Int32] = []
    private var firstConversation: [Int32] = []
    /// The most entries the live table takes with several conversations (32 MB): beyond,
    /// the analysis reads the devices' transcripts instead.
    static let liveTableLimit = 8_000_000
    /// Which devices draw bubbles (an old system draws plain messages instead, M26).
    private let drawsBubbles: [Bool]
    /// The app messages by number: what a live bubble holds.
    private var messages: [Envelope?] = []
    /// Which numbered sessions some device shows a bubble of, and how many.
    private var shown: [Bool] = []
    package private(set) var shownSessionCount = 0
    /// Whether some device shows a bubble the live table cannot hold: of a session no step
    /// names (an app named it), or in a conversation that is not the scenario's.
    package private(set) var showsUntrackedBubbles = false
    /// The cloud records devices fetched while a bubble naming them was selected, by device
    /// and record key, the last answer each (`fetched(_:by:selected:)`). Empty but in the
    /// cloud modes, and there holds at most a record per device and session.
    private var views: [ViewKey: FetchedView] = [:]

    private struct ViewKey: Hashable {
        var device: Int
        var key: String
    }

    /// A cloud record as a device fetched it with a bubble selected (M13, M21): what its app
    /// shows for the session while that bubble stays the live one.
    package struct FetchedView: Sendable, Hashable {
        /// The selected bubble's message when the answer came.
        package var message: Int
        /// nil when the store had no record by that name.
        package var state: StateMap?
        package var provenance: Provenance
        package var version: Int
    }

    package init(tables: ScenarioTables) {
        deviceIndex = tables.deviceIndex
        sessionNumbers = tables.sessionNumbers
        columns = tables.ledgerColumns
        widths = tables.ledgerWidths
        drawsBubbles = tables.drawsBubbles
        sessionCount = sessionNumbers.count
        let devices = drawsBubbles.count
        let conversations = tables.scenario.conversations.count
        conversationCount = conversations
        lastStep = Array(repeating: -1, count: devices)
        let entries = devices.multipliedReportingOverflow(by: sessionCount)
        let all = entries.partialValue.multipliedReportingOverflow(by: conversations)
        tracksLiveBubbles = devices > 0 && conversations > 0 && !entries.overflow && !all.overflow
            && (conversations == 1 || all.partialValue <= Self.liveTableLimit)
        if tracksLiveBubbles {
            live = Array(repeating: -1, count: all.partialValue)
            shown = Array(repeating: false, count: sessionCount)
            if conversations > 1 {
                firstShower = Array(repeating: Int32.max, count: sessionCount)
                firstConversation = Array(repeating: Int32.max, count: sessionCount)
            }
        }
        // About one carrier per step: room made once, not by doubling and rehashing.
        carriers.reserveCapacity(tables.steps.entries.count)
        reset(seed: 0)
    }

    /// The ledger of a run that never ran (`RunOutcome.empty`): it knows nothing.
    package init() {
        deviceIndex = [:]
        sessionNumbers = [:]
        columns = []
        widths = []
        drawsBubbles = []
        sessionCount = 0
        conversationCount = 0
        lastStep = []
        tracksLiveBubbles = false
    }

    /// Forgets the run, keeping the room its tables took: the next run of the scenario
    /// fills them again.
    mutating func reset(seed: UInt64) {
        stepStarts.removeAll(keepingCapacity: true)
        for index in lastStep.indices { lastStep[index] = -1 }
        carriers.removeAll(keepingCapacity: true)
        namedCarriers.removeAll(keepingCapacity: true)
        rowOfMessage.removeAll(keepingCapacity: true)
        arrivals.removeAll(keepingCapacity: true)
        messages.removeAll(keepingCapacity: true)
        // Every write to the live table marks its session shown: with none shown, the
        // tables are as they were sized.
        if shownSessionCount > 0 {
            for index in live.indices { live[index] = -1 }
            for index in shown.indices { shown[index] = false }
            for index in firstShower.indices { firstShower[index] = Int32.max }
            for index in firstConversation.indices { firstConversation[index] = Int32.max }
        }
        shownSessionCount = 0
        showsUntrackedBubbles = false
        views.removeAll(keepingCapacity: true)
    }

    // MARK: - Kept as the run goes

    /// Step `number` began on device `device` at `time`.
    mutating func began(step number: Int, on device: Int, at time: VirtualTime) {
        if number >= 0 {
            stepStarts.grow(toInclude: number, with: nil)
            if stepStarts[number] == nil { stepStarts[number] = time }
        }
        if lastStep.indices.contains(device) { lastStep[device] = number }
    }

    /// Device `device` sent `envelope` at `time`.
    mutating func sent(_ envelope: Envelope, by device: Int, at time: VirtualTime) {
        guard let session = envelope.sessionName, lastStep.indices.contains(device) else { return }
        // Kept once, as it left its device: a live bubble anywhere holds this message.
        if tracksLiveBubbles, envelope.id >= 0 {
            messages.grow(toInclude: envelope.id, with: nil)
            messages[envelope.id] = envelope
        }
        let conversation = widths.indices.contains(envelope.conversationNumber) ? envelope.conversationNumber : -1
        let carrier = Carrier(message: envelope.id, time: time, row: arrivals.count, conversation: conversation)
        // The session's number, not its name, is hashed on the path every send takes, once:
        // reaching the entry with a default inserts it when it is new, and the count says so.
        // A message made outside a device (a test harness) carries no number: its name has one.
        func reach(_ entry: inout Carrier) {}
        let number = envelope.sessionNumber >= 0 ? envelope.sessionNumber : sessionNumbers[session] ?? -1
        if number >= 0 {
            let count = carriers.count
            reach(&carriers[CarrierKey(device: device, session: number, step: lastStep[device]), default: carrier])
            guard carriers.count > count else { return }
        } else {
            let count = namedCarriers.count
            reach(&namedCarriers[NamedCarrierKey(device: device, session: session, step: lastStep[device]), default: carrier])
            guard namedCarriers.count > count else { return }
        }
        arrivals.append(contentsOf: repeatElement(Int64.min, count: conversation < 0 ? lastStep.count : widths[conversation]))
        guard envelope.id >= 0 else { return }
        rowOfMessage.grow(toInclude: envelope.id, with: (-1, -1))
        rowOfMessage[envelope.id] = (carrier.row, Int32(conversation))
    }

    /// Device `device` added `envelope` to its transcript, sent there or arrived: a
    /// message of a session becomes the session's live bubble there (M10), unless the
    /// device is an old system, which draws it as plain text (M26).
    mutating func added(_ envelope: Envelope, on device: Int) {
        guard tracksLiveBubbles, drawsBubbles.indices.contains(device), drawsBubbles[device] else { return }
        // The number the message carries is read first: the name only when it has none.
        var number = envelope.sessionNumber
        if number < 0 || number >= sessionCount {
            guard let session = envelope.sessionName else { return }
            number = sessionNumbers[session] ?? -1
            guard number >= 0, number < sessionCount else {
                showsUntrackedBubbles = true
                return
            }
        }
        guard conversationCount > 1 else {
            live[number * drawsBubbles.count + device] = Int32(truncatingIfNeeded: envelope.id)
            noteShown(number)
            return
        }
        let conversation = envelope.conversationNumber
        guard conversation >= 0, conversation < conversationCount else {
            showsUntrackedBubbles = true
            return
        }
        let place = (conversation * sessionCount + number) * drawsBubbles.count + device
        // The first bubble of the session here may be the first a session table lists:
        // on an earlier device than any so far, or in an earlier conversation on the same.
        if live[place] < 0, Int32(device) < firstShower[number]
            || (Int32(device) == firstShower[number] && Int32(conversation) < firstConversation[number]) {
            firstShower[number] = Int32(device)
            firstConversation[number] = Int32(conversation)
        }
        live[place] = Int32(truncatingIfNeeded: envelope.id)
        noteShown(number)
    }

    private mutating func noteShown(_ number: Int) {
        if !shown[number] {
            shown[number] = true
            shownSessionCount += 1
        }
    }

    /// A copy of `envelope` reached device `device` at `time`, which adds it to its
    /// transcript (`added(_:on:)`).
    mutating func delivered(_ envelope: Envelope, to device: Int, at time: VirtualTime) {
        added(envelope, on: device)
        let message = envelope.id
        guard message >= 0, message < rowOfMessage.count else { return }
        let (row, conversation) = rowOfMessage[message]
        guard row >= 0, let column = self.column(of: device, in: Int(conversation)) else { return }
        // The last copy, should two reach the device, as the trace's arrivals tell it.
        arrivals[row + column] = time.nanoseconds
    }

    private func column(of device: Int, in conversation: Int) -> Int? {
        guard lastStep.indices.contains(device) else { return nil }
        guard conversation >= 0 else { return device }
        let column = columns[conversation * lastStep.count + device]
        return column < 0 ? nil : Int(column)
    }

    /// Device `device` received the store's answer to a fetch while the bubble numbered
    /// `selected` was selected and named the record: a tap reads the cloud (M13, M21).
    mutating func fetched(_ response: CloudResponse, by device: Int, selected: Int) {
        let record = response.record
        views[ViewKey(device: device, key: record.key)] = FetchedView(message: selected, state: record.state,
                                                                      provenance: response.provenance, version: record.version)
    }

    // MARK: - Read by the analysis

    /// Whether some device fetched a record with a bubble selected (`view(device:key:)`):
    /// false in most runs, where what a device shows depends on its live bubble alone.
    package var hasFetchedViews: Bool { !views.isEmpty }

    /// The record `device` last fetched under `key` with a bubble selected; nil when none.
    package func view(device: Int, key: String) -> FetchedView? {
        views.isEmpty ? nil : views[ViewKey(device: device, key: key)]
    }

    /// When step `number` began; nil when no step of that number ran.
    package func start(ofStep number: Int) -> VirtualTime? {
        stepStarts.indices.contains(number) ? stepStarts[number] : nil
    }

    /// The message that carried `device`'s change in `session` made in step `step` (nil:
    /// made outside any step): the first message the device sent in the session while
    /// that step was its last.
    package func carrier(device: String, session: String, step: Int?) -> Carrier? {
        guard let index = deviceIndex[device] else { return nil }
        if let number = sessionNumbers[session] { return carriers[CarrierKey(device: index, session: number, step: step ?? -1)] }
        return namedCarriers[NamedCarrierKey(device: index, session: session, step: step ?? -1)]
    }

    /// The message of `device`'s live bubble of numbered session `number`, in the first
    /// conversation (in the scenario's order) it shows one in, as its session table lists
    /// them first; nil when it shows none, or when the ledger does not track live bubbles
    /// (`tracksLiveBubbles`).
    package func liveMessage(device: Int, session number: Int) -> Int? {
        guard number >= 0, number < sessionCount, device >= 0, device < drawsBubbles.count, tracksLiveBubbles else { return nil }
        for conversation in 0..<conversationCount {
            let message = live[(conversation * sessionCount + number) * drawsBubbles.count + device]
            if message >= 0 { return Int(message) }
        }
        return nil
    }

    /// The conversation (by position in the scenario's) of the first bubble of numbered
    /// session `number` that a session table lists: on the first device, in the scenario's
    /// order, that shows one, its first conversation. Nil when no device shows one, or the
    /// ledger does not track live bubbles.
    package func conversation(ofSession number: Int) -> Int? {
        guard tracksLiveBubbles, number >= 0, number < sessionCount, shown[number] else { return nil }
        guard conversationCount > 1 else { return 0 }
        let conversation = firstConversation[number]
        return conversation == Int32.max ? nil : Int(conversation)
    }

    /// The app message numbered `message`, as a live bubble holds it.
    package func envelope(of message: Int) -> Envelope? {
        messages.indices.contains(message) ? messages[message] : nil
    }

    /// Whether some device shows a bubble of numbered session `number`.
    package func isShown(session number: Int) -> Bool { shown.indices.contains(number) && shown[number] }

    /// The number of a session a step names; nil for any other.
    package func number(ofSession name: String) -> Int? { sessionNumbers[name] }

    /// When a copy of `carrier` reached `device`; nil when none did.
    package func arrival(of carrier: Carrier, at device: String) -> VirtualTime? {
        guard let index = deviceIndex[device], let column = column(of: index, in: carrier.conversation) else { return nil }
        let time = arrivals[carrier.row + column]
        return time == Int64.min ? nil : VirtualTime(nanoseconds: time)
    }
}
