import GroupSimCore
import GroupSimScenario

/// What the scheduler hands a device with each call: the instant and the run-wide counters.
///
/// Devices are sans-IO (determinism rule 5, README): they never schedule or send anything
/// themselves; they return a `DeviceOutput` and the scheduler acts on it.
package struct DeviceContext: Sendable {
    package var now: VirtualTime
    /// The number the next sent message gets (`m1`, `m2`, ... in send order).
    package var nextMessageID: Int
    /// The number the next state change gets.
    package var nextChangeID: Int

    package init(now: VirtualTime, nextMessageID: Int, nextChangeID: Int) {
        self.now = now
        self.nextMessageID = nextMessageID
        self.nextChangeID = nextChangeID
    }
}

/// What a device wants done after one call: events to trace, messages to fan out, cloud
/// requests to carry, and the failures, changes and pitfalls it saw. The caller owns the
/// buffer and lends it to each call (`DeviceCall`), then acts on it.
package struct DeviceOutput: Sendable {
    var events: [Simulation.Trace.Event] = []
    package var outgoing: [Envelope] = []
    var changes: [Change] = []
    package var failures: [RunOutcome.StepFailure] = []
    var sightings: [PitfallSighting] = []
    package var cloudRequests: [CloudRequest] = []

    package init() {}

    /// Whether the call asked for nothing beyond moving the context on (most deliveries).
    var isEmpty: Bool {
        events.isEmpty && outgoing.isEmpty && changes.isEmpty && failures.isEmpty && sightings.isEmpty && cloudRequests.isEmpty
    }

    /// Empties the buffer for the next call, keeping its storage.
    mutating func removeAll() {
        if !events.isEmpty { events.removeAll(keepingCapacity: true) }
        if !outgoing.isEmpty { outgoing.removeAll(keepingCapacity: true) }
        if !changes.isEmpty { changes.removeAll(keepingCapacity: true) }
        if !failures.isEmpty { failures.removeAll(keepingCapacity: true) }
        if !sightings.isEmpty { sightings.removeAll(keepingCapacity: true) }
        if !cloudRequests.isEmpty { cloudRequests.removeAll(keepingCapacity: true) }
    }
}

extension RunOutcome {
    /// A step that failed: its number, the device, the code and why (docs/scenario-format.md).
    public struct StepFailure: Sendable, Hashable {
    /// 1-based step number in file order of the step that was running when it failed;
    /// nil when it failed later (see `origin`) or no step caused it (an app's own action).
    public var step: Int?
    public var device: String
    public var time: VirtualTime
    public var code: MessageErrorCode
    public var reason: String
    /// The rule of docs/behaviour.md the failure follows from (the one `reason` cites
    /// first), nil when it follows from none (`noBubble`, an app's runaway actions).
    public var rule: Rule?
    /// For a failure after its step ended: the step it follows from and the round trips
    /// between (`attributedStep`); nil when `step` is set or no step set it off.
    public var origin: Origin?

    /// Why a removed member's device could not act in `conversation` (M6): the reason of
    /// every `notMember` failure, the device's own and the member list's.
    static func notMemberReason(device: String, person: String, conversation: String) -> String {
        "\(device) belongs to \(person), who is not a member of conversation \(conversation) now (M6)"
    }
    }
}

/// A pitfall seen during the run, where and why (M2, M4, M8, M15).
package struct PitfallSighting: Sendable, Hashable {
    package var kind: Scenario.PitfallKind
    package var device: String
    package var time: VirtualTime
    package var message: Int?
    package var detail: String
    /// For a foreign identifier: the device that minted it (M4), which need not be the
    /// one that sent the message carrying it.
    package var mintedOn: String?
}

/// A request from a device's app to the cloud store (M13).
package struct CloudRequest: Sendable, Hashable {
    package enum Operation: Sendable, Hashable {
        case fetch
        case store(AppAction.CloudWrite)
    }

    package var device: String
    package var conversation: String
    package var key: String
    package var operation: Operation
    /// For a store: the changes the written state descends from.
    var provenance: Provenance
    /// For a store: the change this write makes, if any.
    var change: Change?
    /// The user's step this request follows from, if any, carried to the app's callback
    /// on the answer so that what it does then belongs to that step.
    var origin: RunOutcome.StepFailure.Origin?
}

/// The cloud store's answer to one request.
package struct CloudResponse: Sendable, Hashable {
    package var request: CloudRequest
    package var record: AppAction.CloudRecord
    var provenance: Provenance
}
