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
/// - `cloud-overwrite`: the URL carries a session token; fetch, change, write the whole
///   map back. Concurrent replies overwrite each other (M13).
/// - `cloud-merge`: as cloud-overwrite, but the write merges the changed keys atomically
///   at the store. Converges (M13).
/// - `cloud-cas`: as cloud-overwrite, but the write is conditional on the version read
///   (compare-and-set, CloudKit's `.ifServerRecordUnchanged`). On a conflict the store
///   answers with its current record: the app re-applies its change to it and writes
///   again over that version, until the write lands. Converges (M13).
package struct BuiltInApp: MessagesApp {
    public static let name = "built-in"

    /// The query item that carries the session token in the cloud modes when the scenario
    /// sets no `app.record-key`.
    public static let tokenKey = AppSpec.defaultRecordKey

    /// A `cloud-cas` write gives up after this many conflicts in a row (the change is
    /// then lost, and reported as a lost update).
    public static let maximumRetries = 32

    public let mode: AppSpec.StateMode
    public let selection: AppSpec.Selection
    /// The query item the token goes in (`app.record-key`).
    public let recordKey: String
    /// The request waiting for the cloud store to answer.
    private var pending: ComposeRequest?
    /// `cloud-cas`: conflicts met by the pending request so far.
    private var retries = 0
    /// `selection: newest`: per session, the newest bubble didReceive handed the app
    /// since the user last selected one.
    private var newest: [String: Message] = [:]

    public init(mode: AppSpec.StateMode, selection: AppSpec.Selection = .tapped, recordKey: String = tokenKey) {
        self.mode = mode
        self.selection = selection
        self.recordKey = recordKey
    }

    /// The built-in app as `spec` configures it.
    public init(spec: AppSpec) { self.init(mode: spec.state, selection: spec.selection, recordKey: spec.recordKey) }

    public mutating func didSelect(_ message: Message, conversation: Conversation) -> [AppAction] {
        if let session = message.session?.name { newest[session] = nil }
        return []
    }

    public mutating func didReceive(_ message: Message, conversation: Conversation) -> [AppAction] {
        if selection == .newest, let session = message.session?.name { newest[session] = message }
        return []
    }

    /// Only `selection: newest` keeps what didReceive hands it.
    public var wantsReceivedMessages: Bool { selection == .newest }

    public mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
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
            return [.fetch(key: request.session.name)]
        }
    }

    public mutating func didFetch(_ record: CloudRecord, conversation: Conversation) -> [AppAction] {
        guard let request = pending else { return [] }
        var state = record.state ?? StateMap()
        state.apply(request.data)
        let write: CloudWrite = switch mode {
        case .cloudMerge: .merge(request.data)
        case .cloudCAS: .conditional(expectedVersion: record.version, state: state)
        case .message, .cloudOverwrite: .overwrite(state)
        }
        return [.store(key: record.key, write: write)]
    }

    public mutating func didStore(_ record: CloudRecord, conversation: Conversation) -> [AppAction] {
        guard let request = pending else { return [] }
        if record.conflict {
            // The answer is the server's current record: re-apply the change to it and
            // write again over its version.
            retries += 1
            guard mode == .cloudCAS, retries <= Self.maximumRetries else {
                pending = nil
                return []
            }
            var state = record.state ?? StateMap()
            state.apply(request.data)
            return [.store(key: record.key, write: .conditional(expectedVersion: record.version, state: state))]
        }
        pending = nil
        var token = StateMap()
        token[recordKey] = record.key
        let base = request.url.map(MessageURL.base(of:)) ?? ""
        return [place(draft(request, url: token.url(base: base)), request)]
    }

    private func draft(_ request: ComposeRequest, url: String) -> Message {
        Message(session: request.session, url: url.isEmpty ? nil : url,
                layout: TemplateLayout(caption: request.caption, subcaption: request.subcaption),
                summaryText: request.summary)
    }

    private func place(_ message: Message, _ request: ComposeRequest) -> AppAction {
        request.direct ? .send(message) : .insert(message)
    }
}
