/// The app GroupSim runs when a scenario names none: a map of string keys to string
/// values per session, kept where `app.state` says (SCENARIO-FORMAT.md).
///
/// - `message`: the whole map travels in the URL; a reply reads the tapped bubble's map,
///   applies its change and sends the whole new map (IceCreamBuilder's design; loses
///   updates under races, M12).
/// - `cloud-overwrite`: the URL carries a session token; fetch, change, write the whole
///   map back. Concurrent replies overwrite each other (M13).
/// - `cloud-merge`: as cloud-overwrite, but the write merges the changed keys atomically
///   at the store. Converges (M13).
public struct BuiltInApp: MessagesApp {
    public static let name = "built-in"

    /// The query item that carries the session token in the cloud modes.
    public static let tokenKey = "session"

    public let mode: AppSpec.StateMode
    /// The request waiting for the cloud store to answer.
    private var pending: ComposeRequest?

    public init(mode: AppSpec.StateMode) { self.mode = mode }

    public mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
        switch mode {
        case .message:
            var state = StateMap()
            if let selected = conversation.selectedMessage, selected.session == request.session {
                state = StateMap(url: selected.url)
            }
            if let url = request.url { state.apply(StateMap(url: url).entries) }
            state.apply(request.data)
            let base = request.url.map(MessageURL.base(of:)) ?? ""
            return [place(draft(request, url: state.url(base: base)), request)]
        case .cloudOverwrite, .cloudMerge:
            pending = request
            return [.fetch(key: request.session.name)]
        }
    }

    public mutating func didFetch(_ record: CloudRecord, conversation: Conversation) -> [AppAction] {
        guard let request = pending else { return [] }
        var state = record.state ?? StateMap()
        state.apply(request.data)
        let write: CloudWrite = mode == .cloudMerge ? .merge(request.data) : .overwrite(state)
        return [.store(key: record.key, write: write)]
    }

    public mutating func didStore(_ record: CloudRecord, conversation: Conversation) -> [AppAction] {
        guard let request = pending else { return [] }
        pending = nil
        var token = StateMap()
        token[Self.tokenKey] = record.key
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
