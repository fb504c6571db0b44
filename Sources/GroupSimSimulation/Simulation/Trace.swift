import GroupSimCore
import GroupSimScenario

extension Simulation.Trace {
    /// One thing that happened in a run, at a virtual instant, on a device (or the network,
    /// or the cloud store).
    ///
    /// The digest is computed over a canonical encoding of every event (`encode(into:)`): its
    /// time, subject and kind with their fields, and its typed `payload`, each field
    /// length-prefixed so that no two different events encode alike. Only integers, names
    /// and texts from the scenario and the app, and identifiers minted from the seed.
    public struct Event: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// A user action began (1-based step number, file order), with the action as the
            /// scenario wrote it; printed as its `summary` (`tap poll`, `send poll (direct)`).
            indirect case step(number: Int, action: Scenario.Action)
            /// The extension received a callback (M19-M24).
            case callback(AppCallback)
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
            /// A step failed with a code (docs/behaviour.md error codes). `step` is the step
            /// running then; `origin`, for a failure after its step ended, the step it follows
            /// from. The origin is not part of `kindText`, nor so of the digest: it follows
            /// from the events before it (the step, the cloud requests and answers), so two
            /// runs whose origins differ differ there.
            case failed(step: Int?, code: MessageErrorCode, origin: RunOutcome.StepFailure.Origin? = nil)
            /// The app was uninstalled and reinstalled: a new identifier set (M2).
            case reinstalled(local: ParticipantID)
            case offline
            case online
            case joined(person: String)
            case left(person: String)
            /// The url setter dropped a URL with a custom scheme (M8).
            case droppedURL(url: String)
            /// The device's app asked the cloud store to fetch or store the record `key`
            /// (M13); the payload holds the request (`.cloud(operation:record: nil)`).
            case cloudRequest(CloudOperation, key: String)
            /// The cloud store handled `device`'s request for `key`, leaving the record at
            /// `version` (M13); the payload holds the request and the store's record.
            indirect case cloudHandled(CloudHandling, key: String, device: String, version: Int)
            /// The store's answer reached the device: the record `key` at `version` (M13); the
            /// payload holds the record as answered.
            case cloudAnswer(CloudAnswer, key: String, version: Int)
            /// A pitfall seen while the app read something (M2, M4, M15).
            case pitfall(Scenario.PitfallKind, detail: String)
            /// Something the system did that changes no state (a browser opened, M25).
            case note(Note)
        }

        /// What an event carries beyond its kind's fields, typed: the content a reader of the
        /// trace (and its digest) needs to tell two runs apart.
        package enum Payload: Sendable, Hashable {
            /// The app's message as staged or sent: URL, layout and summary (M7).
            case message(Message)
            /// A cloud request as the app made it (`record` nil), or the store's record as it
            /// answered: content, version and whether a conditional write was refused (M13).
            case cloud(operation: CloudRequest.Operation?, record: AppAction.CloudRecord?)
            /// Why a step or app action failed, and the rule it follows from (`StepFailure.rule`).
            case failure(reason: String, rule: Rule?)
            /// What a plain text message or a sticker says.
            case text(String)
        }

        public var time: VirtualTime
        /// The device, `network` or `cloud`.
        public var subject: String
        public var kind: Kind
        package var payload: Payload?

        package init(time: VirtualTime, subject: String, kind: Kind, payload: Payload? = nil) {
            self.time = time
            self.subject = subject
            self.kind = kind
            self.payload = payload
        }

        /// Feeds the event's canonical encoding to `encoder`.
        func encode(into encoder: inout CanonicalEncoder) {
            encoder.int(time.nanoseconds)
            encoder.string(subject)
            encoder.string(kindText)
            switch payload {
            case nil:
                encoder.string("-")
            case .message(let message):
                encoder.string("message")
                encoder.message(message)
            case .cloud(let operation, let record):
                encoder.string("cloud")
                switch operation {
                case nil: encoder.string("-")
                case .fetch: encoder.string("fetch")
                case .store(let write): encoder.write(write)
                }
                if let record {
                    encoder.string(record.key)
                    encoder.optionalState(record.state)
                    encoder.int(Int64(record.version))
                    encoder.int(record.conflict ? 1 : 0)
                } else {
                    encoder.string("-")
                }
            case .failure(let reason, _):
                // The rule is not encoded: the reason cites it, and digests stay as they were.
                encoder.string("failure")
                encoder.string(reason)
            case .text(let text):
                encoder.string("text")
                encoder.string(text)
            }
        }

        /// `t=500000000 bob-phone sent m2 session=poll url=?bob=tomatoes&q=topping`.
        public var canonicalText: String { "t=\(time.nanoseconds) \(subject) \(kindText)" }

        /// The event without its time and subject, for printing: the kind's name and fields.
        ///
        /// This text is also the kind's part of the canonical encoding (`encode(into:)`), so
        /// it is written from the typed fields exactly as it always was: changing a word here
        /// changes every digest. Reports read the typed fields, never this text.
        public var kindText: String {
            switch kind {
            case .step(let number, let action): "step \(number) \(action.summary)"
            case .callback(let callback): "callback \(callback.rawValue)"
            case .staged(let session): "staged session=\(session ?? "-")"
            case .cancelled: "cancelled draft"
            case .sent(let message, let session, let url): "sent m\(message) session=\(session ?? "-") url=\(url ?? "-")"
            case .delivered(let message, let from): "delivered m\(message) from=\(from)"
            case .held(let message): "held m\(message) (offline)"
            case .queued(let message): "queued m\(message) (sender offline)"
            case .collapsed(let session, let replaced, let summary):
                "collapsed session=\(session) replaced=m\(replaced) \(summary ? "summary line" : "removed")"
            case .failed(let step, let code, _): "failed step=\(step.map(String.init) ?? "-") \(code.name)"
            case .reinstalled(let local): "reinstalled local=\(local.uuidString)"
            case .offline: "offline"
            case .online: "online"
            case .joined(let person): "joined \(person)"
            case .left(let person): "left \(person)"
            case .droppedURL(let url): "dropped-url \(url)"
            case .cloudRequest(let operation, let key): "cloud \(operation.rawValue) \(key)"
            case .cloudHandled(let handling, let key, let device, let version): "cloud \(handling.text) \(key) from \(device) -> "
                + "v\(version)"
            case .cloudAnswer(let answer, let key, let version): "cloud \(answer.rawValue) \(key) v\(version)"
            case .pitfall(let kind, let detail): "pitfall \(kind.rawValue) \(detail)"
            case .note(let note): "note \(note.text)"
            }
        }

        /// The event as the timelines print it: `kindText`, except that a failure after its
        /// step ended names the step it follows from and how
        /// (`failed step=1 (via cloud fetch, cloud store, 20m later) sendWithoutRecentInteraction`).
        public var printedText: String {
            guard case .failed(nil, let code, let origin?) = kind else { return kindText }
            return "failed step=\(origin.step) (\(origin.text(failedAt: time))) \(code.name)"
        }
    }
}

extension Simulation {
    /// Every event of a run in order, and its digest.
    public struct Trace: Sendable {
        public private(set) var events: [Event] = []

        package init() {}

        package mutating func append(_ event: Event) { events.append(event) }

        package mutating func append(contentsOf more: [Event]) { events.append(contentsOf: more) }

        /// SHA-256 over the canonical encoding of every event. The same scenario and seed give
        /// the same digest on every run and machine. `RunOutcome.digest` and `RunReport.digest`
        /// go on to cover the final state and the verdicts.
        public var digest: String {
            var encoder = CanonicalEncoder()
            encode(into: &encoder)
            return encoder.hexDigest
        }

        func encode(into encoder: inout CanonicalEncoder) {
            encoder.int(Int64(events.count))
            for event in events { event.encode(into: &encoder) }
        }
    }
}

/// Feeds typed values to SHA-256 unambiguously: every field is a tag-free, length-prefixed
/// byte string (integers as their decimal text), so two different sequences of fields
/// never give the same bytes.
package struct CanonicalEncoder {
    private var hasher = SHA256()
    package init() {}

    package mutating func string(_ text: String) {
        let bytes = Array(text.utf8)
        var length = UInt64(bytes.count).bigEndian
        withUnsafeBytes(of: &length) { hasher.update($0) }
        hasher.update(bytes)
    }

    package mutating func int(_ value: Int64) { string(String(value)) }

    mutating func optional(_ text: String?) {
        if let text {
            string("+")
            string(text)
        } else {
            string("-")
        }
    }

    mutating func state(_ state: StateMap) {
        int(Int64(state.entries.count))
        for entry in state.entries {
            string(entry.key)
            string(entry.value)
        }
    }

    mutating func optionalState(_ state: StateMap?) {
        if let state {
            string("+")
            self.state(state)
        } else {
            string("-")
        }
    }

    mutating func message(_ message: Message) {
        optional(message.session?.name)
        optional(message.url)
        let layout = message.layout
        for field in [layout.image, layout.mediaFileURL, layout.imageTitle, layout.imageSubtitle, layout.caption,
                      layout.subcaption, layout.trailingCaption, layout.trailingSubcaption] {
            optional(field)
        }
        optional(message.summaryText)
        optional(message.accessibilityLabel)
        int(message.shouldExpire ? 1 : 0)
    }

    mutating func write(_ write: AppAction.CloudWrite) {
        switch write {
        case .overwrite(let state):
            string("overwrite")
            self.state(state)
        case .merge(let entries):
            string("merge")
            int(Int64(entries.count))
            for entry in entries {
                string(entry.key)
                string(entry.value)
            }
        case .conditional(let expected, let state):
            string("conditional")
            int(Int64(expected))
            self.state(state)
        }
    }

    package var hexDigest: String { hasher.hexDigest }
}
