import GroupSimCore

extension Scenario {
    /// One entry of `steps:`: a single step, or a race of near-simultaneous steps.
    public enum TimelineItem: Sendable, Hashable {
        case step(Step)
        case race(Race)
    }
}

extension Scenario {
    /// `race: {within, steps}`: each inner step starts at `time` plus a seeded offset in [0, within).
    public struct Race: Sendable, Hashable {
        public var time: VirtualTime
        public var within: VirtualDuration
        public var steps: [Step]
        public var location: SourceLocation?

        public init(time: VirtualTime, within: VirtualDuration, steps: [Step], location: SourceLocation? = nil) {
            self.time = time
            self.within = within
            self.steps = steps
            self.location = location
        }
    }
}

extension Scenario {
    /// One user action on one device at one instant.
    public struct Step: Sendable, Hashable {
        /// 1-based, in file order, counting a race's inner steps and not the race itself.
        public var number: Int
        /// The step's time: absolute (`at:`), or the previous step's plus `after:`. Inside a
        /// race: the race's time (the seeded offset is added when the run is scheduled).
        public var time: VirtualTime
        public var device: String
        /// The conversation it acts in; nil means the only one.
        public var conversation: String?
        public var action: Action
        public var location: SourceLocation?

        public init(number: Int, time: VirtualTime, device: String, conversation: String? = nil, action: Action,
            location: SourceLocation? = nil) {
            self.number = number
            self.time = time
            self.device = device
            self.conversation = conversation
            self.action = action
            self.location = location
        }
    }
}

extension Scenario {
    /// What the user does (docs/scenario-format.md, "Steps").
    public enum Action: Sendable, Hashable {
        /// Open the app if needed, compose in the session, insert, tap Send (or direct send).
        case send(Compose)
        /// Tap the session's live bubble, apply `data` to its state, insert, tap Send.
        case reply(Compose)
        /// Stage only (M16).
        case insert(Compose)
        /// The user taps Send on the staged draft (M17).
        case pressSend
        /// The user removes the staged draft (M17, `didCancelSending`).
        case cancel
        /// Open the app from the drawer (M20).
        case open(PresentationStyle)
        /// Tap the session's live bubble (M21).
        case tap(session: String)
        /// Dismiss the app (M22).
        case close
        /// A plain text message.
        case text(String)
        /// Insert and send a sticker (M28, M29).
        case sticker(StickerSpec)
        /// Uninstall and reinstall the app on this device (M2).
        case reinstall
        /// The device stops receiving (M30).
        case offline
        /// The device resumes receiving; held copies arrive in order (M30).
        case online
        /// A member is added to the conversation (M6).
        case join(person: String)
        /// A member is removed from the conversation (M6).
        case leave(person: String)

    }
}

extension Scenario {
    /// The extension's presentation style (M19). `transcript` cannot be requested.
    public enum PresentationStyle: String, Sendable, Hashable, CaseIterable {
        case compact
        case expanded
        case transcript
    }
}

extension Scenario {
    /// What a `send`, `reply` or `insert` composes.
    public struct Compose: Sendable, Hashable {
        /// The session's name in the scenario (`poll`).
        public var session: String
        /// Changes to the shared state, in file order. `$me`/`$bob` become raw UUID strings (M4).
        public var data: [DataEntry]
        /// Layout text; `$me`/`$bob` become identifier tokens drawn as contact names (M5).
        public var caption: String?
        public var subcaption: String?
        /// The other text fields of the template layout (M9), drawn like the caption (M5).
        public var trailingCaption: String?
        public var trailingSubcaption: String?
        public var imageTitle: String?
        public var imageSubtitle: String?
        /// A name standing for the layout's image (M9): what an old system receives as a
        /// picture (M26). GroupSim draws no pixels.
        public var image: String?
        public var summary: String?
        /// An explicit message URL; the state's query items are added to it (M8 filters the scheme).
        public var url: String?
        /// Use the direct send API (M18) instead of insert and the user's tap.
        public var direct: Bool

        /// The template layout's fields a step can set (M9), by their names in a file.
        public enum LayoutField: String, Sendable, Hashable, CaseIterable {
            case caption, subcaption
            case trailingCaption = "trailing-caption"
            case trailingSubcaption = "trailing-subcaption"
            case imageTitle = "image-title"
            case imageSubtitle = "image-subtitle"
            case image

            /// Whether `$me` and `$PERSON` in it are drawn as contact names (M5): every text
            /// field; `image` is a name.
            public var drawsTokens: Bool { self != .image }
        }

        /// One layout field by its name.
        public subscript(field: LayoutField) -> String? {
            get {
                switch field {
                case .caption: caption
                case .subcaption: subcaption
                case .trailingCaption: trailingCaption
                case .trailingSubcaption: trailingSubcaption
                case .imageTitle: imageTitle
                case .imageSubtitle: imageSubtitle
                case .image: image
                }
            }
            set {
                switch field {
                case .caption: caption = newValue
                case .subcaption: subcaption = newValue
                case .trailingCaption: trailingCaption = newValue
                case .trailingSubcaption: trailingSubcaption = newValue
                case .imageTitle: imageTitle = newValue
                case .imageSubtitle: imageSubtitle = newValue
                case .image: image = newValue
                }
            }
        }

        public init(session: String, data: [DataEntry] = [], caption: String? = nil, subcaption: String? = nil,
                    summary: String? = nil, url: String? = nil, direct: Bool = false) {
            self.session = session
            self.data = data
            self.caption = caption
            self.subcaption = subcaption
            self.summary = summary
            self.url = url
            self.direct = direct
        }
    }
}

extension Scenario {
    /// One `key: value` of `data`, both as strings.
    public struct DataEntry: Sendable, Hashable {
        public var key: String
        public var value: String

        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }
}

extension Scenario {
    /// Where a sticker's `file:` is read from: a relative path is relative to the folder of
    /// the scenario file (the working folder for one read from standard input), as a
    /// reader of the file expects.
    public func stickerPath(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let folder = file.contains("/") ? String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)]) : "."
        return folder + "/" + path
    }

    /// Every sticker file the scenario's steps read, in step order, each once: files a
    /// command must never write over.
    public var stickerFiles: [String] {
        var paths: [String] = []
        for step in steps {
            guard case .sticker(.file(let path, _)) = step.action else { continue }
            let resolved = stickerPath(path)
            if !paths.contains(resolved) { paths.append(resolved) }
        }
        return paths
    }

    /// A sticker to send: described by its attributes, or a real file (M28).
    public enum StickerSpec: Sendable, Hashable {
        case described(format: String, bytes: Int, pixels: Int, description: String)
        case file(path: String, description: String)
    }
}
