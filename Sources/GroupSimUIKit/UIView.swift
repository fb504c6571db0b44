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

/// `UILabel`: text a controller sets; nothing draws it.
@MainActor
open class UILabel: UIView {
    open var text: String?
    open var numberOfLines = 1
    open var textColor: UIColor?
}

/// `UIImageView`: the image it shows; nothing is drawn.
@MainActor
open class UIImageView: UIView {
    open var image: UIImage?

    public convenience init(image: UIImage?) {
        self.init(frame: .zero)
        self.image = image
    }
}

/// `UIButton`: a title per state and the actions added for its events. Nothing taps it:
/// call the action your button runs from your tests, or `sendActions(for:)`.
@MainActor
open class UIButton: UIView {
    private var titles: [UInt: String] = [:]
    private var actions: [(event: UIControl.Event, action: UIAction)] = []
    open var isEnabled = true

    /// A button; the type only changes how UIKit draws it.
    public convenience init(type buttonType: UIButton.ButtonType) {
        self.init(frame: .zero)
    }

    /// A button that runs `primaryAction` when tapped.
    public convenience init(primaryAction: UIAction?) {
        self.init(frame: .zero)
        if let primaryAction { addAction(primaryAction, for: .touchUpInside) }
    }

    public enum ButtonType: Int, Sendable {
        case custom = 0, system
    }

    open func setTitle(_ title: String?, for state: UIControl.State) { titles[state.rawValue] = title }
    open func title(for state: UIControl.State) -> String? { titles[state.rawValue] ?? titles[UIControl.State.normal.rawValue] }

    open func addAction(_ action: UIAction, for controlEvents: UIControl.Event) {
        actions.append((controlEvents, action))
    }

    /// Runs the actions added for `controlEvents`, as a tap would.
    open func sendActions(for controlEvents: UIControl.Event) {
        guard isEnabled else { return }
        for entry in actions where entry.event.rawValue & controlEvents.rawValue != 0 { entry.action.handler(entry.action) }
    }
}

/// The part of `UIControl` buttons use: states and events.
public enum UIControl {
    public struct State: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let normal = State([])
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
    }

    public struct Event: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let valueChanged = Event(rawValue: 1 << 12)
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
    }
}

/// `UIAction`: a closure a control runs.
@MainActor
public final class UIAction {
    public let title: String
    let handler: @MainActor (UIAction) -> Void

    public init(title: String = "", handler: @escaping @MainActor (UIAction) -> Void) {
        self.title = title
        self.handler = handler
    }
}

/// `UIStackView`: its arranged subviews, in order; nothing is laid out.
@MainActor
open class UIStackView: UIView {
    open private(set) var arrangedSubviews: [UIView] = []
    open var axis: NSLayoutConstraint.Axis = .horizontal
    open var spacing: CGFloat = 0

    public convenience init(arrangedSubviews views: [UIView]) {
        self.init(frame: .zero)
        for view in views { addArrangedSubview(view) }
    }

    open func addArrangedSubview(_ view: UIView) {
        arrangedSubviews.append(view)
        addSubview(view)
    }

    open func removeArrangedSubview(_ view: UIView) {
        arrangedSubviews.removeAll { $0 === view }
    }
}
