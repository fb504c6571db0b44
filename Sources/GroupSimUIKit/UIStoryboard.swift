import Foundation

/// `UIStoryboard`, without storyboard files: `instantiateViewController(withIdentifier:)`
/// runs the factory your test registered for the identifier, so code written for a
/// storyboard (`storyboard?.instantiateViewController(withIdentifier:)`) runs unchanged.
/// A controller a storyboard makes has it as its `storyboard`, as on iOS; make the
/// extension's root controller with `instantiate(_:)` so it has one too:
///
/// ```swift
/// let storyboard = UIStoryboard(name: "MainInterface", bundle: nil)
/// storyboard.register(identifier: "IceCreamsViewController") { IceCreamsViewController() }
/// apps.register("icecream") { storyboard.instantiate { MessagesViewController() } }
/// ```
@MainActor
open class UIStoryboard {
    public let name: String
    private var factories: [String: @MainActor () -> UIViewController] = [:]
    private var initialFactory: (@MainActor () -> UIViewController)?
    /// The identifiers asked for that had no factory, in order (GroupSim's own: UIKit raises).
    public private(set) var missingIdentifiers: [String] = []

    /// An empty storyboard named `name` (there is no file to load).
    public init(name: String, bundle storyboardBundleOrNil: Bundle?) {
        self.name = name
    }

    /// What `instantiateViewController(withIdentifier: identifier)` makes (GroupSim's own).
    public func register(identifier: String, _ factory: @escaping @MainActor () -> UIViewController) {
        factories[identifier] = factory
    }

    /// What `instantiateInitialViewController()` makes (GroupSim's own).
    public func registerInitial(_ factory: @escaping @MainActor () -> UIViewController) {
        initialFactory = factory
    }

    /// Makes a controller with `make` as this storyboard would, so its `storyboard` is
    /// this one (GroupSim's own).
    public func instantiate<Controller: UIViewController>(_ make: () -> Controller) -> Controller {
        let controller = make()
        controller.storyboard = self
        return controller
    }

    /// The registered factory's controller; a plain `UIViewController` when none is
    /// registered for `identifier` (UIKit raises), which `missingIdentifiers` records.
    open func instantiateViewController(withIdentifier identifier: String) -> UIViewController {
        guard let factory = factories[identifier] else {
            missingIdentifiers.append(identifier)
            return instantiate { UIViewController() }
        }
        return instantiate(factory)
    }

    /// The registered factory's controller, with a `creator` (iOS 13) it does not need.
    open func instantiateViewController<ViewController: UIViewController>(
        identifier: String, creator: ((NSCoder) -> ViewController?)? = nil
    ) -> ViewController? {
        instantiateViewController(withIdentifier: identifier) as? ViewController
    }

    open func instantiateInitialViewController() -> UIViewController? {
        initialFactory.map { instantiate($0) }
    }
}

/// `UINavigationItem`: the title and bar button items a controller shows in a bar;
/// nothing draws them.
@MainActor
open class UINavigationItem {
    open var title: String?
    open var prompt: String?
    open var titleView: UIView?
    open var backButtonTitle: String?
    open var hidesBackButton = false
    open var largeTitleDisplayMode: LargeTitleDisplayMode = .automatic
    open var leftBarButtonItems: [UIBarButtonItem]?
    open var rightBarButtonItems: [UIBarButtonItem]?

    public init(title: String) { self.title = title }

    open var leftBarButtonItem: UIBarButtonItem? {
        get { leftBarButtonItems?.first }
        set { leftBarButtonItems = newValue.map { [$0] } }
    }

    open var rightBarButtonItem: UIBarButtonItem? {
        get { rightBarButtonItems?.first }
        set { rightBarButtonItems = newValue.map { [$0] } }
    }

    open func setRightBarButton(_ item: UIBarButtonItem?, animated: Bool) { rightBarButtonItem = item }
    open func setLeftBarButton(_ item: UIBarButtonItem?, animated: Bool) { leftBarButtonItem = item }

    public enum LargeTitleDisplayMode: Int, Sendable { case automatic = 0, always, never, inline }
}

/// `UIBarButtonItem`: a bar button's title, image, system item and primary action.
/// Nothing taps it: `tap()` runs its action, for your tests.
@MainActor
open class UIBarButtonItem {
    open var title: String?
    open var image: UIImage?
    open var style: Style = .plain
    open var isEnabled = true
    open var tintColor: UIColor?
    open var primaryAction: UIAction?
    open var customView: UIView?
    public let systemItem: SystemItem?

    public init(title: String? = nil, image: UIImage? = nil, primaryAction: UIAction? = nil) {
        self.title = title
        self.image = image
        self.primaryAction = primaryAction
        systemItem = nil
    }

    public init(systemItem: SystemItem, primaryAction: UIAction? = nil) {
        self.systemItem = systemItem
        self.primaryAction = primaryAction
    }

    public init(customView: UIView) {
        self.customView = customView
        systemItem = nil
    }

    #if canImport(ObjectiveC)
    /// The target-action forms, where the Objective-C runtime exists.
    open weak var target: AnyObject?
    open var action: Selector?

    public convenience init(title: String?, style: Style, target: Any?, action: Selector?) {
        self.init(title: title)
        self.style = style
        self.target = target as AnyObject?
        self.action = action
    }

    public convenience init(image: UIImage?, style: Style, target: Any?, action: Selector?) {
        self.init(image: image)
        self.style = style
        self.target = target as AnyObject?
        self.action = action
    }

    public convenience init(barButtonSystemItem systemItem: SystemItem, target: Any?, action: Selector?) {
        self.init(systemItem: systemItem)
        self.target = target as AnyObject?
        self.action = action
    }
    #endif

    /// What a tap does (GroupSim's own): runs the primary action (and, with the
    /// Objective-C runtime, the target's action) if the item is enabled.
    open func tap() {
        guard isEnabled else { return }
        if let primaryAction { primaryAction.handler(primaryAction) }
        #if canImport(ObjectiveC)
        if let action { _ = (target as? NSObjectProtocol)?.perform(action, with: self) }
        #endif
    }

    public enum Style: Int, Sendable { case plain = 0, bordered, done, prominent }

    public enum SystemItem: Int, Sendable {
        case done = 0, cancel, edit, save, add, flexibleSpace, fixedSpace, compose, reply, action, organize, bookmarks, search, refresh
        case stop, camera, trash, play, pause, rewind, fastForward, undo, redo, pageCurl, close
    }
}
