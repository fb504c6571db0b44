extension ScenarioParser {
    /// One validation pass over one file: the problems found so far, and what the file
    /// has declared so far (people, devices, conversations, steps, sessions) for the
    /// sections that refer to them.
    ///
    /// Each `knowsAll…` flag turns false when part of a section could not be read;
    /// "unknown name" errors against that section are then left out, because the name
    /// may well be among the unread part and the real error is already reported.
    /// Dictionaries here serve lookups only; nothing iterates them (determinism rule 4, README).
    struct Context {
        let file: String
        let registeredApps: [String]
        let limits: ScenarioLimits
        private(set) var errors: [ScenarioError] = []
        /// For each entry of `errors`, the suggestion still to look up, if any: looked up
        /// only for the errors that are reported in full (see `errorsInFileOrder`).
        private var pendingSuggestions: [PendingSuggestion?] = []

        /// Every person, in file order.
        var people: [Scenario.Person] = []
        /// Their keys, in the same order: the candidates of "did you mean", kept as one
        /// list so that a suggestion never rebuilds it.
        var personKeys: [String] = []
        var personIndex: [String: Int] = [:]
        var knowsAllPeople = true

        /// Every device, in the order people and their devices are listed.
        var devices: [Scenario.DeviceSpec] = []
        /// Their names, in the same order (see `personKeys`).
        var deviceNames: [String] = []
        var deviceIndex: [String: Int] = [:]
        var knowsAllDevices = true

        var conversations: [Scenario.ConversationSpec] = []
        var knowsAllConversations = true
        /// Conversations with a member that could not be read: membership is not checked for them.
        var conversationsWithUnreadMembers: Set<String> = []

        /// Every step that was read without error, in file order, for the checks across steps.
        var drafts: [StepDraft] = []
        /// False when some race's steps could not be read, so step numbers past it are unknown.
        var knowsStepCount = true
        var stepCount = 0

        /// Every session name a `send` or `insert` uses, in file order of first use.
        var sessionNames: [String] = []
        var sessionNameSet: Set<String> = []
        /// False when a step that may have been a `send` or `insert` could not be read.
        var knowsAllSessions = true
        /// Where each session began and the conversation it belongs to (see `checkTimeline`).
        var sessionOrigins: [String: SessionOrigin] = [:]

        /// For a scenario built in Swift and printed as a file to be validated: the path
        /// of the key at each place of the printed text, which messages then cite instead
        /// of a line (`Scenario.validate`).
        let paths: [Position: String]?

        init(file: String, registeredApps: [String], limits: ScenarioLimits = .default, paths: [Position: String]? = nil) {
            self.file = file
            self.registeredApps = registeredApps
            self.limits = limits
            self.paths = paths
        }

        /// How a message refers to another place: `line 4`, or for a scenario built in
        /// Swift the path of the key there (`people.bob[1]`).
        func place(_ location: Scenario.SourceLocation) -> String {
            paths?[Position(location)] ?? "line \(location.line)"
        }

        /// Records one problem.
        mutating func report(_ message: String, at location: Scenario.SourceLocation?, suggestion: String? = nil,
                             code: ScenarioError.Code = .invalid) {
            errors.append(ScenarioError(message, at: location, suggestion: suggestion, code: code))
            pendingSuggestions.append(nil)
        }

        /// Records one problem whose suggestion is the nearest of `lists` to `word`,
        /// looked up only if the problem is reported in full. `prefix` goes before the
        /// suggestion (`$` for tokens); `otherwise` ends the message when nothing is near.
        mutating func report(
            _ message: String, at location: Scenario.SourceLocation, nearestTo word: String, in lists: [[String]],
            prefix: String = "", otherwise: String? = nil
        ) {
            errors.append(ScenarioError(message, at: location, code: .unknown))
            pendingSuggestions.append(PendingSuggestion(word: word, lists: lists, prefix: prefix, otherwise: otherwise))
        }

        /// The problems by line, then column (those with no place first); problems at the
        /// same place keep the order they were found in; exact repeats are dropped. With a
        /// `limit`, only the first `limit` are returned, with the number left out: the
        /// suggestions are looked up for those only, so a file with thousands of misspelt
        /// names costs time linear in its size.
        func errorsInFileOrder(limit: Int? = nil) -> (errors: [ScenarioError], omitted: Int) {
            let ordered = errors.indices.sorted { lhs, rhs in
                let left = Self.sortKey(errors[lhs].location), right = Self.sortKey(errors[rhs].location)
                return left != right ? left < right : lhs < rhs
            }
            var kept: [Int] = []
            for index in ordered {
                if let last = kept.last, errors[last] == errors[index], pendingSuggestions[last]?.word == pendingSuggestions[index]?.word {
                    continue
                }
                kept.append(index)
            }
            let shown = limit.map { min(max(0, $0), kept.count) } ?? kept.count
            // One prepared index per list: a list a suggestion captured is a snapshot of an
            // append-only namespace, so the snapshots of one size share their storage.
            var indices: [ListKey: Suggestion.Index] = [:]
            func prepared(_ list: [String]) -> Suggestion.Index {
                let key = ListKey(list)
                if let index = indices[key] { return index }
                let index = Suggestion.Index(list)
                indices[key] = index
                return index
            }
            let result = kept.prefix(shown).map { index in
                var error = errors[index]
                if let pending = pendingSuggestions[index] {
                    if let near = Suggestion.nearest(to: pending.word, in: pending.lists.map(prepared)) {
                        error.suggestion = pending.prefix + near
                    } else if let otherwise = pending.otherwise {
                        error.message += otherwise
                    }
                }
                return error
            }
            return (result, kept.count - shown)
        }

        private static func sortKey(_ location: Scenario.SourceLocation?) -> Position {
            guard let location else { return Position(line: 0, column: 0) }
            return Position(line: location.line, column: location.column)
        }
    }

    /// Identifies a list of candidates by its storage and size, to prepare it once.
    struct ListKey: Hashable {
        var address: Int
        var count: Int

        init(_ list: [String]) {
            address = list.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
            count = list.count
        }
    }

    /// A "did you mean" still to look up: the misspelt word and the namespaces to search.
    struct PendingSuggestion {
        var word: String
        var lists: [[String]]
        var prefix: String
        var otherwise: String?
    }

    /// A line and column, ordered as in the file.
    struct Position: Hashable, Comparable {
        var line: Int
        var column: Int

        init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        init(_ location: Scenario.SourceLocation) {
            self.init(line: location.line, column: location.column)
        }

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.line, lhs.column) < (rhs.line, rhs.column)
        }
    }

    /// The entries of one mapping, looked up by key.
    struct Fields {
        /// The mapping itself: where "missing key" errors point.
        let node: Node
        let entries: [Node.Entry]

        func entry(_ key: String) -> Node.Entry? {
            entries.first { $0.key == key }
        }

        subscript(key: String) -> Node? {
            entry(key)?.value
        }

        /// The entry of an optional key; nil when it is absent or written with nothing after it.
        func optionalEntry(_ key: String) -> Node.Entry? {
            guard let entry = entry(key) else { return nil }
            if case .scalar(let scalar) = entry.value.value, scalar.kind == .null { return nil }
            return entry
        }

        /// The value of an optional key; nil when it is absent or written with nothing after it.
        func optional(_ key: String) -> Node? {
            optionalEntry(key)?.value
        }
    }

    /// A step read without error, with where its parts are written.
    struct StepDraft {
        var step: Scenario.Step
        var deviceLocation: Scenario.SourceLocation
        /// The conversation it acts in (the only one when the step names none); nil for
        /// `reinstall`, `offline` and `online`, which act on the whole device.
        var conversation: String?
        /// Where the session (`send`, `reply`, `insert`, `tap`) or person (`join`,
        /// `leave`) the action names is written.
        var subjectLocation: Scenario.SourceLocation
    }

    /// Where a session began: its first `send` or `insert` in time order.
    struct SessionOrigin {
        var conversation: String
        var location: Scenario.SourceLocation
    }
}
