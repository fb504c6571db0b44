import GroupSimMessages

/// The root view controller Messages shows: the sample's `MessagesViewController`. Its
/// children come from `storyboard?.instantiateViewController(withIdentifier:)`.
final class IceCreamMessagesViewController: MSMessagesAppViewController {
    var stickerCache: IceCreamStickerCache?
    private(set) var history = IceCreamHistory.load()

    override func willBecomeActive(with conversation: MSConversation) {
        super.willBecomeActive(with: conversation)
        presentViewController(for: conversation, with: presentationStyle)
    }

    override func willTransition(to presentationStyle: MSMessagesAppPresentationStyle) {
        super.willTransition(to: presentationStyle)
        removeAllChildViewControllers()
    }

    override func didTransition(to presentationStyle: MSMessagesAppPresentationStyle) {
        super.didTransition(to: presentationStyle)
        guard let conversation = activeConversation else { return }
        presentViewController(for: conversation, with: presentationStyle)
    }

    private func presentViewController(for conversation: MSConversation, with presentationStyle: MSMessagesAppPresentationStyle) {
        removeAllChildViewControllers()
        let controller: UIViewController?
        if presentationStyle == .compact {
            controller = instantiateIceCreamsController()
        } else {
            let iceCream = IceCream(message: conversation.selectedMessage) ?? IceCream()
            controller = iceCream.isComplete ? instantiateCompletedIceCreamController(with: iceCream)
                : instantiateBuildIceCreamController(with: iceCream)
        }
        guard let controller else { return }
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

    private func instantiateIceCreamsController() -> UIViewController? {
        guard let controller = storyboard?.instantiateViewController(withIdentifier: IceCreamsViewController.storyboardIdentifier)
            as? IceCreamsViewController else { return nil }
        controller.delegate = self
        controller.stickerCache = stickerCache
        return controller
    }

    private func instantiateBuildIceCreamController(with iceCream: IceCream) -> UIViewController? {
        guard let controller = storyboard?.instantiateViewController(withIdentifier: BuildIceCreamViewController.storyboardIdentifier)
            as? BuildIceCreamViewController else { return nil }
        controller.iceCream = iceCream
        controller.delegate = self
        return controller
    }

    private func instantiateCompletedIceCreamController(with iceCream: IceCream) -> UIViewController? {
        guard let controller = storyboard?.instantiateViewController(withIdentifier: CompletedIceCreamViewController.storyboardIdentifier)
            as? CompletedIceCreamViewController else { return nil }
        controller.iceCream = iceCream
        controller.stickerCache = stickerCache
        return controller
    }

    private func removeAllChildViewControllers() {
        for child in children {
            child.willMove(toParent: nil)
            child.view.removeFromSuperview()
            child.removeFromParent()
        }
    }

    fileprivate func composeMessage(with iceCream: IceCream, caption: String, session: MSSession? = nil) -> MSMessage {
        var components = URLComponents()
        components.queryItems = iceCream.queryItems
        let layout = MSMessageTemplateLayout()
        layout.image = iceCream.renderSticker(opaque: true)
        layout.caption = caption
        let message = MSMessage(session: session ?? MSSession())
        message.url = components.url
        message.layout = layout
        return message
    }
}

extension IceCreamMessagesViewController: IceCreamsViewControllerDelegate {
    func iceCreamsViewControllerDidSelectAdd(_ controller: IceCreamsViewController) {
        requestPresentationStyle(.expanded)
    }
}

extension IceCreamMessagesViewController: BuildIceCreamViewControllerDelegate {
    func buildIceCreamViewController(_ controller: BuildIceCreamViewController, didSelect iceCreamPart: any IceCreamPart) {
        guard let conversation = activeConversation, var iceCream = controller.iceCream else { return }
        let caption: String
        if let base = iceCreamPart as? Base {
            iceCream.base = base
            caption = NSLocalizedString("Let's build an ice cream", comment: "")
        } else if let scoops = iceCreamPart as? Scoops {
            iceCream.scoops = scoops
            caption = NSLocalizedString("I added some scoops", comment: "")
        } else if let topping = iceCreamPart as? Topping {
            iceCream.topping = topping
            caption = NSLocalizedString("Our finished ice cream", comment: "")
        } else {
            return
        }
        let message = composeMessage(with: iceCream, caption: caption, session: conversation.selectedMessage?.session)
        conversation.insert(message) { error in
            if let error { print(error) }
        }
        if iceCream.isComplete { history.append(iceCream) }
        dismiss()
    }
}
