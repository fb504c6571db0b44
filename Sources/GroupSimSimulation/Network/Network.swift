import GroupSimCore
import GroupSimScenario

/// The in-process network between devices: per-link latency and jitter, and store and
/// forward for offline devices (M30).
///
/// Each copy's delay is its link's latency plus a seeded uniform draw in [0, jitter).
/// Every ordered pair of devices has its own random stream, so a copy on one link never
/// shifts the draws of another. By default copies are independent, so jitter may let a
/// newer copy overtake an older one on the same link; with `fifo` each link delivers in
/// send order.
struct Network: Sendable, RunPart {
    let deviceCount: Int
    /// Whether each link keeps its copies in send order (`network.fifo`).
    let fifo: Bool
    /// The delay of every copy when every link has the base latency and no jitter (nil:
    /// links differ, or a copy draws its jitter): what a fan-out works out once per send.
    let fixedDelay: VirtualDuration?
    /// Each link's latency, jitter and stream key.
    private let tables: ScenarioTables
    /// Every link's latency and jitter when no `links:` entry sets its own (nil): read here
    /// on every copy, instead of through the tables.
    private let sharedDelay: ScenarioTables.LinkDelay?
    private var streams = RandomStreams(seed: 0)
    /// Each link's generator, sender-major; started from its key at the link's first copy,
    /// so a run pays only for the links it uses.
    private var generators: [SplitMix64]
    private var started: [Bool]
    /// FIFO only: per link, when its latest copy arrives.
    private var lastArrival: [VirtualTime]
    /// Devices that are not receiving now (M30).
    private(set) var offline: [Bool]
    /// Copies that reached an offline device, waiting for it to come back (M30).
    var held: [[Envelope]]
    /// Messages sent while their sender was offline, waiting to leave (M30).
    var outbox: [[Envelope]]

    /// Every ordered pair's latency and jitter come from `tables`: the base values, then
    /// each `links:` entry that matches in file order, the last match winning. A person
    /// stands for all their devices.
    init(tables: ScenarioTables, seed: UInt64) {
        let devices = tables.scenario.devices.count
        deviceCount = devices
        fifo = tables.scenario.network.fifo
        self.tables = tables
        sharedDelay = tables.linkDelays.isEmpty ? tables.baseDelay : nil
        fixedDelay = sharedDelay.flatMap { $0.jitter == 0 ? VirtualDuration(nanoseconds: $0.latency) : nil }
        generators = Array(repeating: SplitMix64(seed: 0), count: devices * devices)
        started = Array(repeating: false, count: devices * devices)
        lastArrival = fifo ? Array(repeating: .zero, count: devices * devices) : []
        offline = Array(repeating: false, count: devices)
        held = Array(repeating: [], count: devices)
        outbox = Array(repeating: [], count: devices)
        reset(seed: seed)
    }

    /// Makes the network what it is at the start of a run with `seed`, keeping the room
    /// its tables took: every device online, nothing held or waiting, and each link's
    /// generator started again from its key at its first copy.
    mutating func reset(seed: UInt64) {
        streams = RandomStreams(seed: seed)
        started.withUnsafeMutableBufferPointer { $0.update(repeating: false) }
        lastArrival.withUnsafeMutableBufferPointer { $0.update(repeating: .zero) }
        offline.withUnsafeMutableBufferPointer { $0.update(repeating: false) }
        for device in held.indices where !held[device].isEmpty { held[device].removeAll(keepingCapacity: true) }
        for device in outbox.indices where !outbox[device].isEmpty { outbox[device].removeAll(keepingCapacity: true) }
    }

    /// The delay of the next copy from `sender` to `receiver`: latency plus a jitter draw.
    /// A scenario file keeps both within 365 days; one built in Swift with larger values
    /// gets a delay held at `Int64.max` nanoseconds rather than a crash.
    mutating func delay(from sender: Int, to receiver: Int) -> VirtualDuration {
        let index = sender * deviceCount + receiver
        let link = sharedDelay ?? tables.delay(from: sender, to: receiver)
        var draw: Int64 = 0
        if link.jitter > 0 {
            if !started[index] {
                started[index] = true
                generators[index] = SplitMix64(seed: streams.streamSeed(key: tables.linkKeys[index]))
            }
            draw = Int64(clamping: generators[index].next(below: link.jitter))
        }
        return VirtualDuration(nanoseconds: VirtualDuration.saturatingSum(link.latency, draw))
    }

    /// When a copy sent at `now` from `sender` reaches `receiver`: `now` plus the link's
    /// next delay; on a FIFO network never before the link's previous copy (a tie keeps
    /// send order, since events at one instant run in the order they were scheduled).
    mutating func arrival(from sender: Int, to receiver: Int, sentAt now: VirtualTime) -> VirtualTime {
        let time = now + delay(from: sender, to: receiver)
        guard fifo else { return time }
        let index = sender * deviceCount + receiver
        let kept = max(time, lastArrival[index])
        lastArrival[index] = kept
        return kept
    }

    /// The least and the most delay a copy from `sender` to `receiver` can have, in
    /// nanoseconds: latency, and latency plus jitter less one (draws are in [0, jitter)).
    func bounds(from sender: Int, to receiver: Int) -> (earliest: Int64, latest: Int64) {
        let link = tables.delay(from: sender, to: receiver)
        let spread = link.jitter > 0 ? Int64(clamping: link.jitter - 1) : 0
        let (latest, overflow) = link.latency.addingReportingOverflow(spread)
        return (link.latency, overflow ? Int64.max : latest)
    }

    mutating func setOffline(_ device: Int, _ value: Bool) { offline[device] = value }
}
