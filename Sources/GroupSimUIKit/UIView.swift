import Foundation

/// `UIView`, as far as an extension's controller code touches it: a tree of views with
/// frames and flags. Nothing is drawn or laid out; the tree is real, so a controller that
/// adds a child's view and later removes it finds it where UIKit would.
@MainActor
open class UIView {
    /// The views inside this one, back to front.
    open private(set) var subviews: [UIView] = []
    /// The view this one is inside, if any.
    open private(set) weak var superview: UIView?
    /// Where the view sits in its superview; nothing reads it but your own code.
    open var frame: CGRect
    /// The view's own coordinate space: the frame's size at the origin.
    open var bounds: CGRect {
        get { CGRect(origin: .zero, size: frame.size) }
        set { frame.size = newValue.size }
    }
    open var isHidden = false
    open var alpha: CGFloat = 1
    open var backgroundColor: UIColor?
    open var tintColor: UIColor?
    open var isUserInteractionEnabled = true
    open var translatesAutoresizingMaskIntoConstraints = true
    /// The constraints added with `addConstraint(_:)`, and those activated that name this view first.
    open internal(set) var constraints: [NSLayoutConstraint] = []
    /// The controller whose root view this is, for appearance calls when it enters or
    /// leaves a visible hierarchy.
    weak var owningController: UIViewController?
    /// Set on the root view of the controller the system shows.
    var isWindowRoot = false

    public init(frame: CGRect) {
        self.frame = frame
    }

    /// Views are never decoded here; this exists so a subclass's `required init?(coder:)`
    /// compiles and may call `super.init(coder:)`, as on iOS.
    public required init?(coder: NSCoder) {
        frame = .zero
    }

    public convenience init() {
        self.init(frame: .zero)
    }

    /// Whether the view is in the hierarchy the system shows now.
    var isVisible: Bool {
        var view: UIView? = self
        while let current = view {
            if current.isWindowRoot { return true }
            view = current.superview
        }
        return false
    }

    /// Adds `view` on top of the subviews, moving it from its old superview. A view
    /// controller's view entering the shown hierarchy gets its appearance calls.
    open func addSubview(_ view: UIView) {
        insertSubview(view, at: subviews.count)
    }

    /// Adds `view` at `index` among the subviews (clamped to the list).
    open func insertSubview(_ view: UIView, at index: Int) {
        guard view !== self else { return }
        let appearing = isVisible && !view.isVisible
        if view.superview != nil { view.detach(disappearing: false) }
        if appearing { view.forEachController { $0.beginAppearance(true) } }
        subviews.insert(view, at: max(0, min(index, subviews.count)))
        view.superview = self
        if appearing { view.announceWindowChange() }
        if appearing { view.forEachController { $0.endAppearance(true) } }
    }

    /// Moves `view` to the front if it is a subview.
    open func bringSubviewToFront(_ view: UIView) {
        guard let index = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.append(subviews.remove(at: index))
    }

    /// Takes the view out of its superview.
    open func removeFromSuperview() {
        detach(disappearing: true)
    }

    private func detach(disappearing: Bool) {
        guard let superview else { return }
        let leaving = disappearing && isVisible
        if leaving { forEachController { $0.beginAppearance(false) } }
        superview.subviews.removeAll { $0 === self }
        self.superview = nil
        if leaving { announceWindowChange() }
        if leaving { forEachController { $0.endAppearance(false) } }
    }

    /// Calls `body` for the controllers whose views are in this tree, outermost first.
    func forEachController(_ body: (UIViewController) -> Void) {
        if let owningController { body(owningController) }
        for subview in subviews { subview.forEachController(body) }
    }

    /// Whether `view` is this view or inside it.
    open func isDescendant(of view: UIView) -> Bool {
        var current: UIView? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.superview
        }
        return false
    }

    open func addConstraint(_ constraint: NSLayoutConstraint) {
        constraints.append(constraint)
    }

    open func addConstraints(_ constraints: [NSLayoutConstraint]) {
        self.constraints += constraints
    }

    open func removeConstraint(_ constraint: NSLayoutConstraint) {
        constraints.removeAll { $0 === constraint }
    }

    open func setNeedsLayout() {}
    open func layoutIfNeeded() {}
    open func layoutSubviews() {}

    /// The view's size as laid out; GroupSim lays nothing out, so it is the frame's size.
    open func sizeThatFits(_ size: CGSize) -> CGSize { frame.size }

    /// How the content fills the bounds; kept, nothing is drawn.
    open var contentMode: ContentMode = .scaleToFill
    open var clipsToBounds = false
    open var tag = 0
    open var layoutMargins = UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
    open var directionalLayoutMargins = NSDirectionalEdgeInsets(top: 8, leading: 8, bottom: 8, trailing: 8)
    open var preservesSuperviewLayoutMargins = false
    /// Nothing overlaps the view here (no status bar, no home indicator): zero.
    open var safeAreaInsets: UIEdgeInsets { .zero }
    /// The traits the view is shown with: GroupSim's one device class (see `UITraitCollection.current`).
    open var traitCollection: UITraitCollection { .current }
    open private(set) var layoutGuides: [UILayoutGuide] = []
    private var contentPriorities: [String: UILayoutPriority] = [:]

    /// The center of the frame, in the superview's coordinates.
    open var center: CGPoint {
        get { CGPoint(x: frame.midX, y: frame.midY) }
        set { frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
    }

    /// The size the content wants; `noIntrinsicMetric` in both directions for a plain
    /// view. Override it, as on iOS; image views answer their image's size.
    open var intrinsicContentSize: CGSize {
        CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric)
    }

    open func invalidateIntrinsicContentSize() {}

    /// The area inside the safe area insets, for constraints; recorded like any anchor.
    public private(set) lazy var safeAreaLayoutGuide = ownGuide("UIViewSafeAreaLayoutGuide")
    /// The area inside the layout margins, for constraints; recorded like any anchor.
    public private(set) lazy var layoutMarginsGuide = ownGuide("UIViewLayoutMarginsGuide")

    private func ownGuide(_ identifier: String) -> UILayoutGuide {
        let guide = UILayoutGuide()
        guide.identifier = identifier
        guide.owningView = self
        return guide
    }

    open func addLayoutGuide(_ layoutGuide: UILayoutGuide) {
        layoutGuide.owningView = self
        layoutGuides.append(layoutGuide)
    }

    open func removeLayoutGuide(_ layoutGuide: UILayoutGuide) {
        layoutGuides.removeAll { $0 === layoutGuide }
        layoutGuide.owningView = nil
    }

    open func setContentHuggingPriority(_ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis) {
        contentPriorities["hug\(axis.rawValue)"] = priority
    }

    open func contentHuggingPriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        contentPriorities["hug\(axis.rawValue)"] ?? .defaultLow
    }

    open func setContentCompressionResistancePriority(_ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis) {
        contentPriorities["resist\(axis.rawValue)"] = priority
    }

    open func contentCompressionResistancePriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        contentPriorities["resist\(axis.rawValue)"] ?? .defaultHigh
    }

    /// The first view in this tree (this one included) whose `tag` is `tag`.
    open func viewWithTag(_ tag: Int) -> UIView? {
        if self.tag == tag { return self }
        for subview in subviews {
            if let found = subview.viewWithTag(tag) { return found }
        }
        return nil
    }

    /// Nothing draws: UIKit would call this to paint the view; override it as on iOS.
    open func draw(_ rect: CGRect) {}
    open func sizeToFit() {}
    /// The view entered or left the hierarchy the system shows (a table or collection
    /// view loads its data the first time).
    open func didMoveToWindow() {}
    open func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {}

    /// Calls `didMoveToWindow()` on this view and every view inside it.
    func announceWindowChange() {
        didMoveToWindow()
        for subview in subviews { subview.announceWindowChange() }
    }

    /// `UIView.noIntrinsicMetric`: no size of its own in that direction.
    public static let noIntrinsicMetric: CGFloat = -1

    public enum ContentMode: Int, Sendable {
        case scaleToFill = 0, scaleAspectFit, scaleAspectFill, redraw, center, top, bottom, left, right
        case topLeft, topRight, bottomLeft, bottomRight
    }

    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
        public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
        public static let curveEaseInOut = AnimationOptions([])
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)
        public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
    }

    // MARK: - Animation, at once

    /// Nothing animates: `animations` runs now, then `completion(true)`, before this returns.
    open class func animate(withDuration duration: TimeInterval, animations: @escaping @MainActor () -> Void) {
        animations()
    }

    /// Nothing animates: `animations` runs now, then `completion(true)`, before this returns.
    open class func animate(withDuration duration: TimeInterval, animations: @escaping @MainActor () -> Void,
                            completion: (@MainActor (Bool) -> Void)? = nil) {
        animations()
        completion?(true)
    }

    /// Nothing animates or waits: `animations` runs now, then `completion(true)`.
    open class func animate(withDuration duration: TimeInterval, delay: TimeInterval, options: AnimationOptions = [],
                            animations: @escaping @MainActor () -> Void, completion: (@MainActor (Bool) -> Void)? = nil) {
        animate(withDuration: duration, animations: animations, completion: completion)
    }

    /// Nothing animates or waits: `animations` runs now, then `completion(true)`.
    open class func animate(withDuration duration: TimeInterval, delay: TimeInterval, usingSpringWithDamping dampingRatio: CGFloat,
                            initialSpringVelocity velocity: CGFloat, options: AnimationOptions = [],
                            animations: @escaping @MainActor () -> Void, completion: (@MainActor (Bool) -> Void)? = nil) {
        animate(withDuration: duration, animations: animations, completion: completion)
    }

    /// Nothing animates: `animations` runs now, then `completion(true)`.
    open class func transition(with view: UIView, duration: TimeInterval, options: AnimationOptions = [],
                               animations: (@MainActor () -> Void)?, completion: (@MainActor (Bool) -> Void)? = nil) {
        animations?()
        completion?(true)
    }

    open class func performWithoutAnimation(_ actionsWithoutAnimation: @MainActor () -> Void) {
        actionsWithoutAnimation()
    }

    // The anchors a layout names; each constraint made from them is recorded, not solved.
    open var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .leading) }
    open var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .trailing) }
    open var leftAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .left) }
    open var rightAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .right) }
    open var centerXAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(self, .centerX) }
    open var topAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .top) }
    open var bottomAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .bottom) }
    open var centerYAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(self, .centerY) }
    open var widthAnchor: NSLayoutDimension { NSLayoutDimension(self, .width) }
    open var heightAnchor: NSLayoutDimension { NSLayoutDimension(self, .height) }
}

