import Foundation
import GroupSim
import GroupSimMessages

/// The built-in app's `message` mode written as a developer would, against the Messages
/// API: the tapped bubble's state plus the user's change travels in the URL. `groupsim
/// bench` runs it as figure (f), to compare a registered controller with the built-in app;
/// `BuiltInParityTests` proves it gives the built-in app's trace.
package final class URLPollController: MSMessagesAppViewController, ComposeRequestHandling {
    /// The name figure (f) registers it under.
    nonisolated package static let name = "url-poll"

    package func handle(_ request: ComposeRequest) {
        guard let conversation = activeConversation else { return }
        let selected = request.isNewSession ? nil : conversation.selectedMessage
        var state = StateMap(url: selected?.url?.absoluteString)
        if let url = request.url { state.apply(StateMap(url: url)) }
        state.apply(request.data)
        let message = MSMessage(session: selected?.session ?? MSSession())
        message.url = URL(string: state.url(base: request.url.map(MessageURL.base(of:)) ?? ""))
        let layout = MSMessageTemplateLayout()
        layout.caption = request.caption
        layout.subcaption = request.subcaption
        message.layout = layout
        message.summaryText = request.summary
        conversation.insert(message)
    }
}
