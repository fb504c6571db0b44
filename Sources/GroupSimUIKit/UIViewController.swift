import Foundation

/// `UIViewController`, drawing nothing: the view loads lazily (`loadView`, then
/// `viewDidLoad`), appearance calls come when the view enters or leaves the hierarchy
/// the system shows, and containment (`addChild`, `willMove`, `didMove`,
/// `removeFromParent`) and presentation keep UIKit's relations and call order. There is
/// no storyboard file: `UIStoryboard` serves the controllers your test registers.
@MainActor
open class UIViewController {
    private var loadedView: UIView?
    /// The controllers added with `addChild(_:)`, in order.
    open private(set) var children: [UIViewController] = []
    /// The controller this one was added to, if any.
    open private(set) weak var parent: UIViewController?
    /// The controller this one presents, if any.
    open private(set) var presentedViewController: UIViewController?
    /// The controller that presents this one, if any.
    open private(set) weak var presentingViewController: UIViewController?
    /// The size the controller asks its container for; nothing reads it but your code.
    open var preferredContentSize: CGSize = .zero
    /// The title; it is also the navigation item's, as on iOS.
    open var title: String? {
        didSet { ownNavigationItem?.title = title }
    }
    /// The storyboard that made the controller (see `UIStoryboard`); nil for one made in code.
    open internal(set) var storyboard: UIStoryboard?
    private var ownNavigationItem: UINavigationItem?
    open var modalPresentationStyle: UIModalPresentationStyle = .automatic
    open var isModalInPresentation = false

    /// The title and bar buttons shown for the controller in a bar; made on first use.
    open var navigationItem: UINavigationItem {
        if let ownNavigationItem { return ownNavigationItem }
        let item = UINavigationItem(title: title ?? "")
        item.title = title
        ownNavigationItem = item
        return item
    }

    /// The traits the controller is shown with (see `UITraitCollection.current`).
    open var traitCollection: UITraitCollection { .current }
    open func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {}
    /// Where the controller stands between appearance calls (UIKit calls each once per change).
    private var appearance = Appearance.disappeared

    private enum Appearance {
        case disappeared, appearing, appeared, disappearing
    }

    /// A controller with no nib (there are none here).
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}

    /// Controllers are never decoded here; this exists so a subclass's `required init?(coder:)` compiles.
    public required init?(coder: NSCoder) {}

    public convenience init() {
        self.init(nibName: nil, bundle: nil)
    }

    // MARK: - The view

    /// The root view, loaded on first use: `loadView()` then `viewDidLoad()`.
    open var view: UIView! {
        get {
            loadViewIfNeeded()
            return loadedView
        }
        set {
            loadedView?.owningController = nil
            loadedView = newValue
            newValue?.owningController = self
        }
    }

    /// The root view if it is loaded, without loading it.
    open var viewIfLoaded: UIView? { loadedView }

    open var isViewLoaded: Bool { loadedView != nil }

    /// Loads the view now if it is not loaded yet.
    open func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        loadView()
        if loadedView == nil { view = UIView() }
        viewDidLoad()
    }

    /// Makes the root view; the default makes an empty `UIView`. Override it to build the
    /// view yourself, without calling `super`.
    open func loadView() {
        view = UIView()
    }

    /// The view was loaded.
    open func viewDidLoad() {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewWillDisappear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}
    open func viewWillLayoutSubviews() {}
    open func viewDidLayoutSubviews() {}

    /// The first half of an appearance change (`viewWillAppear` or `viewWillDisappear`).
    func beginAppearance(_ appearing: Bool) {
        switch (appearing, appearance) {
        case (true, .disappeared), (true, .disappearing):
            appearance = .appearing
            viewWillAppear(false)
        case (false, .appeared), (false, .appearing):
            appearance = .disappearing
            viewWillDisappear(false)
        default:
            break
        }
    }

    /// The second half of an appearance change (`viewDidAppear` or `viewDidDisappear`).
    func endAppearance(_ appearing: Bool) {
        switch (appearing, appearance) {
        case (true, .appearing):
            appearance = .appeared
            // iOS lays the view out between the two appearance calls; nothing is laid out
            // here, but the controller hears of it.
            viewWillLayoutSubviews()
            viewDidLayoutSubviews()
            viewDidAppear(false)
        case (false, .disappearing):
            appearance = .disappeared
            viewDidDisappear(false)
        default:
            break
        }
    }

    /// The system starts showing (or hiding) this controller's root view: `viewWillAppear`
    /// (or `viewWillDisappear`) for every controller whose view is in its hierarchy.
    package func beginSystemAppearance(_ shown: Bool) {
        guard let root = loadedView else { return }
        if shown { root.isWindowRoot = true }
        root.forEachController { $0.beginAppearance(shown) }
    }

    /// The second half: `viewDidAppear` (or `viewDidDisappear`) down the hierarchy.
    package func endSystemAppearance(_ shown: Bool) {
        guard let root = loadedView else { return }
        if shown { root.announceWindowChange() }
        root.forEachController { $0.endAppearance(shown) }
        if !shown {
            root.isWindowRoot = false
            root.announceWindowChange()
        }
    }

    // MARK: - Containment

    /// Adds `childController` as a child; calls its `willMove(toParent:)` with this
    /// controller, as UIKit does. Add its view yourself, then call its `didMove(toParent:)`.
    open func addChild(_ childController: UIViewController) {
        guard childController !== self else { return }
        if childController.parent !== self { childController.removeFromParent() }
        childController.willMove(toParent: self)
        children.removeAll { $0 === childController }
        children.append(childController)
        childController.parent = self
    }

    /// Removes the controller from its parent and calls `didMove(toParent: nil)`, as UIKit
    /// does; call `willMove(toParent: nil)` and remove its view yourself first.
    open func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
        didMove(toParent: nil)
    }

    /// The controller is about to be added to `parent` (nil: removed).
    open func willMove(toParent parent: UIViewController?) {}
    /// The controller was added to `parent` (nil: removed).
    open func didMove(toParent parent: UIViewController?) {}

    // MARK: - Presentation

    /// Presents `viewControllerToPresent` over this controller, at once (nothing animates);
    /// `completion` runs before this returns.
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil) {
        guard presentedViewController == nil, viewControllerToPresent !== self else { return }
        presentedViewController = viewControllerToPresent
        viewControllerToPresent.presentingViewController = self
        let shown = loadedView?.isVisible ?? false
        viewControllerToPresent.loadViewIfNeeded()
        if shown { viewControllerToPresent.beginAppearance(true) }
        if shown { viewControllerToPresent.endAppearance(true) }
        completion?()
    }

    /// Dismisses the controller this one presents, or this one if it is presented, at
    /// once; `completion` runs before this returns.
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        let presented: UIViewController
        if let shown = presentedViewController {
            presented = shown
        } else if let presenter = presentingViewController {
            presenter.dismiss(animated: flag, completion: completion)
            return
        } else {
            completion?()
            return
        }
        let shown = loadedView?.isVisible ?? false
        if shown { presented.beginAppearance(false) }
        presentedViewController = nil
        presented.presentingViewController = nil
        if shown { presented.endAppearance(false) }
        completion?()
    }
}

/// `UIModalPresentationStyle`, with UIKit's raw values; kept, nothing is presented on screen.
public enum UIModalPresentationStyle: Int, Sendable {
    case fullScreen = 0, pageSheet, formSheet, currentContext, custom, overFullScreen, overCurrentContext, popover
    case none = -1, automatic = -2
}
