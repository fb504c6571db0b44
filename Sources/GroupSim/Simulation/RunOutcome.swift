/// Everything a run produced, before checks: the trace, each device's final state, and
/// what the simulator saw along the way.
public struct RunOutcome: Sendable {
    public var scenario: Scenario
    public var seed: UInt64
    public var trace: Trace
    public var devices: [DeviceSnapshot]
    public var failures: [StepFailure]
    /// Pitfalls seen while the app read something (M2, M4, M8, M15).
    public var sightings: [PitfallSighting]
    /// Every state change made by a send, reply or cloud write, in the order made.
    public var changes: [Change]
    /// The cloud store's records at the end, by key (M13).
    public var cloud: [CloudEntry]
    public var endTime: VirtualTime
    public var eventCount: Int
    public var copiesDelivered: Int
    /// Copies still waiting for an offline device at the end (M30).
    public var heldAtEnd: Int
    /// False when the run hit `Simulation.eventLimit` before going quiet.
    public var quiet: Bool
    /// Each conversation's members at the end (M6), in the scenario's order.
    public var members: [(conversation: String, members: [String])]

    /// The trace digest (DESIGN.md rule 6).
    public var digest: String { trace.digest }

    public func device(_ name: String) -> DeviceSnapshot? { devices.first { $0.name == name } }

    /// The outcome of nothing: no devices, no events.
    static func empty(_ scenario: Scenario) -> RunOutcome {
        RunOutcome(scenario: scenario, seed: scenario.seed, trace: Trace(), devices: [], failures: [], sightings: [],
                   changes: [], cloud: [], endTime: .zero, eventCount: 0, copiesDelivered: 0, heldAtEnd: 0,
                   quiet: true, members: [])
    }
}

/// One cloud store record at the end of a run (M13).
public struct CloudEntry: Sendable {
    public var key: String
    public var state: StateMap
    public var version: Int
    var provenance: Provenance
}
