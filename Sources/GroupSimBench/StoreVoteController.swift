// Imports as an extension's file does on Linux: Foundation only through GroupSimMessages,
// so `UserDefaults` below is GroupSim's, the current device's storage.
import GroupSim
import GroupSimMessages

/// The vote of `groupsim bench --scale` written as an App Store extension is, for the
/// controller figure beside the built-in app's: a `@MainActor` controller that works in
/// `Task { }`s against a store with `async` methods (an actor keeping each poll's state
/// as it last saw it), and remembers the user's last vote and the last bubble it received
/// in `UserDefaults`. It keeps the poll's state in the URL, as the built-in app does under
/// `app.state: message`, so a run sends the messages the built-in app's would.
package final class StoreVoteController: MSMessagesAppViewController, ComposeRequestHandling {
    /// The name the controller figure registers it under.
    nonisolated package static let name = "store-vote"

    /// The app's store: what each poll's state was the last time this device saw it.
    actor PollStore {
        private var polls: [String: StateMap] = [:]

        /// `request`'s change applied to the state of `url` (the tapped bubble's), kept
        /// under `poll`; returns the state.
        func vote(_ request: ComposeRequest, on url: String?, poll: String) -> StateMap {
            var state = StateMap(url: url)
            if let given = request.url { state.apply(StateMap(url: given)) }
            state.apply(request.data)
            polls[poll] = state
            return state
        }

        /// Notes the state of a bubble that arrived.
        func saw(_ url: String, poll: String) {
            polls[poll] = StateMap(url: url)
        }
    }

    private let store = PollStore()

    package func handle(_ request: ComposeRequest) {
        guard let conversation = activeConversation else { return }
        let selected = request.isNewSession ? nil : conversation.selectedMessage
        let poll = request.session.name
        let session = selected?.session ?? MSSession()
        Task {
            let state = await store.vote(request, on: selected?.url?.absoluteString, poll: poll)
            let url = state.url(base: request.url.map(MessageURL.base(of:)) ?? "")
            UserDefaults.standard.set(url, forKey: "lastVote")
            let message = MSMessage(session: session)
            message.url = URL(string: url)
            let layout = MSMessageTemplateLayout()
            layout.caption = request.caption
            layout.subcaption = request.subcaption
            message.layout = layout
            message.summaryText = request.summary
            try? await conversation.insert(message)
        }
    }

    override package func didReceive(_ message: MSMessage, conversation: MSConversation) {
        guard let url = message.url?.absoluteString else { return }
        UserDefaults.standard.set(url, forKey: "lastSeen")
        Task { await store.saw(url, poll: "vote") }
    }
}
