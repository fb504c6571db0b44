import GroupSimCore
import GroupSimScenario

/// The app GroupSim runs when a scenario names none: a map of string keys to string
/// values per session, kept where `app.state` says (docs/scenario-format.md).
///
/// - `message`: the whole map travels in the URL; a reply reads the tapped bubble's map,
///   applies its change and sends the whole new map (IceCreamBuilder's design; loses
///   updates under races, M12). With `app.selection: newest` it builds on the newest
///   bubble of the session it was handed (a later one from didReceive beats a stale
///   selectedMessage, M15, M23).
/// - `cloud-overwrite`: the URL carries a session token; a tap fetches the record it names
///   (what the app then shows), a compose fetches and stages, and the user's tap on Send
///   writes the whole changed map back (`app.push: on-send`; `on-compose` writes before
///   staging). Concurrent replies overwrite each other (M13).
/// - `cloud-merge`: as cloud-overwrite, but the write merges the changed keys atomically
///   at the store. Converges (M13).
/// - `cloud-cas`: as cloud-overwrite, but the write is conditional on the version read
///   (compare-and-set, CloudKit's `.ifServerRecordUnchanged`). On a conflict the store
///   answers with its current record: the app re-applies its change to it and writes
///   again over that version, until the write lands. Converges (M13).
package struct BuiltInApp: MessagesApp {
    package static let name = "built-in"

    /// The query item that carries the session token in the cloud modes when the scenario
    /// sets no `app.record-key`.
    package static let tokenKey = Scenario.AppSpec.defaultRecordKey

    /// A `cloud-cas` write gives up after this many conflicts in a row (the change is
    /// then lost, and reported as a lost update).
    package static let maximumRetries = 32

    package let mode: Scenario.AppSpec.StateMode
    package let selection: Scenario.AppSpec.Selection
    /// The query item the token goes in (`app.record-key`).
    package let recordKey: String
    /// When the record is written (`app.push`).
    package let push: Scenario.AppSpec.Push
    /// The request waiting for the cloud store's answer to its fetch.
    private var pending: ComposeRequest?
    /// `push: on-send`: the request staged, and the write its Send makes.
    private var unsent: (request: ComposeRequest, key: String, write: AppAction.CloudWrite)?
    /// The request whose write is waiting for the store's answer (`cloud-cas` retries it).
    private var writing: ComposeRequest?
    /// `cloud-cas`: conflicts met by the pending request so far.
    private var retries = 0
    /// `selection: newest`: per session, the newest bubble didReceive handed the app
    /// since the user last selected one.
    private var newest: [String: Message] = [:]
    /// The records a tap is fetching (M13, M21), by key: a compose while one is on its way
    /// waits for that answer rather than fetching the same record a second time.
    private var reading: Set<String> = []

    package init(mode: Scenario.AppSpec.StateMode, selection: Scenario.AppSpec.Selection = .tapped, recordKey: String = tokenKey,
                push: Scenario.AppSpec.Push = .onSend) {
        self.mode = mode
        self.selection = selection
        self.recordKey = recordKey
        self.push = push
    }

    /// The built-in app as `spec` configures it.
    package init(spec: Scenario.AppSpec) { self.init(mode: spec.state, selection: spec.selection, recordKey: spec.recordKey, push: spec.push) }

    package mutating func didBecomeActive(_ conversation: Conversation) -> [AppAction] {
        conversation.selectedMessage.map { readCloud(for: $0) } ?? []
    }

    package mutating func didSelect(_ message: Message, conversation: Conversation) -> [AppAction] {
        if let session = message.session?.name { newest[session] = nil }
        return readCloud(for: message)
    }

    /// A tap reads the cloud (M13, M21): in the cloud modes, the tapped bubble's token
    /// names the record to fetch, and the answer is what the app shows.
    private mutating func readCloud(for message: Message) -> [AppAction] {
        guard mode != .message, let key = StateMap(url: message.url)[recordKey] else { return [] }
        reading.insert(key)
        return [.fetch(key: key)]
    }

    package mutating func didReceive(_ message: Message, conversation: Conversation) -> [AppAction] {
        if selection == .newest, let session = message.session?.name { newest[session] = message }
        return []
    }

    /// Only `selection: newest` keeps what didReceive hands it.
    package var wantsReceivedMessages: Bool { selection == .newest }

    /// Whether the app in `mode` does nothing on `callback` whatever its state: it asks
    /// for no action and changes nothing. A device records such a callback without making
    /// the call or building the conversation view for it, as it records a `didReceive` an
    /// app does not want. Only the cloud modes fetch as the app becomes active, or push
    /// a staged state on Send; a change to the callbacks here must be made there too.
    package static func ignores(_ callback: AppCallback, mode: Scenario.AppSpec.StateMode) -> Bool {
        switch callback {
        case .willBecomeActive, .willResignActive, .didResignActive, .willTransition, .didTransition, .willSelect: true
        case .didBecomeActive, .didStartSending, .didCancelSending: mode == .message
        case .didSelect, .didReceive, .userDidCompose, .didFetch, .didStore: false
        }
    }

    package mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
        switch mode {
        case .message:
            var state = StateMap()
            if let base = newest[request.session.name] {
                state = StateMap(url: base.url)
            } else if let selected = conversation.selectedMessage, selected.session == request.session {
                state = StateMap(url: selected.url)
            }
            if let url = request.url { state.apply(StateMap(url: url)) }
            state.apply(request.data)
            let base = request.url.map(MessageURL.base(of:)) ?? ""
            return [place(draft(request, url: state.url(base: base)), request)]
        case .cloudOverwrite, .cloudMerge, .cloudCAS:
            pending = request
            retries = 0
            // A reply taps, then composes: the tap's fetch, still on its way, is the read
            // this change builds on, so the app asks once and its answer serves both.
            return reading.contains(request.session.name) ? [] : [.fetch(key: request.session.name)]
        }
    }

    package mutating func didFetch(_ record: AppAction.CloudRecord, conversation: Conversation) -> [AppAction] {
        reading.remove(record.key)
        guard let request = pending, request.session.name == record.key else { return [] }
        pending = nil
        var state = record.state ?? StateMap()
        state.apply(request.data)
        let write: AppAction.CloudWrite = switch mode {
        case .cloudMerge: .merge(request.data)
        case .cloudCAS: .conditional(expectedVersion: record.version, state: state)
        case .message, .cloudOverwrite: .overwrite(state)
        }
        guard push == .onSend else {
            writing = request
            return [.store(key: record.key, write: write)]
        }
        // The token is the record's name: the message can be staged now, and the state is
        // pushed when the user sends it (M13, M17).
        unsent = (request, record.key, write)
        return [place(tokenMessage(request, key: record.key), request)]
    }

    /// `push: on-send`: the user tapped Send (or the direct send began): push the state.
    package mutating func didStartSending(_ message: Message, conversation: Conversation) -> [AppAction] {
        guard let unsent, message.session == unsent.request.session else { return [] }
        self.unsent = nil
        writing = unsent.request
        return [.store(key: unsent.key, write: unsent.write)]
    }

    /// `push: on-send`: the user removed the draft: nothing is written.
    package mutating func didCancelSending(_ message: Message, conversation: Conversation) -> [AppAction] {
        guard let unsent, message.session == unsent.request.session else { return [] }
        self.unsent = nil
        return []
    }

    package mutating func didStore(_ record: AppAction.CloudRecord, conversation: Conversation) -> [AppAction] {
        guard let request = writing else { return [] }
        if record.conflict {
            // The answer is the server's current record: re-apply the change to it and
            // write again over its version.
            retries += 1
            guard mode == .cloudCAS, retries <= Self.maximumRetries else {
                writing = nil
                return []
            }
            var state = record.state ?? StateMap()
            state.apply(request.data)
            return [.store(key: record.key, write: .conditional(expectedVersion: record.version, state: state))]
        }
        writing = nil
        // On Send the message left before the write: nothing more to do.
        return push == .onSend ? [] : [place(tokenMessage(request, key: record.key), request)]
    }

    /// The message whose URL carries only the token that names the record `key`.
    private func tokenMessage(_ request: ComposeRequest, key: String) -> Message {
        var token = StateMap()
        token[recordKey] = key
        let base = request.url.map(MessageURL.base(of:)) ?? ""
        return draft(request, url: token.url(base: base))
    }

    private func draft(_ request: ComposeRequest, url: String) -> Message {
        Message(session: request.session, url: url.isEmpty ? nil : url,
                layout: request.layout,
                summaryText: request.summary)
    }

    private func place(_ message: Message, _ request: ComposeRequest) -> AppAction {
        request.direct ? .send(message) : .insert(message)
    }
}
