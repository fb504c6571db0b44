/// The in-process network between devices: per-link latency and jitter, and store and
/// forward for offline devices (M30).
///
/// Each copy's delay is its link's latency plus a seeded uniform draw in [0, jitter).
/// Every ordered pair of devices has its own random stream, so a copy on one link never
/// shifts the draws of another (DESIGN.md rule 2).
struct Network: Sendable {
    struct Link: Sendable {
        var latency: Int64
        var jitter: UInt64
        var generator: SplitMix64
    }

    let deviceCount: Int
    private var links: [Link]
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

    mutating func setOffline(_ device: Int, _ value: Bool) { offline[device] = value }
}
