import GroupSimCore

/// Chooses which enabled event runs next, for exploring schedules other than the one
/// virtual time gives (`groupsim explore --exhaustive`).
///
/// Called once per event with the candidates in (time, sequence) order: every pending
/// delivery and cloud message, and every pending step, each with the window of instants it
/// could happen at over all latency, jitter and race draws. Returning 0 always reproduces
/// the plain run. An index out of range is taken as 0.
package protocol ScheduleController: Sendable {
    mutating func choose(among candidates: [ScheduleCandidate]) -> Int

    /// The same, also told the copies in flight that may not arrive next: on a FIFO
    /// network, those behind an older copy on their link (deliveries, in queue order).
    /// By default they are ignored.
    mutating func choose(among candidates: [ScheduleCandidate], waiting: [ScheduleCandidate]) -> Int

    /// Told, right after a copy reached a device (the event it chose last), what the
    /// device's app did on it that another device or a later step could see
    /// (`ScheduleEffect`), when it did anything. By default ignored.
    mutating func noted(_ effects: [ScheduleEffect], on device: Int)
}

extension ScheduleController {
    package mutating func choose(among candidates: [ScheduleCandidate], waiting: [ScheduleCandidate]) -> Int {
        choose(among: candidates)
    }

    package mutating func noted(_ effects: [ScheduleEffect], on device: Int) {}
}

/// What an app did on a copy that reached its device, beyond showing it: what factoring
/// a registered controller's arrival orders must rule out (docs/exploration.md).
package enum ScheduleEffect: Sendable, Hashable {
    /// It sent a message (directly, or a staged one sent at once).
    case send
    /// It staged something in the input field, or cleared it.
    case insert
    /// It asked the cloud store for a record.
    case cloudRead
    /// It wrote a record of the cloud store.
    case cloudWrite
    /// It stored or removed a value of the installation's storage.
    case storageWrite
    /// Something it asked for failed with this code.
    case failure(MessageErrorCode)

    /// For people: `fetched from the cloud store`.
    package var text: String {
        switch self {
        case .send: "sent a message"
        case .insert: "staged a message"
        case .cloudRead: "fetched from the cloud store"
        case .cloudWrite: "wrote to the cloud store"
        case .storageWrite: "wrote to its storage"
        case .failure(let code): "failed with \(code)"
        }
    }
}

/// One event that could run next.
package struct ScheduleCandidate: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        /// A pending user action.
        case step
        /// A copy of a message reaching a device.
        case delivery
        /// A request reaching the cloud store.
        case cloudRequest
        /// The cloud store's answer reaching a device.
        case cloudAnswer
    }

    package var kind: Kind
    /// The device it happens on (for cloud requests: the device that asked).
    package var device: String
    /// The message delivered, for deliveries.
    package var message: Int?
    /// The step number, for steps.
    package var step: Int?
    /// When virtual time would have run it.
    package var time: VirtualTime
    /// The earliest it could happen, over every latency, jitter and race draw: a step's
    /// time (a race's step: the race's), an event's cause's earliest plus the least delay.
    package var earliest: VirtualTime
    /// The latest it could happen: a race's step, the end of the race window; an event,
    /// its cause's latest plus the most delay (latency plus jitter).
    package var latest: VirtualTime
    /// `device`'s position in the scenario's devices, so that a controller asked about
    /// every pending event need not look names up.
    package var deviceNumber: Int?
    /// For a cloud request: true when it would leave the store as it is if it ran now (a
    /// fetch, or a conditional write over a version the record no longer has). Such
    /// requests commute: run in either order, they get the same answers (M13).
    package var leavesStore = false
}
