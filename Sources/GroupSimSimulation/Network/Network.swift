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
struct Network: Sendable {
    struct Link: Sendable {
        var latency: Int64
        var jitter: UInt64
        var generator: SplitMix64
    }

    let deviceCount: Int
    /// Whether each link keeps its copies in send order (`network.fifo`).
    let fifo: Bool
    private var links: [Link]
    /// FIFO only: per link, when its latest copy arrives.
    private var lastArrival: [VirtualTime]
    /// Devices that are not receiving now (M30).
    private(set) var offline: [Bool]
    /// Copies that reached an offline device, waiting for it to come back (M30).
    var held: [[Envelope]]
    /// Messages sent while their sender was offline, waiting to leave (M30).
    var outbox: [[Envelope]]

    /// Resolves every ordered pair's latency and jitter: the base values, then each
    /// `links:` entry that matches in file order, the last match winning. A person stands
    /// for all their devices.
    init(spec: NetworkSpec, devices: [DeviceSpec], streams: RandomStreams) {
        deviceCount = devices.count
        fifo = spec.fifo
        var links: [Link] = []
        links.reserveCapacity(devices.count * devices.count)
        for from in devices {
            for to in devices {
                var latency = spec.latency
                var jitter = spec.jitter
                for link in spec.links where Self.matches(link.from, from) && Self.matches(link.to, to) {
                    latency = link.latency ?? latency
                    jitter = link.jitter ?? jitter
                }
                links.append(Link(latency: latency.nanoseconds, jitter: UInt64(max(0, jitter.nanoseconds)),
                                  generator: streams.stream(.latency, from.name, to.name)))
            }
        }
        self.links = links
        lastArrival = fifo ? Array(repeating: .zero, count: links.count) : []
        offline = Array(repeating: false, count: devices.count)
        held = Array(repeating: [], count: devices.count)
        outbox = Array(repeating: [], count: devices.count)
    }

    private static func matches(_ endpoint: LinkSpec.Endpoint, _ device: DeviceSpec) -> Bool {
        switch endpoint {
        case .device(let name): name == device.name
        case .person(let key): key == device.person
        }
    }

    /// The delay of the next copy from `sender` to `receiver`: latency plus a jitter draw.
    /// A scenario file keeps both within 365 days; one built in Swift with larger values
    /// gets a delay held at `Int64.max` nanoseconds rather than a crash.
    mutating func delay(from sender: Int, to receiver: Int) -> VirtualDuration {
        let index = sender * deviceCount + receiver
        let jitter = links[index].jitter
        let draw = jitter > 0 ? Int64(clamping: links[index].generator.next(below: jitter)) : 0
        return VirtualDuration(nanoseconds: VirtualDuration.saturatingSum(links[index].latency, draw))
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
        let link = links[sender * deviceCount + receiver]
        let spread = link.jitter > 0 ? Int64(clamping: link.jitter - 1) : 0
        let (latest, overflow) = link.latency.addingReportingOverflow(spread)
        return (link.latency, overflow ? Int64.max : latest)
    }

    mutating func setOffline(_ device: Int, _ value: Bool) { offline[device] = value }
}
