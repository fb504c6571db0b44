import GroupSimCore
import GroupSimSimulation

/// The messages of a run as its trace tells them: who sent each one, when and in which
/// session, every copy's arrival (M11, M30), and every round trip to the cloud store (M13).
///
/// Built from `Trace` events only, in trace order, so every list here is deterministic
/// (determinism rule 4, README). Explanations, the side-by-side view and the diagrams read it.
/// Building is O(events); lookups by message are O(1).
package struct MessageFlow: Sendable {
    /// A message leaving its device (M11: it collapses its session there at once).
    package struct Send: Sendable, Hashable {
        package var message: Int
        package var device: String
        package var time: VirtualTime
        /// nil for plain text and stickers.
        package var session: String?
        package var url: String?
        /// The step that made the device send it (1-based, file order), when one did.
        package var step: Int?
        /// The position of the `sent` event in the trace.
        package var traceIndex: Int
    }

    /// One copy of a message reaching one other device (M30).
    package struct Copy: Sendable, Hashable {
        package var message: Int
        package var from: String
        package var to: String
        package var sentAt: VirtualTime
        package var arrivedAt: VirtualTime
        /// When the copy first reached the device while it was offline and had to wait (M30).
        package var heldAt: VirtualTime?
        /// The position of the `delivered` event in the trace.
        package var traceIndex: Int
    }

    /// One request to the cloud store and its answer (M13).
    package struct CloudTrip: Sendable, Hashable {
        /// `fetch` or `store`, as the trace's cloud events name it.
        package typealias Operation = Simulation.Trace.Event.CloudOperation

        package var device: String
        package var operation: Operation
        /// The record's key: the session's name for the built-in app.
        package var key: String
        package var requestedAt: VirtualTime
        /// When the request reached the store; nil if it never did.
        package var arrivedAt: VirtualTime?
        /// The record's version the store answered with (after the write, for a store;
        /// the current one, for a refused write).
        package var version: Int?
        /// True when the store refused the conditional write because the record's version
        /// had moved; its answer is then a conflict, which the app may retry on (M13).
        package var refused = false
        /// When the answer reached the device; nil if it never did.
        package var answeredAt: VirtualTime?
    }

    /// Every app, text or sticker message, in send order.
    package private(set) var sends: [Send] = []
    /// Every delivered copy, in arrival order.
    package private(set) var copies: [Copy] = []
    /// Every cloud request, in the order the devices made them.
    package private(set) var cloudTrips: [CloudTrip] = []

    private var sendIndex: [Int: Int] = [:]

    /// Reads the trace once.
    package init(trace: Simulation.Trace) {
        var lastStep: [String: Int] = [:]
        var held: [String: VirtualTime] = [:]
        var openTrips: [Int] = []
        for (index, event) in trace.events.enumerated() {
            switch event.kind {
            case .step(let number, _):
                lastStep[event.subject] = number
            case .sent(let message, let session, let url):
                sendIndex[message] = sends.count
                sends.append(Send(message: message, device: event.subject, time: event.time, session: session, url: url,
                                  step: lastStep[event.subject], traceIndex: index))
            case .held(let message):
                let key = Self.copyKey(message, event.subject)
                if held[key] == nil { held[key] = event.time }
            case .delivered(let message, let from):
                let key = Self.copyKey(message, event.subject)
                let sentAt = sendIndex[message].map { sends[$0].time } ?? event.time
                copies.append(Copy(message: message, from: from, to: event.subject, sentAt: sentAt, arrivedAt: event.time,
                                   heldAt: held[key], traceIndex: index))
            // A round trip is three events: the device's request, the store's handling of it
            // and its answer reaching the device. Each of the last two completes the oldest
            // open trip it fits, so trips of one device and key complete in order (every
            // trip takes the same cloud latency).
            case .cloudRequest(let operation, let key):
                openTrips.append(cloudTrips.count)
                cloudTrips.append(CloudTrip(device: event.subject, operation: operation, key: key, requestedAt: event.time))
            case .cloudHandled(let handling, let key, let device, let version):
                guard let position = openTrips.firstIndex(where: { index in
                    let trip = cloudTrips[index]
                    return trip.arrivedAt == nil && trip.device == device && trip.operation == handling.operation && trip.key == key
                }) else { continue }
                let index = openTrips[position]
                cloudTrips[index].arrivedAt = event.time
                cloudTrips[index].version = version
                cloudTrips[index].refused = handling == .refusedStore
            case .cloudAnswer(let answer, let key, _):
                guard let position = openTrips.firstIndex(where: { index in
                    let trip = cloudTrips[index]
                    return trip.arrivedAt != nil && trip.device == event.subject && trip.operation == answer.operation && trip.key == key
                }) else { continue }
                cloudTrips[openTrips[position]].answeredAt = event.time
                openTrips.remove(at: position)
            default:
                break
            }
        }
    }

    /// The send of message `message` (`m3` is 3).
    package func send(of message: Int) -> Send? { sendIndex[message].map { sends[$0] } }

    private static func copyKey(_ message: Int, _ device: String) -> String { "\(message)|\(device)" }
}
