/// Chooses which enabled event runs next, for exploring schedules other than the one
/// virtual time gives (`groupsim explore --exhaustive`).
///
/// Called once per event with the candidates in (time, sequence) order; returning 0
/// always reproduces the plain run. An index out of range is taken as 0.
public protocol ScheduleController: Sendable {
    mutating func choose(among candidates: [ScheduleCandidate]) -> Int
}

/// One event that could run next.
public struct ScheduleCandidate: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// The earliest pending user action (actions keep their order).
        case step
        /// A copy of a message reaching a device.
        case delivery
        /// A request reaching the cloud store.
        case cloudRequest
        /// The cloud store's answer reaching a device.
        case cloudAnswer
    }

    public var kind: Kind
    /// The device it happens on (for cloud requests: the device that asked).
    public var device: String
    /// The message delivered, for deliveries.
    public var message: Int?
    /// The step number, for steps.
    public var step: Int?
    /// When virtual time would have run it.
    public var time: VirtualTime
}
