import GroupSimCore
import GroupSimScenario

/// What a run changes: the devices, the network between them, the cloud store and the
/// conversations' members. The `Simulation` steps it one event at a time; a `Scheduler`
/// decides which event, and a `Recorder` keeps what happened.
package struct World: RunPart {
    /// What every device knows and nobody changes, with the sticker files already read.
    package private(set) var facts: WorldFacts
    package var devices: [Device] = []
    var network: Network
    package var cloud = CloudStore()
    /// What each device shows: its live bubbles (M10), written only by device calls.
    package internal(set) var live: LiveBubbles
    /// Each conversation's members now (M6).
    var members: [String: [String]] = [:]
    /// The sessions some step has composed in, for `sessionIsNew`.
    package var usedSessions: Set<String> = []
    /// `memberDevices(of:)` by conversation; a join or leave forgets its conversation's.
    private var memberDevicesCache: [String: [Int]] = [:]

    package init(tables: ScenarioTables, seed: UInt64) {
        facts = WorldFacts(tables: tables, seed: seed)
        network = Network(tables: tables, seed: seed)
        live = LiveBubbles(tables: tables)
        reset(seed: seed)
    }

    /// Makes the world what it is at the start of a run of its scenario with `seed`: the
    /// seed's facts, every device made (`makeDevices`) as at the start, the network and
    /// the cloud store empty, the starting members. It keeps the room the last run's
    /// devices and network took instead of making them again.
    mutating func reset(seed: UInt64) {
        let tables = facts.tables
        facts = WorldFacts(tables: tables, seed: seed)
        network.reset(seed: seed)
        cloud = CloudStore()
        live.reset()
        members = tables.initialMembers
        usedSessions.removeAll(keepingCapacity: true)
        memberDevicesCache = tables.initialMemberDevices
        let facts = facts
        // Through the buffer: indexing the array checked that it was unique for each device.
        devices.withUnsafeMutableBufferPointer { devices in
            for index in devices.indices { devices[index].reset(world: facts) }
        }
    }

    var scenario: Scenario { facts.tables.scenario }

    /// Each device's position in the scenario's devices.
    var deviceIndex: [String: Int] { facts.tables.deviceIndex }

    /// Makes the scenario's devices, the first `count` of them (all by default), with the
    /// app `factory` makes (nil: the built-in app). A test harness makes one and drives it.
    package mutating func makeDevices(app factory: AppRegistry.Factory?, tracing: Bool, count: Int = .max) {
        let facts = facts
        devices = scenario.devices.prefix(count).map { Device(spec: $0, world: facts, makeApp: factory, tracing: tracing) }
    }

    /// Device `index`'s snapshot, its sessions read from the live bubbles.
    package mutating func snapshot(ofDevice index: Int) -> DeviceSnapshot {
        DeviceSnapshot.run([devices[index].snapshotState(index: index)], world: facts, live: SharedLiveBubbles(live))[0]
    }

    /// Every device's snapshot, in the scenario's order, sharing one box of their states and
    /// one copy of the live bubbles.
    mutating func snapshots() -> [DeviceSnapshot] {
        var states: [DeviceSnapshot.State] = []
        states.reserveCapacity(devices.count)
        for index in devices.indices { states.append(devices[index].snapshotState(index: index)) }
        return DeviceSnapshot.run(states, world: facts, live: SharedLiveBubbles(live))
    }

    /// The devices of the conversation's members, in member order and each person's
    /// device order; worked out once per membership.
    mutating func memberDevices(of conversation: String) -> [Int] {
        if let known = memberDevicesCache[conversation] { return known }
        let found = ScenarioTables.devices(of: members[conversation] ?? [], in: scenario, deviceIndex: deviceIndex)
        memberDevicesCache[conversation] = found
        return found
    }

    /// The conversation's members become `list`, on every device too (M6).
    mutating func setMembers(_ list: [String], of conversation: String) {
        members[conversation] = list
        memberDevicesCache[conversation] = nil
        for index in devices.indices { devices[index].updateMembers(list, of: conversation) }
    }
}
