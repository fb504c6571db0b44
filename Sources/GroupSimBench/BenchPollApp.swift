import GroupSim

/// The custom app of `groupsim bench` (e): a poll written in Swift against the public
/// `MessagesApp` protocol, as an app author would write one, registered beside the
/// built-in app. It keeps the whole state in the URL, as the built-in app does under
/// `app.state: message`: a reply reads the tapped bubble's state, applies the user's
/// change and inserts a new bubble (M12). On a scenario written for the built-in app's
/// message mode it sends the same messages, so (e) and (b) time the same work apart from
/// the app's own code.
package struct BenchPollApp: MessagesApp {
    package static let name = "bench-poll"

    package init() {}

    package mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
        var state = StateMap()
        if let selected = conversation.selectedMessage, selected.session == request.session {
            state = StateMap(url: selected.url)
        }
        if let url = request.url { state.apply(StateMap(url: url)) }
        state.apply(request.data)
        let url = state.url(base: request.url.map(MessageURL.base(of:)) ?? "")
        let message = Message(session: request.session, url: url.isEmpty ? nil : url,
                              layout: TemplateLayout(caption: request.caption, subcaption: request.subcaption),
                              summaryText: request.summary)
        return [request.direct ? .send(message) : .insert(message)]
    }
}
