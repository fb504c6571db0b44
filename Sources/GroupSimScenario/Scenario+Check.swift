import GroupSimCore

extension Scenario {
    /// One `expect:` entry with where it was written, evaluated when the simulation is quiet.
    public struct CheckSpec: Sendable, Hashable {
    public var check: Check
    public var location: SourceLocation?

    public init(_ check: Check, location: SourceLocation? = nil) {
        self.check = check
        self.location = location
    }
    }
}

extension Scenario {
    /// A check (docs/scenario-format.md, "Checks: expect"). Optional fields are checked only when given.
    public enum Check: Sendable, Hashable {
    /// The session's live bubble on `device` was sent by person `from`, its state contains
    /// every `data` entry, its drawn caption equals `caption`, and its other layout fields
    /// are drawn as `layout` says.
    case latest(device: String, session: String, from: String?, data: [DataEntry], caption: String?,
                layout: LayoutExpectation = LayoutExpectation())
    /// The plain messages `device` received instead of bubbles (an old system, M26): how
    /// many, and their texts in order.
    case plain(device: String, count: Int?, texts: [String]?)
    /// `device` shows `count` summary lines for the session, drawn as `texts`.
    case summaries(device: String, session: String, count: Int?, texts: [String]?)
    /// Every member device that runs the app would show the same state if tapped now.
    case converged(session: String)
    /// The negation of `converged`.
    case diverged(session: String)
    /// On every member device with the app, the state contains every `data` entry.
    case complete(session: String, data: [DataEntry])
    /// The run reported at least these pitfalls.
    case pitfalls([PitfallKind])
    /// The run reported none.
    case noPitfalls
    /// The run reported none of these kinds (`no-pitfalls: [lost-update]`); others may occur.
    case noPitfallsOf([PitfallKind])
    /// The app on `device` received exactly these callbacks, in order.
    case callbacks(device: String, sequence: [AppCallback])
    /// Step number `step` (1-based, file order) failed with `code`.
    case error(step: Int, code: MessageErrorCode)

    }
}

extension Scenario {
    /// What a `latest` check expects of the live bubble's layout besides its caption (M9),
    /// each field as drawn on the device (M5).
    public struct LayoutExpectation: Sendable, Hashable {
        /// Expected text per field; `caption` is the check's own `caption`.
        public var fields: [Compose.LayoutField: String]
        /// Whether the bubble has a caption bar: some caption field is set (M9).
        public var captionBar: Bool?

        public init(fields: [Compose.LayoutField: String] = [:], captionBar: Bool? = nil) {
            self.fields = fields
            self.captionBar = captionBar
        }

        /// The fields it expects, in the layout's order, as `(name, text)`.
        public var expected: [(field: Compose.LayoutField, text: String)] {
            Compose.LayoutField.allCases.compactMap { field in fields[field].map { (field, $0) } }
        }
    }
}

extension Scenario {
    /// The pitfalls GroupSim detects, with the rule each comes from.
    public enum PitfallKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case lostUpdate = "lost-update"
    case divergence
    case foreignIdentifier = "foreign-identifier"
    case staleIdentifier = "stale-identifier"
    case staleSelection = "stale-selection"
    case droppedURL = "dropped-url"
    /// A choice keyed by an identifier the device cannot resolve to a member (M1, M4).
    case unattributed
    /// One person's choice counted twice, under two of their devices' keys (M1, M3).
    case doubleCount = "double-count"
    /// A member who joined after a session's messages were sent has no bubble of it (M6).
    case joinedLate = "joined-late"
    /// Two devices' controllers hold the same object, which iOS, running each device's
    /// extension in its own process, never lets them share (M22).
    case sharedState = "shared-state"
    /// The user removed a draft whose change the app had already written to the cloud
    /// record everyone reads (`app.push: on-compose`, M13, M17).
    case cancelledWrite = "cancelled-write"

    public static func < (lhs: Self, rhs: Self) -> Bool {
        ordered.firstIndex(of: lhs) ?? 0 < ordered.firstIndex(of: rhs) ?? 0
    }

    /// `allCases`, made once: each comparison of every explored run's kinds made that array twice.
    private static let ordered = allCases
    }
}
