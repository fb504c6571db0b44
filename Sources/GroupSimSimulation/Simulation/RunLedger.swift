import GroupSimCore

/// What the pitfall analysis needs of a run's messages, kept as the events happen, with
/// the trace on or off: when each step began, which message carried each device's change
/// in a session (its first send in that session for that step), and when that message
/// reached each device. What each device shows is `LiveBubbles`'.
///
/// Exploration keeps no trace, yet its verdicts must be the ones `groupsim run --seed`
/// gives for the same run: a change overwritten by someone who had seen it is no lost
/// update (M12), and only this record says who had seen it. Each event costs a constant:
/// a step an array write, a send an array write (a hash for a step's second carrier), a
/// delivered copy an array write.
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

        /// The three numbers hashed as one: every send hashes a key, and three words cost
        /// the hasher three rounds where one does (equality still compares all three).
        func hash(into hasher: inout Hasher) {
            hasher.combine(UInt64(truncatingIfNeeded: device) &<< 42 ^ UInt64(truncatingIfNeeded: session) &<< 21
                ^ UInt64(truncatingIfNeeded: step))
        }
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
    /// The first carrier sent while each step was its device's last, by step number + 1
    /// (0: before any step): a send reads one slot where it hashed its key into a table as
    /// large as the run's sends, each a cold read. The carriers of other devices or
    /// sessions in the same step are in `carriers`.
    private var stepCarriers: [StepCarrier] = []
    private var carriers: [CarrierKey: Carrier] = [:]

    private struct StepCarrier {
        /// -1: none yet.
        var device = -1
        var session = -1
        var carrier = Carrier(message: -1, time: .zero, row: -1, conversation: -1)
    }
    private var namedCarriers: [NamedCarrierKey: Carrier] = [:]
    /// Each carrier's row in `arrivals` and its conversation, by message number (row -1:
    /// the message carries no change of a step).
    private var rowOfMessage: [(row: Int, conversation: Int32)] = []
    /// When each carrier reached each device that can be a member of its conversation, in
    /// nanoseconds (`Int64.min`: never), a row per carrier: a member count of numbers per
    /// message, one write per copy, and no search when asked.
    private var arrivals: [Int64] = []
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
        lastStep = Array(repeating: -1, count: tables.scenario.devices.count)
        // About one carrier per step: room made once, not by doubling.
        stepCarriers.reserveCapacity(tables.steps.entries.count + 1)
        reset(seed: 0)
    }

    /// The ledger of a run that never ran (`RunOutcome.empty`): it knows nothing.
    package init() {
        deviceIndex = [:]
        sessionNumbers = [:]
        columns = []
        widths = []
        lastStep = []
    }

    /// Forgets the run, keeping the room its tables took: the next run of the scenario
    /// fills them again.
    mutating func reset(seed: UInt64) {
        stepStarts.removeAll(keepingCapacity: true)
        for index in lastStep.indices { lastStep[index] = -1 }
        stepCarriers.removeAll(keepingCapacity: true)
        carriers.removeAll(keepingCapacity: true)
        namedCarriers.removeAll(keepingCapacity: true)
        rowOfMessage.removeAll(keepingCapacity: true)
        arrivals.removeAll(keepingCapacity: true)
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
        let conversation = widths.indices.contains(envelope.conversationNumber) ? envelope.conversationNumber : -1
        let carrier = Carrier(message: envelope.id, time: time, row: arrivals.count, conversation: conversation)
        // The session's number, not its name, keys the carrier on the path every send
        // takes. A message made outside a device (a test harness) carries no number: its
        // name has one. The first message keeps the place: in the step's slot, or in a
        // table, put in, and the one it displaced, if any, put back (a second send of a
        // device in one session and step is the rare case; looking up first hashed every
        // carrier twice, and reaching the entry with a default made and freed a closure
        // holding the carrier on every send).
        let number = envelope.sessionNumber >= 0 ? envelope.sessionNumber : sessionNumbers[session] ?? -1
        if number >= 0 {
            let key = CarrierKey(device: device, session: number, step: lastStep[device])
            let index = key.step &+ 1
            if index >= 0 {
                stepCarriers.grow(toInclude: index, with: StepCarrier())
                let first = stepCarriers[index]
                if first.device < 0 {
                    stepCarriers[index] = StepCarrier(device: device, session: number, carrier: carrier)
                    return record(carrier, of: envelope)
                }
                if first.device == device, first.session == number { return }
            }
            if let first = carriers.updateValue(carrier, forKey: key) {
                carriers[key] = first
                return
            }
        } else {
            let key = NamedCarrierKey(device: device, session: session, step: lastStep[device])
            if let first = namedCarriers.updateValue(carrier, forKey: key) {
                namedCarriers[key] = first
                return
            }
        }
        record(carrier, of: envelope)
    }

    /// Makes `carrier`'s row of arrivals, and finds it by its message's number.
    private mutating func record(_ carrier: Carrier, of envelope: Envelope) {
        let conversation = carrier.conversation
        arrivals.append(contentsOf: repeatElement(Int64.min, count: conversation < 0 ? lastStep.count : widths[conversation]))
        guard envelope.id >= 0 else { return }
        rowOfMessage.grow(toInclude: envelope.id, with: (-1, -1))
        rowOfMessage[envelope.id] = (carrier.row, Int32(conversation))
    }

    /// A copy of `envelope` reached device `device` at `time`.
    mutating func delivered(_ envelope: Envelope, to device: Int, at time: VirtualTime) {
        let message = envelope.id
        guard message >= 0, message < rowOfMessage.count else { return }
        let (row, conversation) = rowOfMessage[message]
        guard row >= 0, let column = self.column(of: device, in: Int(conversation)) else { return }
        // The last copy, should two reach the device, as the trace's arrivals tell it.
        arrivals[row + column] = time.nanoseconds
    }

    @inline(__always)
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
        if let number = sessionNumbers[session] {
            let step = step ?? -1, place = step &+ 1
            if place >= 0, place < stepCarriers.count, stepCarriers[place].device == index, stepCarriers[place].session == number {
                return stepCarriers[place].carrier
            }
            return carriers[CarrierKey(device: index, session: number, step: step)]
        }
        return namedCarriers[NamedCarrierKey(device: index, session: session, step: step ?? -1)]
    }

    /// When a copy of `carrier` reached `device`; nil when none did.
    package func arrival(of carrier: Carrier, at device: String) -> VirtualTime? {
        guard let index = deviceIndex[device], let column = column(of: index, in: carrier.conversation) else { return nil }
        let time = arrivals[carrier.row + column]
        return time == Int64.min ? nil : VirtualTime(nanoseconds: time)
    }
}
