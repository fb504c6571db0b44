import Foundation
import GroupSim
import GroupSimMessages
import GroupSimTesting
import Testing

/// A child controller that writes its view's lifecycle down.
final class PaneController: UIViewController {
    let name: String
    let recorder: Recorder

    init(_ name: String, recorder: Recorder) {
        self.name = name
        self.recorder = recorder
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() { recorder.add("\(name) viewDidLoad") }
    override func viewWillAppear(_ animated: Bool) { recorder.add("\(name) viewWillAppear") }
    override func viewDidAppear(_ animated: Bool) { recorder.add("\(name) viewDidAppear") }
    override func viewWillDisappear(_ animated: Bool) { recorder.add("\(name) viewWillDisappear") }
    override func viewDidDisappear(_ animated: Bool) { recorder.add("\(name) viewDidDisappear") }
    override func didMove(toParent parent: UIViewController?) { recorder.add("\(name) didMove \(parent == nil ? "nil" : "parent")") }
}

/// A controller in the shape of Apple's samples: one child controller per presentation
/// style, swapped in `willBecomeActive` and `willTransition`; it composes with the async
/// `insert`, keeps the last error in a property, and can dismiss itself after inserting.
final class PanesController: MSMessagesAppViewController, ComposeRequestHandling {
    let recorder: Recorder
    var lastError: (any Error)?
    var dismissAfterInsert = false

    init(recorder: Recorder) {
        self.recorder = recorder
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        recorder.add("root viewDidLoad")
    }
    override func viewWillAppear(_ animated: Bool) { recorder.add("root viewWillAppear") }
    override func viewDidAppear(_ animated: Bool) { recorder.add("root viewDidAppear") }
    override func viewWillDisappear(_ animated: Bool) { recorder.add("root viewWillDisappear") }
    override func viewDidDisappear(_ animated: Bool) { recorder.add("root viewDidDisappear") }

    override func willBecomeActive(with conversation: MSConversation) {
        recorder.add("willBecomeActive loaded=\(isViewLoaded)")
        show(for: presentationStyle)
    }
    override func didBecomeActive(with conversation: MSConversation) { recorder.add("didBecomeActive") }
    override func willResignActive(with conversation: MSConversation) { recorder.add("willResignActive") }
    override func didResignActive(with conversation: MSConversation) { recorder.add("didResignActive") }
    override func willTransition(to presentationStyle: MSMessagesAppPresentationStyle) {
        recorder.add("willTransition")
        show(for: presentationStyle)
    }

    private func show(for style: MSMessagesAppPresentationStyle) {
        for child in children {
            child.willMove(toParent: nil)
            child.view.removeFromSuperview()
            child.removeFromParent()
        }
        let child = PaneController(style == .compact ? "compact" : "expanded", recorder: recorder)
        addChild(child)
        child.view.frame = view.bounds
        child.view.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(child.view)
        NSLayoutConstraint.activate([
            child.view.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            child.view.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            child.view.topAnchor.constraint(equalTo: view.topAnchor),
            child.view.bottomAnchor.constraint(equalTo: view.bottomAnchor),
        ])
        child.didMove(toParent: self)
    }

    func handle(_ request: ComposeRequest) {
        guard let conversation = activeConversation else { return }
        let message = MSMessage(session: MSSession())
        message.url = URL(string: StateMap(request.data).url())
        if dismissAfterInsert {
            conversation.insert(message)
            dismiss()
            return
        }
        Task {
            do {
                try await conversation.insert(message)
                recorder.add("inserted")
            } catch {
                lastError = error
                recorder.add("insert failed \((error as NSError).code)")
            }
        }
    }

    override func didStartSending(_ message: MSMessage, conversation: MSConversation) {
        recorder.add("didStartSending")
    }
}

@Suite struct UIKitLifecycleTests {
    static func apps(_ recorder: Recorder, dismissing: Bool = false) -> AppRegistry {
        var apps = AppRegistry()
        apps.register("panes") {
            let controller = PanesController(recorder: recorder)
            controller.dismissAfterInsert = dismissing
            return controller
        }
        return apps
    }

    /// The view loads before `willBecomeActive` and appears after `didBecomeActive`; the
    /// child controllers get their appearance calls with the root's, and a swap on a
    /// style change removes one child and shows the other.
    @Test func viewCallsComeInIOSOrderAroundTheMessagesCallbacks() async throws {
        let recorder = Recorder()
        let harness = try ExtensionHarness(apps: Self.apps(recorder), app: "panes")
        await harness.open(.compact)
        #expect(recorder.lines == [
            "root viewDidLoad", "willBecomeActive loaded=true", "compact viewDidLoad", "compact didMove parent",
            "didBecomeActive", "root viewWillAppear", "compact viewWillAppear", "root viewDidAppear", "compact viewDidAppear",
        ])
        let controller = try #require(await harness.controller(as: PanesController.self))
        #expect(await MainActor.run { controller.children.count == 1 && controller.view.subviews.count == 1 })
        await harness.close()
        #expect(Array(recorder.lines.suffix(6)) == [
            "root viewWillDisappear", "compact viewWillDisappear", "willResignActive", "didResignActive",
            "root viewDidDisappear", "compact viewDidDisappear",
        ])
        #expect(await harness.controller(as: PanesController.self) == nil)
        await harness.open(.expanded)
        let lines = recorder.lines
        #expect(lines.contains("expanded viewDidAppear") && !lines.suffix(9).contains("compact viewDidLoad"))
    }

    /// A task the controller starts awaits `insert(_:)`: the request reaches the system
    /// before the simulation moves on, so the user's Send tap finds the staged message.
    @Test func asyncInsertReachesTheSystemBeforeTheSendTap() async throws {
        let recorder = Recorder()
        let harness = try ExtensionHarness(apps: Self.apps(recorder), app: "panes")
        await harness.open(.compact)
        await harness.send("order", data: ["flavor": "mint"])
        try await harness.expect(callbacks: [.willBecomeActive, .didBecomeActive, .userDidCompose, .didStartSending],
                                 sent: ["?flavor=mint"], staged: .some(nil))
    }

    /// The async form fails with the error the completion handler gets.
    @Test func asyncInsertFailsAsTheHandlerDoes() async throws {
        let recorder = Recorder()
        let harness = try ExtensionHarness(apps: Self.apps(recorder), app: "panes")
        await harness.open(.compact)
        await harness.insert("order", data: ["note": String(repeating: "x", count: 5_001)])
        try await harness.expect(staged: .some(nil), failures: [.urlExceedsMaxSize])
    }

    /// `dismiss()` right after `insert`: the extension resigns, and the user's tap on Send
    /// then sends the staged message without it (no `didStartSending`).
    @Test func dismissAfterInsertSendsWithoutTheExtension() async throws {
        let recorder = Recorder()
        let harness = try ExtensionHarness(apps: Self.apps(recorder, dismissing: true), app: "panes")
        await harness.open(.compact)
        await harness.send("order", data: ["flavor": "mint"])
        try await harness.expect(callbacks: [.willBecomeActive, .didBecomeActive, .userDidCompose, .willResignActive, .didResignActive],
                                 sent: ["?flavor=mint"], staged: .some(nil))
        #expect(!recorder.lines.contains("didStartSending"))
    }
}

/// The view-code types a controller builds with keep what it sets.
@MainActor @Suite struct UIKitSurfaceTests {
    @Test func viewsButtonsAndPresentationKeepWhatTheyAreGiven() {
        let recorder = Recorder()
        let root = PaneController("root", recorder: recorder)
        let tapped = Recorder()
        let button = UIButton(primaryAction: UIAction(title: "Add") { _ in tapped.add("tap") })
        button.setTitle("Add", for: .normal)
        let stack = UIStackView(arrangedSubviews: [UILabel(), button])
        stack.axis = .vertical
        root.view.backgroundColor = .white
        root.view.addSubview(stack)
        button.sendActions(for: .touchUpInside)
        #expect(tapped.lines == ["tap"] && button.title(for: .highlighted) == "Add")
        #expect(stack.arrangedSubviews.count == 2 && stack.superview === root.view && root.view.backgroundColor == .white)
        let width = stack.widthAnchor.constraint(equalToConstant: 120)
        NSLayoutConstraint.activate([width])
        #expect(width.isActive && width.constant == 120)
        NSLayoutConstraint.deactivate([width])
        #expect(!width.isActive)
        // Not shown by the system: presenting loads the view and calls no appearance.
        let sheet = PaneController("sheet", recorder: recorder)
        var completed = false
        root.present(sheet, animated: true) { completed = true }
        #expect(completed && root.presentedViewController === sheet && sheet.presentingViewController === root)
        root.dismiss(animated: false)
        #expect(root.presentedViewController == nil && recorder.lines == ["root viewDidLoad", "sheet viewDidLoad"])
        #expect(UIImage(named: "missing") == nil)
    }
}
