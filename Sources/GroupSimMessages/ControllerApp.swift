import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// Runs a subclass of `MSMessagesAppViewController` as a GroupSim app: one controller per
/// activation (M22), each device callback passed on to the matching override with the
/// conversation as this device sees it, and the controller's requests (inserts, sends,
/// style changes, cloud calls) handed back to the device, whose results reach the
/// completion handlers. Every call into the controller goes through `MainActorCalls`.
struct ControllerApp<Controller: MSMessagesAppViewController>: MessagesApp, HostsController {
    private let make: @MainActor @Sendable (ExtensionEnvironment) -> Controller
    private var host: ControllerHost<Controller>?

    init(make: @escaping @MainActor @Sendable (ExtensionEnvironment) -> Controller) {
        self.make = make
    }

    var wantsActionResults: Bool { true }

    var hostedController: MSMessagesAppViewController? { host?.controller }

    mutating func didLaunch(in environment: AppEnvironment) {
        let make = make
        // The device owns the environment and waits while the main actor uses it: the
        // call is synchronous, so the two never touch it at the same time.
        let lent = LentToMainActor(environment)
        var made: ControllerHost<Controller>?
        MainActorCalls.run { made = ControllerHost(make: make, environment: lent.value) }
        host = made
    }

    /// Runs `body` with the host on the main actor and returns what the controller asked for.
    private func call(_ body: @MainActor (ControllerHost<Controller>) -> Void) -> [AppAction] {
        guard let host else { return [] }
        // The batch is taken after the tasks the call started, and the callers its answers
        // resumed, have run to their next suspension: what they ask for belongs to this
        // call, as it would on iOS before the system acts on it.
        return MainActorCalls.run({ host.onDevice { body(host) } }, then: { host.bridge.takeBatch() })
    }

    func willBecomeActive(_ view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            host.controller.activeConversation = host.conversation
            // The view loads before the Messages callbacks, as on iOS.
            host.controller.loadViewIfNeeded()
            host.controller.willBecomeActive(with: host.conversation)
        }
    }

    func didBecomeActive(_ view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            host.controller.didBecomeActive(with: host.conversation)
            host.controller.beginSystemAppearance(true)
            host.controller.endSystemAppearance(true)
            // Once per activation, with the controller set up: what it shares with other devices.
            SharedStateWalk.note(host.controller, in: host.bridge.environment)
        }
    }

    func willResignActive(_ view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            host.controller.beginSystemAppearance(false)
            host.controller.willResignActive(with: host.conversation)
        }
    }

    func didResignActive(_ view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            host.controller.didResignActive(with: host.conversation)
            host.controller.endSystemAppearance(false)
        }
    }

    func willSelect(_ message: Message, conversation view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            host.controller.willSelect(host.bridge.message(message), conversation: host.conversation)
        }
    }

    func didSelect(_ message: Message, conversation view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            // The selection just changed: hand the app the object selectedMessage now returns.
            let selected = host.conversation.selectedMessage ?? host.bridge.message(message)
            host.controller.didSelect(selected, conversation: host.conversation)
        }
    }

    func didReceive(_ message: Message, conversation view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            host.controller.didReceive(host.bridge.message(message), conversation: host.conversation)
        }
    }

    func didStartSending(_ message: Message, conversation view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            host.bridge.staged?.isPending = false
            host.bridge.staged = nil
            host.controller.didStartSending(host.bridge.message(message.sentFrom(view)), conversation: host.conversation)
        }
    }

    func didCancelSending(_ message: Message, conversation view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            host.bridge.staged = nil
            host.controller.didCancelSending(host.bridge.message(message.sentFrom(view)), conversation: host.conversation)
        }
    }

    func willTransition(to style: Scenario.PresentationStyle, conversation view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            host.controller.willTransition(to: MSMessagesAppPresentationStyle(style))
        }
    }

    func didTransition(to style: Scenario.PresentationStyle, conversation view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            host.controller.didTransition(to: MSMessagesAppPresentationStyle(style))
        }
    }

    func userDidCompose(_ request: ComposeRequest, conversation view: Conversation) -> [AppAction] {
        call { host in
            host.bridge.intentSession = request.session.name
            host.show(view)
            (host.controller as? any ComposeRequestHandling)?.handle(request)
        }
    }

    func didFetch(_ record: AppAction.CloudRecord, conversation view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            host.bridge.cloudAnswered(record, isFetch: true)
        }
    }

    func didStore(_ record: AppAction.CloudRecord, conversation view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            host.bridge.cloudAnswered(record, isFetch: false)
        }
    }

    func didComplete(_ action: AppAction, error: MessageErrorCode?, conversation view: Conversation) -> [AppAction] {
        call { host in
            host.show(view)
            host.bridge.complete(error: error)
        }
    }
}

/// One activation's controller with the objects it talks to, all on the main actor.
@MainActor
final class ControllerHost<Controller: MSMessagesAppViewController> {
    let controller: Controller
    let bridge: ExtensionBridge
    let conversation: MSConversation
    /// The installation's storage, which `UserDefaults` names during a call.
    private let defaults: LentToMainActor<LocalStorage>

    init(make: @MainActor (ExtensionEnvironment) -> Controller, environment: AppEnvironment) {
        let bridge = ExtensionBridge(view: hostPlaceholderView, environment: environment)
        defaults = LentToMainActor(environment.storage)
        controller = Self.onDevice(defaults) {
            make(ExtensionEnvironment(installation: environment, cloud: SimulatedCloud(bridge: bridge)))
        }
        controller.bridge = bridge
        self.bridge = bridge
        conversation = MSConversation(bridge: bridge)
    }

    /// Runs `body` as part of a call on this device: `UserDefaults.standard` and the
    /// suites are this installation's, in `body` and in every task it starts.
    func onDevice(_ body: () -> Void) {
        UserDefaults.$device.withValue(defaults, operation: body)
    }

    /// Runs `make` with `defaults` as the device's storage. A closure written in the
    /// initializer and handed to `withValue` would check on each activation that it runs
    /// on the main actor, which the call into the controller already holds.
    private nonisolated static func onDevice(_ defaults: LentToMainActor<LocalStorage>,
                                             _ make: @MainActor () -> Controller) -> Controller {
        UserDefaults.$device.withValue(defaults) { MainActorCalls.onMainActor(make) }
    }

    /// Shows the controller the conversation as the device sees it now. A device hands
    /// the same view (one value it keeps until its draft, selection or style changes) to
    /// most calls in a row: when every byte of it is the one shown already, the strings,
    /// messages and lists it holds are the same objects, so the value is the same and is
    /// not copied again (an assignment retained each of them and released the old ones).
    func show(_ view: Conversation) {
        if !bridge.shows(view) { bridge.view = view }
        controller.presentationStyle = MSMessagesAppPresentationStyle(view.presentationStyle)
    }
}

/// What a host's bridge shows until its first call: one value for every activation.
private let hostPlaceholderView = Conversation(name: "", localParticipantIdentifier: ParticipantID(bits: 0, 0),
                                               remoteParticipantIdentifiers: [], selectedMessage: nil, draft: nil,
                                               presentationStyle: .compact)

/// A value the simulation's thread hands to a synchronous main-actor call and does not
/// touch until the call returns.
struct LentToMainActor<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }
}

/// An app that runs a controller: lets `ExtensionHarness.controller(as:)` reach it.
package protocol HostsController {
    var hostedController: MSMessagesAppViewController? { get }
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
