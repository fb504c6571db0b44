import GroupSimCore
import GroupSimSimulation

/// What each device showed as the live bubble of each session, change by change: the
/// views the users actually saw during the run (M10, M11, M12).
///
/// Built from the trace alone: a device's live bubble of a session becomes message `mN`
/// when the device sends `mN` (M11: at the tap on Send) or when a copy of `mN` arrives
/// (M11: arrival order alone decides). Devices on old systems (`ios9`) draw no bubbles
/// (M26) and have no history. Building is O(events).
package struct ViewHistory: Sendable {
    /// One device's live bubble of one session changing to `message`.
    package struct Change: Sendable, Hashable {
        package var device: String
        package var session: String
        package var message: Int
        package var time: VirtualTime
        /// The device that sent the message: `device` itself when it was sent here.
        package var from: String
        /// The position of the `sent` or `delivered` event in the trace.
        package var traceIndex: Int

        /// The message was sent on this device rather than received.
        package var wasSent: Bool { from == device }

        /// `sent m3` or `received m2 from bob-phone`.
        package var action: String { wasSent ? "sent m\(message)" : "received m\(message) from \(from)" }
    }

    /// Every change, in trace order.
    package let changes: [Change]
    /// The devices that draw bubbles, in the scenario's order.
    package let devices: [String]
    /// Positions in `changes` per device and session, and per session, in trace order:
    /// the questions below read one bubble's history, not every change of the run.
    private let byBubble: [Bubble: [Int]]
    private let bySession: [String: [Int]]
    /// Every session with a change, in the order each first appears.
    package let sessions: [String]

    private struct Bubble: Hashable {
        var device: String
        var session: String
    }

    /// No history: what pitfall detection reads when it writes no words (exploration).
    package init() {
        changes = []
        devices = []
        byBubble = [:]
        bySession = [:]
        sessions = []
    }

    package init(outcome: RunOutcome) {
        let drawing = outcome.scenario.devices.filter(\.drawsBubbles).map(\.name)
        let draws = Set(drawing)
        var sessionOf: [Int: String] = [:]
        var found: [Change] = []
        for (index, event) in outcome.trace.events.enumerated() {
            switch event.kind {
            case .sent(let message, let session, _):
                guard let session else { continue }
                sessionOf[message] = session
                if draws.contains(event.subject) {
                    found.append(Change(device: event.subject, session: session, message: message, time: event.time,
                                        from: event.subject, traceIndex: index))
                }
            case .delivered(let message, let from):
                guard let session = sessionOf[message], draws.contains(event.subject) else { continue }
                found.append(Change(device: event.subject, session: session, message: message, time: event.time,
                                    from: from, traceIndex: index))
            default:
                continue
            }
        }
        changes = found
        devices = drawing
        var byBubble: [Bubble: [Int]] = [:]
        var bySession: [String: [Int]] = [:]
        var sessions: [String] = []
        for (index, change) in found.enumerated() {
            byBubble[Bubble(device: change.device, session: change.session), default: []].append(index)
            if bySession[change.session] == nil { sessions.append(change.session) }
            bySession[change.session, default: []].append(index)
        }
        self.byBubble = byBubble
        self.bySession = bySession
        self.sessions = sessions
    }

    /// The changes of one device's live bubble of `session`, in order.
    package func changes(on device: String, session: String) -> [Change] {
        (byBubble[Bubble(device: device, session: session)] ?? []).map { changes[$0] }
    }

    /// The changes of `session` grouped by instant, in time order: one entry per instant
    /// at which some device's live bubble of the session changed. O(changes of the session).
    package func instants(of session: String) -> [(time: VirtualTime, changes: [Change])] {
        var found: [(time: VirtualTime, changes: [Change])] = []
        for change in (bySession[session] ?? []).lazy.map({ changes[$0] }) {
            if let last = found.last, last.time == change.time {
                found[found.count - 1].changes.append(change)
            } else {
                found.append((change.time, [change]))
            }
        }
        return found
    }

    /// The live bubble of `session` on `device` just before trace position `traceIndex`
    /// (nil: the device showed nothing of the session yet).
    package func live(on device: String, session: String, before traceIndex: Int) -> Change? {
        let positions = byBubble[Bubble(device: device, session: session)] ?? []
        // Trace positions grow along the list: the last one before `traceIndex`.
        var low = 0
        var high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if changes[positions[middle]].traceIndex < traceIndex { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? changes[positions[low - 1]] : nil
    }

    /// The live bubble of `session` on `device` at the end of the run.
    package func final(on device: String, session: String) -> Change? {
        byBubble[Bubble(device: device, session: session)]?.last.map { changes[$0] }
    }

    /// Where two devices' views of `session` parted: the first change at which one of
    /// them showed a message the other did not show in that place. nil when both saw the
    /// same bubbles in the same order.
    package func parting(_ first: String, _ second: String, session: String) -> ViewParting? {
        let left = changes(on: first, session: session)
        let right = changes(on: second, session: session)
        var agreed: [Int] = []
        var index = 0
        while index < left.count, index < right.count, left[index].message == right[index].message {
            agreed.append(left[index].message)
            index += 1
        }
        let leftNext = index < left.count ? left[index] : nil
        let rightNext = index < right.count ? right[index] : nil
        let change: Change
        let otherNext: Change?
        switch (leftNext, rightNext) {
        case (nil, nil):
            return nil
        case (let only?, nil):
            (change, otherNext) = (only, nil)
        case (nil, let only?):
            (change, otherNext) = (only, nil)
        case (let l?, let r?):
            (change, otherNext) = l.traceIndex <= r.traceIndex ? (l, r) : (r, l)
        }
        let other = change.device == first ? second : first
        return ViewParting(
            session: session, first: first, second: second, agreed: agreed, change: change,
            otherShowed: live(on: other, session: session, before: change.traceIndex)?.message, otherNext: otherNext,
            finalFirst: left.last?.message, finalSecond: right.last?.message)
    }

    /// The partings between the devices of a divergent session: the devices are grouped
    /// by the live bubble they end on, and each group is compared with every later group
    /// through the pair of their devices that parted first (M12), so that the story follows
    /// the two devices whose views split first; with more than four groups, only the first
    /// group is compared with the others, to keep the list readable, and past 64 pairs
    /// between two groups their first devices stand for them. Empty when they all end alike.
    package func partings(session: String, among devices: [String]) -> [ViewParting] {
        var groups: [(message: Int?, devices: [String])] = []
        for device in devices {
            let message = final(on: device, session: session)?.message
            if let index = groups.firstIndex(where: { $0.message == message }) {
                groups[index].devices.append(device)
            } else {
                groups.append((message, [device]))
            }
        }
        var found: [ViewParting] = []
        for (index, group) in groups.enumerated() where index == 0 || groups.count <= 4 {
            for later in groups.dropFirst(index + 1) {
                let few = group.devices.count * later.devices.count <= 64
                var first: ViewParting?
                for left in few ? group.devices : Array(group.devices.prefix(1)) {
                    for right in few ? later.devices : Array(later.devices.prefix(1)) {
                        guard let parting = parting(left, right, session: session) else { continue }
                        // The earliest change wins; on a tie the first pair in device order.
                        if first.map({ parting.change.traceIndex < $0.change.traceIndex }) ?? true { first = parting }
                    }
                }
                if let first { found.append(first) }
            }
        }
        return found
    }
}
