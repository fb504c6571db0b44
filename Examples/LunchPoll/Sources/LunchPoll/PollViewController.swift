#if canImport(Messages)
import Messages
#else
import GroupSimMessages
#endif
import Foundation

/// The lunch poll, first version: the whole poll travels in the message URL, as Apple's
/// IceCreamBuilder sample keeps its state. Each vote reads the tapped bubble's poll,
/// adds the vote and sends the whole poll again.
///
/// It works when people vote one after another. When two vote at about the same time,
/// each device keeps the bubble that reached it last, so one vote is lost and devices
/// disagree about the result (GroupSim calls these lost update and divergence).
public final class PollViewController: MSMessagesAppViewController {
    /// The poll this activation shows.
    public private(set) var poll = Poll()

    public override func willBecomeActive(with conversation: MSConversation) {
        poll = Poll(url: conversation.selectedMessage?.url)
    }

    public override func didSelect(_ message: MSMessage, conversation: MSConversation) {
        poll = Poll(url: message.url)
    }

    /// The Ask button: starts a poll with `question`.
    public func ask(_ question: String) {
        poll = Poll()
        poll.entries["q"] = question
        insertPoll(caption: question, summary: "new poll")
    }

    /// A choice button: records `choice` for `voter` and stages the poll (the user then taps Send).
    public func vote(_ choice: String, as voter: String) {
        poll.entries[voter] = choice
        insertPoll(caption: "picked \(choice)", summary: "voted")
    }

    private func insertPoll(caption: String, summary: String) {
        guard let conversation = activeConversation else { return }
        // A reply continues the tapped poll's session, so its bubble replaces the old one.
        let message = MSMessage(session: conversation.selectedMessage?.session ?? MSSession())
        message.url = poll.url
        let layout = MSMessageTemplateLayout()
        // `$` and this device's identifier: Messages draws the sender's name on each device.
        let me = "$" + conversation.localParticipantIdentifier.uuidString
        layout.caption = "\(me) \(caption)"
        message.layout = layout
        message.summaryText = "\(me) \(summary)"
        conversation.insert(message) { error in
            if let error { print("LunchPoll: insert failed: \(error)") }
        }
    }
}
