/// One thing that happened in a run, at a virtual instant, on a device (or the network,
/// or the cloud store).
///
/// Its `canonicalText` is the stable form the digest is computed over (DESIGN.md rule 6):
/// only integers, names from the scenario and identifiers minted from the seed.
public struct TraceEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A user action began (1-based step number, file order).
        case step(number: Int, action: String)
        /// The extension received a callback (M19-M24).
        case callback(String)
        /// A draft was staged in the input field (M16).
        case staged(session: String?)
        /// The user removed the draft (M17).
        case cancelled
        /// A message left this device (M11: collapse here happens now).
        case sent(message: Int, session: String?, url: String?)
        /// A copy reached this device.
        case delivered(message: Int, from: String)
        /// A copy reached an offline device and waits (M30).
        case held(message: Int)
        /// An outgoing message waits for its offline sender to come back (M30).
        case queued(message: Int)
        /// A session's previous bubble left its place (M10).
        case collapsed(session: String, replaced: Int, summary: Bool)
        /// A step failed with a code (MESSAGES.md error codes).
        case failed(step: Int?, code: MessageErrorCode)
        /// The app was uninstalled and reinstalled: a new identifier set (M2).
        case reinstalled(local: ParticipantID)
        case offline
        case online
        case joined(person: String)
        case left(person: String)
        /// The url setter dropped a URL with a custom scheme (M8).
        case droppedURL(String)
        /// A request reached the cloud store, or its answer reached the device (M13).
        case cloud(String)
        /// A pitfall seen while the app read something (M2, M4, M15).
        case pitfall(PitfallKind, detail: String)
        /// Something the system did that changes no state (a browser opened, M25).
        case note(String)
    }

    public var time: VirtualTime
    /// The device, `network` or `cloud`.
    public var subject: String
    public var kind: Kind

    public init(time: VirtualTime, subject: String, kind: Kind) {
        self.time = time
        self.subject = subject
        self.kind = kind
    }

    /// `t=500000000 bob-phone sent m2 session=poll url=?bob=tomatoes&q=topping`.
    public var canonicalText: String { "t=\(time.nanoseconds) \(subject) \(kindText)" }

    /// The event without its time and subject, for printing.
    public var kindText: String {
        switch kind {
        case .step(let number, let action): "step \(number) \(action)"
        case .callback(let name): "callback \(name)"
        case .staged(let session): "staged session=\(session ?? "-")"
        case .cancelled: "cancelled draft"
        case .sent(let message, let session, let url): "sent m\(message) session=\(session ?? "-") url=\(url ?? "-")"
        case .delivered(let message, let from): "delivered m\(message) from=\(from)"
        case .held(let message): "held m\(message) (offline)"
        case .queued(let message): "queued m\(message) (sender offline)"
        case .collapsed(let session, let replaced, let summary):
            "collapsed session=\(session) replaced=m\(replaced) \(summary ? "summary line" : "removed")"
        case .failed(let step, let code): "failed step=\(step.map(String.init) ?? "-") \(code.name)"
        case .reinstalled(let local): "reinstalled local=\(local.uuidString)"
        case .offline: "offline"
        case .online: "online"
        case .joined(let person): "joined \(person)"
        case .left(let person): "left \(person)"
        case .droppedURL(let url): "dropped-url \(url)"
        case .cloud(let text): "cloud \(text)"
        case .pitfall(let kind, let detail): "pitfall \(kind.rawValue) \(detail)"
        case .note(let text): "note \(text)"
        }
    }
}

/// Every event of a run in order, and its digest.
public struct Trace: Sendable {
    public private(set) var events: [TraceEvent] = []

    public init() {}

    public mutating func append(_ event: TraceEvent) { events.append(event) }

    public mutating func append(contentsOf more: [TraceEvent]) { events.append(contentsOf: more) }

    /// SHA-256 over the canonical text of every event, one per line (DESIGN.md rule 6).
    /// The same scenario and seed give the same digest on every run and machine.
    public var digest: String {
        var hasher = SHA256()
        for event in events {
            hasher.update(event.canonicalText)
            hasher.update(CollectionOfOne(UInt8(ascii: "\n")))
        }
        return hasher.hexDigest
    }
}
