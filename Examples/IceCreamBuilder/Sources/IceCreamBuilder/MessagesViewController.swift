import Foundation
#if canImport(Messages)
import Messages
import UIKit
#else
import GroupSimMessages
#endif

/// The extension's entry point, in the shape of Apple's IceCreamBuilder sample: it shows
/// one child view controller for the presentation style, switched in `willBecomeActive`
/// and `willTransition`. Compact lists the finished sundaes; expanded builds the sundae
/// of the tapped bubble (or a new one) one part per person.
public final class MessagesViewController: MSMessagesAppViewController {
    /// Where the history is kept: `UserDefaults.standard` on iOS.
    public var defaults: (any IceCreamDefaults)?
    /// The last error a completion handler reported.
    public private(set) var lastError: (any Error)?

    private var history: IceCreamHistory { IceCreamHistory(defaults: defaults) }

    // MARK: - Conversation handling

    public override func willBecomeActive(with conversation: MSConversation) {
        super.willBecomeActive(with: conversation)
        presentViewController(for: conversation, with: presentationStyle)
    }

    public override func willTransition(to presentationStyle: MSMessagesAppPresentationStyle) {
        guard let conversation = activeConversation else { return }
        presentViewController(for: conversation, with: presentationStyle)
    }

    // MARK: - Child view controllers

    private func presentViewController(for conversation: MSConversation, with presentationStyle: MSMessagesAppPresentationStyle) {
        let controller: UIViewController
        if presentationStyle == .compact {
            let list = IceCreamsViewController(history: history)
            list.delegate = self
            controller = list
        } else {
            let build = BuildIceCreamViewController(iceCream: IceCream(url: conversation.selectedMessage?.url) ?? IceCream())
            build.delegate = self
            controller = build
        }
        removeAllChildViewControllers()
        addChild(controller)
        controller.view.frame = view.bounds
        controller.view.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(controller.view)
        NSLayoutConstraint.activate([
            controller.view.leftAnchor.constraint(equalTo: view.leftAnchor),
            controller.view.rightAnchor.constraint(equalTo: view.rightAnchor),
            controller.view.topAnchor.constraint(equalTo: view.topAnchor),
            controller.view.bottomAnchor.constraint(equalTo: view.bottomAnchor),
        ])
        controller.didMove(toParent: self)
    }

    private func removeAllChildViewControllers() {
        for child in children {
            child.willMove(toParent: nil)
            child.view.removeFromSuperview()
            child.removeFromParent()
        }
    }

    /// The child controller shown now (for the buttons' actions).
    var shownChild: UIViewController? { children.last }

    // MARK: - Composing

    private func composeMessage(with iceCream: IceCream, session: MSSession?) -> MSMessage {
        let layout = MSMessageTemplateLayout()
        layout.caption = iceCream.caption
        let message = MSMessage(session: session ?? MSSession())
        message.url = iceCream.url
        message.layout = layout
        message.summaryText = "Sundae: \(iceCream.caption)"
        return message
    }
}

extension MessagesViewController: IceCreamsViewControllerDelegate {
    func iceCreamsViewControllerDidSelectAdd(_ controller: IceCreamsViewController) {
        requestPresentationStyle(.expanded)
    }
}

extension MessagesViewController: BuildIceCreamViewControllerDelegate {
    func buildIceCreamViewController(_ controller: BuildIceCreamViewController, didChoose value: String, for part: IceCreamPart) {
        guard let conversation = activeConversation else { return }
        var iceCream = controller.iceCream
        iceCream[part] = value
        let message = composeMessage(with: iceCream, session: conversation.selectedMessage?.session)
        history.record(iceCream)
        // As Apple's sample does: stage the message, then close; the user taps Send.
        conversation.insert(message) { [weak self] error in
            self?.lastError = error
        }
        dismiss()
    }
}

extension MessagesViewController {
    /// The "add a sundae" button of the compact view.
    public func tapAdd() {
        (shownChild as? IceCreamsViewController)?.addTapped()
    }

    /// A choice button: in the expanded view, for the shown sundae's next part; in the
    /// compact view, the quick-start row, which starts a new sundae with this base.
    public func tapChoice(_ value: String) {
        if let build = shownChild as? BuildIceCreamViewController {
            build.choose(value)
        } else {
            buildIceCreamViewController(BuildIceCreamViewController(iceCream: IceCream()), didChoose: value, for: .base)
        }
    }

    /// Sends the sundae of the selected bubble again with the async form, as a button
    /// that "shares" it would; the error, if any, is kept.
    public func share() {
        guard let conversation = activeConversation else { return }
        let iceCream = IceCream(url: conversation.selectedMessage?.url) ?? IceCream()
        let message = composeMessage(with: iceCream, session: conversation.selectedMessage?.session)
        Task {
            do {
                try await conversation.insert(message)
            } catch {
                lastError = error
            }
        }
    }
}
