import GroupSim

/// Runs a subclass of `MSMessagesAppViewController` as a GroupSim app: one controller per
/// activation (M22), each device callback passed on to the matching override with the
/// conversation as this device sees it, and the controller's requests (inserts, sends,
/// style changes, cloud calls) handed back to the device, whose results reach the
/// completion handlers.
struct ControllerApp<Controller: MSMessagesAppViewController>: MessagesApp {
    private let make: @Sendable (ExtensionEnvironment) -> Controller
    private var controller: Controller?
    private var bridge: ExtensionBridge?
    private var conversation: MSConversation?

    init(make: @escaping @Sendable (ExtensionEnvironment) -> Controller) {
        self.make = make
    }

    var wantsActionResults: Bool { true }

    mutating func didLaunch(in environment: AppEnvironment) {
        let placeholder = Conversation(name: "", localParticipantIdentifier: ParticipantID(bits: 0, 0),
                                       remoteParticipantIdentifiers: [], selectedMessage: nil, draft: nil,
                                       presentationStyle: .compact)
        let bridge = ExtensionBridge(view: placeholder, environment: environment)
        let made = make(ExtensionEnvironment(installation: environment, cloud: SimulatedCloud(bridge: bridge)))
        made.bridge = bridge
        self.bridge = bridge
        controller = made
        conversation = MSConversation(bridge: bridge)
    }

    /// Shows the controller `view`, calls it, and returns what it asked for.
    private func call(_ view: Conversation, _ body: (Controller, MSConversation) -> Void) -> [AppAction] {
        guard let controller, let bridge, let conversation else { return [] }
        bridge.view = view
        controller.presentationStyle = MSMessagesAppPresentationStyle(view.presentationStyle)
        body(controller, conversation)
        return bridge.takeBatch()
    }

    func willBecomeActive(_ view: Conversation) -> [AppAction] {
        call(view) { controller, conversation in
            controller.activeConversation = conversation
            controller.willBecomeActive(with: conversation)
        }
    }

    func didBecomeActive(_ view: Conversation) -> [AppAction] {
        call(view) { $0.didBecomeActive(with: $1) }
    }

    func willResignActive(_ view: Conversation) -> [AppAction] {
        call(view) { $0.willResignActive(with: $1) }
    }

    func didResignActive(_ view: Conversation) -> [AppAction] {
        call(view) { $0.didResignActive(with: $1) }
    }

    func willSelect(_ message: Message, conversation view: Conversation) -> [AppAction] {
        call(view) { controller, conversation in
            guard let bridge = self.bridge else { return }
            controller.willSelect(bridge.message(message), conversation: conversation)
        }
    }

    func didSelect(_ message: Message, conversation view: Conversation) -> [AppAction] {
        call(view) { controller, conversation in
            // The selection just changed: hand the app the object selectedMessage now returns.
            guard let selected = conversation.selectedMessage ?? self.bridge?.message(message) else { return }
            controller.didSelect(selected, conversation: conversation)
        }
    }

    func didReceive(_ message: Message, conversation view: Conversation) -> [AppAction] {
        call(view) { controller, conversation in
            guard let bridge = self.bridge else { return }
            controller.didReceive(bridge.message(message), conversation: conversation)
        }
    }

    func didStartSending(_ message: Message, conversation view: Conversation) -> [AppAction] {
        call(view) { controller, conversation in
            guard let bridge = self.bridge else { return }
            bridge.staged?.isPending = false
            bridge.staged = nil
            controller.didStartSending(bridge.message(message.sentFrom(view)), conversation: conversation)
        }
    }

    func didCancelSending(_ message: Message, conversation view: Conversation) -> [AppAction] {
        call(view) { controller, conversation in
            guard let bridge = self.bridge else { return }
            bridge.staged = nil
            controller.didCancelSending(bridge.message(message.sentFrom(view)), conversation: conversation)
        }
    }

    func willTransition(to style: PresentationStyle, conversation view: Conversation) -> [AppAction] {
        call(view) { controller, _ in controller.willTransition(to: MSMessagesAppPresentationStyle(style)) }
    }

    func didTransition(to style: PresentationStyle, conversation view: Conversation) -> [AppAction] {
        call(view) { controller, _ in controller.didTransition(to: MSMessagesAppPresentationStyle(style)) }
    }

    func userDidCompose(_ request: ComposeRequest, conversation view: Conversation) -> [AppAction] {
        bridge?.intentSession = request.session.name
        return call(view) { controller, _ in
            (controller as? any ComposeRequestHandling)?.handle(request)
        }
    }

    func didFetch(_ record: CloudRecord, conversation view: Conversation) -> [AppAction] {
        call(view) { _, _ in self.bridge?.cloudAnswered(record, isFetch: true) }
    }

    func didStore(_ record: CloudRecord, conversation view: Conversation) -> [AppAction] {
        call(view) { _, _ in self.bridge?.cloudAnswered(record, isFetch: false) }
    }

    func didComplete(_ action: AppAction, error: MessageErrorCode?, conversation view: Conversation) -> [AppAction] {
        call(view) { _, _ in self.bridge?.complete(error: error) }
    }
}

extension Message {
    /// The app's own message: its sender is this device's local identifier once inserted (M3).
    func sentFrom(_ view: Conversation) -> Message {
        guard senderParticipantIdentifier == nil else { return self }
        var message = self
        message.senderParticipantIdentifier = view.localParticipantIdentifier
        return message
    }
}
