import GroupSimMessages

/// The extension's entry point: a compact list of the options (a table) and an expanded
/// detail screen (a collection), each a child controller, switched on the style.
final class LunchVoteViewController: MSMessagesAppViewController {
    private(set) var vote = LunchVote.standard
    private(set) var lastError: (any Error)?

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .systemBackground
        view.tintColor = .tintColor
    }

    override func willBecomeActive(with conversation: MSConversation) {
        super.willBecomeActive(with: conversation)
        vote = LunchVote(url: conversation.selectedMessage?.url) ?? .standard
        showChild(for: presentationStyle)
    }

    override func willTransition(to presentationStyle: MSMessagesAppPresentationStyle) {
        super.willTransition(to: presentationStyle)
        removeAllChildren()
    }

    override func didTransition(to presentationStyle: MSMessagesAppPresentationStyle) {
        super.didTransition(to: presentationStyle)
        showChild(for: presentationStyle)
    }

    override func didReceive(_ message: MSMessage, conversation: MSConversation) {
        super.didReceive(message, conversation: conversation)
        guard let received = LunchVote(url: message.url) else { return }
        vote = received
        showChild(for: presentationStyle)
    }

    private var voter: String { activeConversation?.localParticipantIdentifier.uuidString ?? "" }

    private func showChild(for style: MSMessagesAppPresentationStyle) {
        removeAllChildren()
        let child: UIViewController
        if style == .compact {
            let list = LunchListViewController(vote: vote, voter: voter)
            list.delegate = self
            child = list
        } else {
            let detail = LunchDetailViewController(vote: vote)
            detail.delegate = self
            child = detail
        }
        addChild(child)
        child.view.frame = view.bounds
        child.view.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(child.view)
        NSLayoutConstraint.activate([
            child.view.leadingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.leadingAnchor),
            child.view.trailingAnchor.constraint(equalTo: view.safeAreaLayoutGuide.trailingAnchor),
            child.view.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
            child.view.bottomAnchor.constraint(equalTo: view.bottomAnchor),
        ])
        child.didMove(toParent: self)
    }

    private func removeAllChildren() {
        for child in children {
            child.willMove(toParent: nil)
            child.view.removeFromSuperview()
            child.removeFromParent()
        }
    }

    /// Records this person's choice and stages the vote's bubble.
    func cast(_ option: String) {
        guard let conversation = activeConversation else { return }
        vote.ballots[voter] = option
        let layout = MSMessageTemplateLayout()
        layout.caption = NSLocalizedString("Lunch vote", comment: "")
        layout.subcaption = vote.summary
        layout.image = UIImage(systemName: "fork.knife")
        let message = MSMessage(session: conversation.selectedMessage?.session ?? MSSession())
        message.url = vote.url
        message.layout = layout
        message.summaryText = vote.summary
        conversation.insert(message) { [weak self] error in
            self?.lastError = error
        }
        if presentationStyle == .expanded { requestPresentationStyle(.compact) }
    }
}

extension LunchVoteViewController: LunchListViewControllerDelegate, LunchDetailViewControllerDelegate {
    func lunchList(_ controller: LunchListViewController, didChoose option: String) { cast(option) }
    func lunchListDidAskForDetails(_ controller: LunchListViewController) { requestPresentationStyle(.expanded) }
    func lunchDetail(_ controller: LunchDetailViewController, didChoose option: String) { cast(option) }
    func lunchDetailDidCancel(_ controller: LunchDetailViewController) { requestPresentationStyle(.compact) }
}
