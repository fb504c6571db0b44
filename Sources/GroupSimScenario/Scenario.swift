import GroupSimCore

/// A validated scenario: people and their devices, the conversations, the network, the
/// app, a timeline of user actions and the checks that must hold at the end.
///
/// Made by `ScenarioParser` from a scenario file (docs/scenario-format.md) or built directly
/// in Swift. Every array keeps file order, which is the order the simulation uses
/// wherever order matters (determinism rule 4, README: never a dictionary's order).
public struct Scenario: Sendable, Hashable {
    public var name: String
    public var about: String?
    /// The seed of every random draw (default 1); `--seed` overrides it.
    public var seed: UInt64
    public var people: [Person]
    /// Every device of every person, in the order the people and their devices are listed.
    public var devices: [DeviceSpec]
    /// One conversation (named `group`) unless the file lists several with `conversations:`.
    public var conversations: [ConversationSpec]
    public var network: NetworkSpec
    public var app: AppSpec
    public var options: Options
    /// The user actions, in file order; a race keeps its inner steps together.
    public var timeline: [TimelineItem]
    public var checks: [CheckSpec]
    /// The file the scenario was read from, for diagnostics ("<swift>" when built in code).
    public var file: String

    public init(
        name: String, about: String? = nil, seed: UInt64 = 1, people: [Person], devices: [DeviceSpec],
        conversations: [ConversationSpec], network: NetworkSpec = NetworkSpec(), app: AppSpec = AppSpec(),
        options: Options = Options(), timeline: [TimelineItem], checks: [CheckSpec] = [], file: String = "<swift>"
    ) {
        self.name = name
        self.about = about
        self.seed = seed
        self.people = people
        self.devices = devices
        self.conversations = conversations
        self.network = network
        self.app = app
        self.options = options
        self.timeline = timeline
        self.checks = checks
        self.file = file
    }

    /// Every step in file order, a race's inner steps in place of the race: the numbering
    /// that `error: {step: N}` checks use (1-based).
    public var steps: [Step] {
        // Appended one by one: a one-step array made for each item was an allocation per step.
        var steps: [Step] = []
        steps.reserveCapacity(timeline.count)
        for item in timeline {
            switch item {
            case .step(let step): steps.append(step)
            case .race(let race): steps.append(contentsOf: race.steps)
            }
        }
        return steps
    }

    public func person(_ key: String) -> Person? { people.first { $0.key == key } }
    public func device(_ name: String) -> DeviceSpec? { devices.first { $0.name == name } }
}

extension Scenario {
    /// A person: the key used in the file (`alice`), the contact name others see, their devices.
    public struct Person: Sendable, Hashable {
        public var key: String
        /// What other devices draw for this person (M5): `name:` or the capitalised key.
        public var contactName: String
        public var devices: [String]

        public init(key: String, contactName: String? = nil, devices: [String]) {
            self.key = key
            self.contactName = contactName ?? Person.defaultContactName(for: key)
            self.devices = devices
        }

        /// `alice` -> `Alice`: the key with its first letter capitalised.
        public static func defaultContactName(for key: String) -> String {
            guard let first = key.first else { return key }
            return first.uppercased() + key.dropFirst()
        }
    }
}

extension Scenario {
    /// One device and its settings (`devices:` in the file).
    public struct DeviceSpec: Sendable, Hashable {
        public enum Platform: String, Sendable, Hashable, CaseIterable {
            /// Creates and runs interactive messages.
            case ios
            /// Draws the template layout; a click opens http(s) URLs only (M25).
            case macos
            /// Draws the bubble; replies are handed off to the iPhone (M25).
            case watchos
            /// Receives two plain messages instead: the image, then the URL (M26).
            case ios9
        }

        public var name: String
        /// The key of the person who owns it.
        public var person: String
        public var platform: Platform
        /// Whether the extension is installed (`app: installed`, the default) or `missing` (M27).
        public var hasApp: Bool

        public init(name: String, person: String, platform: Platform = .ios, hasApp: Bool = true) {
            self.name = name
            self.person = person
            self.platform = platform
            self.hasApp = hasApp
        }

        /// Whether the extension can run here: iOS with the app installed (docs/scenario-format.md, `converged`).
        public var runsApp: Bool { platform == .ios && hasApp }

        /// Whether Messages draws app messages here as bubbles: everywhere but on an old
        /// system, which draws plain messages instead (M26).
        @inlinable public var drawsBubbles: Bool { platform != .ios9 }
    }
}

extension Scenario {
    /// A conversation and its initial members, by person key.
    public struct ConversationSpec: Sendable, Hashable {
        /// `group` for the single `conversation:` form.
        public var name: String
        public var members: [String]

        public static let defaultName = "group"

        public init(name: String = ConversationSpec.defaultName, members: [String]) {
            self.name = name
            self.members = members
        }
    }
}

extension Scenario {
    /// The in-process network (`network:`): base latency and jitter, and per-link overrides.
    public struct NetworkSpec: Sendable, Hashable {
        /// Base one-way delay of every copy (default 50ms).
        public var latency: VirtualDuration
        /// Each copy adds a seeded uniform draw in [0, jitter) (default 0ms).
        public var jitter: VirtualDuration
        /// Directional overrides; the last entry that matches a copy's sender and receiver wins.
        public var links: [LinkSpec]
        /// Whether each sender-to-receiver link delivers in send order (`fifo: true`): a copy
        /// never overtakes an earlier copy from the same device to the same device, in plain
        /// runs and in exploration alike. Default false: each copy's delay is drawn on its
        /// own, so jitter may deliver one sender's newer message before its older one, as
        /// Messages promises no order and arrival order alone decides what a device shows
        /// (M11, M30).
        public var fifo: Bool

        public init(latency: VirtualDuration = .milliseconds(50), jitter: VirtualDuration = .zero, links: [LinkSpec] = [],
                    fifo: Bool = false) {
            self.latency = latency
            self.jitter = jitter
            self.links = links
            self.fifo = fifo
        }
    }
}

extension Scenario {
    /// One `links:` entry: from and to are a device name or a person key (all their devices).
    public struct LinkSpec: Sendable, Hashable {
        public enum Endpoint: Sendable, Hashable {
            case device(String)
            case person(String)
        }

        public var from: Endpoint
        public var to: Endpoint
        /// nil keeps the base latency.
        public var latency: VirtualDuration?
        /// nil keeps the base jitter.
        public var jitter: VirtualDuration?

        public init(from: Endpoint, to: Endpoint, latency: VirtualDuration? = nil, jitter: VirtualDuration? = nil) {
            self.from = from
            self.to = to
            self.latency = latency
            self.jitter = jitter
        }
    }
}

extension Scenario {
    /// The app under test (`app:`).
    public struct AppSpec: Sendable, Hashable {
        /// Where the built-in app keeps the shared state (docs/scenario-format.md, `app.state`).
        public enum StateMode: String, Sendable, Hashable, CaseIterable {
            /// The whole map travels in the message URL; loses updates under races (M12).
            case message
            /// The URL carries a token; fetch, change, write the whole map back (M13).
            case cloudOverwrite = "cloud-overwrite"
            /// As cloud-overwrite, but the write is an atomic merge at the store (M13).
            case cloudMerge = "cloud-merge"
            /// As cloud-overwrite, but the write is a compare-and-set on the version read;
            /// on conflict the app re-reads, re-applies its change and retries (M13).
            case cloudCAS = "cloud-cas"

            /// Whether the state lives in the cloud store (the URL carries only a token).
            public var usesCloud: Bool { self != .message }
        }

        /// What the built-in app writes for `$me` and `$name` in `data`: the key that says
        /// whose choice an entry is (the `app.identity` setting).
        public enum Identity: String, Sendable, Hashable, CaseIterable {
            /// The sender's raw participant identifier: means nothing on other devices (M1, M4).
            case participantID = "participant-id"
            /// A random id each installation creates once and keeps in its local storage
            /// (wiped by a reinstall, M2), sent with every message: attributable everywhere,
            /// but one per device.
            case installID = "install-id"
            /// The app's own sign-in: every device of a person shares one account id.
            case account
        }

        /// Which bubble the built-in app builds a reply on where the state travels in the
        /// message (`app.state: message`; the `app.selection` setting).
        public enum Selection: String, Sendable, Hashable, CaseIterable {
            /// selectedMessage, as tapped: stale once newer bubbles arrive (M15).
            case tapped
            /// The newest bubble of the session the app was handed: selectedMessage, or a
            /// later one that didReceive handed it while it was open (M15, M23).
            case newest
        }

        /// When the built-in app writes the cloud record in the cloud modes (the `app.push`
        /// setting, M13).
        public enum Push: String, Sendable, Hashable, CaseIterable {
            /// When the user taps Send (`didStartSending`): a draft the user removes
            /// changes nothing, as the documents describe it.
            case onSend = "on-send"
            /// As soon as the message is composed, before it is staged: a draft the user
            /// then removes has already changed the record everyone reads.
            case onCompose = "on-compose"
        }

        /// A registered app's name; nil for the built-in app.
        public var name: String?
        public var state: StateMode
        /// One-way delay to the cloud store (default 20ms).
        public var cloudLatency: VirtualDuration
        /// What `$me`/`$name` in `data` become (default: the raw participant identifier).
        public var identity: Identity
        /// Which bubble a reply builds on (default: the tapped one).
        public var selection: Selection
        /// The URL query item that names the session's cloud record in the cloud modes
        /// (the `app.record-key` setting): the built-in app writes its token under it, and
        /// the checks read the record it names.
        public var recordKey: String
        /// When the built-in app writes the record (default: when the user taps Send).
        public var push: Push

        /// `app.record-key` when the file leaves it out.
        public static let defaultRecordKey = "session"

        public init(name: String? = nil, state: StateMode = .message, cloudLatency: VirtualDuration = .milliseconds(20),
                    identity: Identity = .participantID, selection: Selection = .tapped, recordKey: String = defaultRecordKey,
                    push: Push = .onSend) {
            self.name = name
            self.state = state
            self.cloudLatency = cloudLatency
            self.identity = identity
            self.selection = selection
            self.recordKey = recordKey
            self.push = push
        }
    }
}

extension Scenario {
    /// The undocumented behaviours (docs/behaviour.md), default first.
    public struct Options: Sendable, Hashable {
        /// What takes a collapsed bubble's place when it had no summary text (M10).
        public enum NilSummary: String, Sendable, Hashable, CaseIterable {
            case remove
            case defaultText = "default-text"
        }

        /// Whether identifiers are per device (default) or also per conversation (M6).
        public enum Identifiers: String, Sendable, Hashable, CaseIterable {
            case perDevice = "per-device"
            case perConversation = "per-conversation"
        }

        public var nilSummary: NilSummary
        public var identifiers: Identifiers
        /// Summary lines drawn above a session's live bubble (M14, default 3).
        public var summaryLines: Int
        /// How long after the user's last interaction with the extension a direct send is
        /// still allowed (M18, undocumented; default 60s). Closing the extension ends it.
        public var recentInteraction: VirtualDuration

        public init(nilSummary: NilSummary = .remove, identifiers: Identifiers = .perDevice, summaryLines: Int = 3,
                    recentInteraction: VirtualDuration = .seconds(60)) {
            self.nilSummary = nilSummary
            self.identifiers = identifiers
            self.summaryLines = summaryLines
            self.recentInteraction = recentInteraction
        }
    }
}
