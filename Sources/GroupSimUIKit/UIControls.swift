import Foundation

/// `UIControl`: states, and the actions added for its events. Nothing taps it:
/// `sendActions(for:)` does what a tap would, for your tests.
///
/// Target-action with `#selector` needs the Objective-C runtime: where it exists
/// (macOS), `addTarget(_:action:for:)` is here and `sendActions(for:)` performs the
/// selector on the target; on Linux, add a `UIAction` with `addAction(_:for:)` instead.
@MainActor
open class UIControl: UIView {
    private var actions: [(event: Event, action: UIAction)] = []
    open var isEnabled = true
    open var isSelected = false
    open var isHighlighted = false

    /// The control's state, from its flags.
    open var state: State {
        var state = State.normal
        if isHighlighted { state.insert(.highlighted) }
        if !isEnabled { state.insert(.disabled) }
        if isSelected { state.insert(.selected) }
        return state
    }

    /// A control that runs `primaryAction` on its primary event (a button's tap).
    public convenience init(frame: CGRect, primaryAction: UIAction?) {
        self.init(frame: frame)
        if let primaryAction { addAction(primaryAction, for: .primaryActionTriggered) }
    }

    open func addAction(_ action: UIAction, for controlEvents: Event) {
        actions.append((controlEvents, action))
    }

    open func removeAction(_ action: UIAction, for controlEvents: Event) {
        actions.removeAll { $0.action === action && $0.event == controlEvents }
    }

    /// Runs the actions (and, with the Objective-C runtime, the targets' selectors) added
    /// for `controlEvents`, in the order they were added, as the event would. A disabled
    /// control runs nothing. A tap's `touchUpInside` also runs the primary actions.
    open func sendActions(for controlEvents: Event) {
        guard isEnabled else { return }
        var events = controlEvents
        if events.contains(.touchUpInside) { events.insert(.primaryActionTriggered) }
        for entry in actions where !entry.event.isDisjoint(with: events) { entry.action.handler(entry.action) }
        #if canImport(ObjectiveC)
        for entry in targets where !entry.events.isDisjoint(with: events) {
            _ = (entry.target.object as? NSObjectProtocol)?.perform(entry.action, with: self)
        }
        #endif
    }

    #if canImport(ObjectiveC)
    private var targets: [(target: WeakTarget, action: Selector, events: Event)] = []

    private struct WeakTarget {
        weak var object: AnyObject?
    }

    /// Calls `action` on `target` (kept weakly) when one of `controlEvents` happens.
    open func addTarget(_ target: Any?, action: Selector, for controlEvents: Event) {
        targets.append((WeakTarget(object: target as AnyObject?), action, controlEvents))
    }

    open func removeTarget(_ target: Any?, action: Selector?, for controlEvents: Event) {
        let object = target as AnyObject?
        targets.removeAll { entry in
            (object == nil || entry.target.object === object) && (action == nil || entry.action == action)
                && !entry.events.isDisjoint(with: controlEvents)
        }
    }
    #endif

    public struct State: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let normal = State([])
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
        public static let focused = State(rawValue: 1 << 3)
    }

    public struct Event: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let touchDown = Event(rawValue: 1 << 0)
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        public static let touchCancel = Event(rawValue: 1 << 8)
        public static let valueChanged = Event(rawValue: 1 << 12)
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        public static let editingDidBegin = Event(rawValue: 1 << 16)
        public static let editingChanged = Event(rawValue: 1 << 17)
        public static let editingDidEnd = Event(rawValue: 1 << 18)
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
    }
}

/// `UIButton`: a title, image and color per state, a `Configuration`, and the actions
/// of a control. Nothing draws or taps it: `sendActions(for: .touchUpInside)` taps it.
@MainActor
open class UIButton: UIControl {
    private var titles: [UInt: String] = [:]
    private var titleColors: [UInt: UIColor] = [:]
    private var images: [UInt: UIImage] = [:]
    /// The button's configuration (iOS 15); kept, nothing draws it.
    open var configuration: Configuration? {
        didSet { setNeedsUpdateConfiguration() }
    }
    /// Runs when the configuration should be brought up to date with the state.
    open var configurationUpdateHandler: ((UIButton) -> Void)?
    open var automaticallyUpdatesConfiguration = true
    open private(set) var buttonType: ButtonType = .custom
    public private(set) lazy var titleLabel: UILabel? = UILabel()
    public private(set) lazy var imageView: UIImageView? = UIImageView()

    /// A button; the type only changes how UIKit draws it.
    public convenience init(type buttonType: UIButton.ButtonType) {
        self.init(frame: .zero)
        self.buttonType = buttonType
    }

    /// A button that runs `primaryAction` when tapped.
    public convenience init(primaryAction: UIAction?) {
        self.init(frame: .zero, primaryAction: primaryAction)
        buttonType = .system
    }

    /// A button with a configuration (iOS 15) that runs `primaryAction` when tapped.
    public convenience init(configuration: Configuration, primaryAction: UIAction? = nil) {
        self.init(frame: .zero, primaryAction: primaryAction)
        buttonType = .system
        self.configuration = configuration
    }

    public enum ButtonType: Int, Sendable {
        case custom = 0, system, detailDisclosure, infoLight, infoDark, contactAdd, close
    }

    open func setTitle(_ title: String?, for state: State) { titles[state.rawValue] = title }
    open func title(for state: State) -> String? { titles[state.rawValue] ?? titles[State.normal.rawValue] }
    open func setTitleColor(_ color: UIColor?, for state: State) { titleColors[state.rawValue] = color }
    open func titleColor(for state: State) -> UIColor? { titleColors[state.rawValue] ?? titleColors[State.normal.rawValue] }
    open func setImage(_ image: UIImage?, for state: State) { images[state.rawValue] = image }
    open func image(for state: State) -> UIImage? { images[state.rawValue] ?? images[State.normal.rawValue] }
    /// The title for the current state: the configuration's, else the one set for the state.
    open var currentTitle: String? { configuration?.title ?? title(for: state) }
    open var currentImage: UIImage? { configuration?.image ?? image(for: state) }

    /// Asks for `updateConfiguration()`, which runs at once here.
    open func setNeedsUpdateConfiguration() { updateConfiguration() }
    /// Brings the configuration up to date: runs `configurationUpdateHandler`.
    open func updateConfiguration() { configurationUpdateHandler?(self) }

    /// `UIButton.Configuration` (iOS 15): what the button shows, kept as given.
    public struct Configuration: Sendable {
        public var title: String?
        public var subtitle: String?
        public var image: UIImage?
        public var baseForegroundColor: UIColor?
        public var baseBackgroundColor: UIColor?
        public var imagePlacement: NSDirectionalRectEdge = .leading
        public var imagePadding: CGFloat = 0
        public var titlePadding: CGFloat = 0
        public var contentInsets = NSDirectionalEdgeInsets(top: 6, leading: 12, bottom: 6, trailing: 12)
        public var cornerStyle: CornerStyle = .dynamic
        public var buttonSize: Size = .medium
        public var showsActivityIndicator = false
        public var titleAlignment: TitleAlignment = .automatic
        /// Which of the factory styles made it (`"filled"`, `"plain"`...), GroupSim's own.
        public let style: String

        init(style: String) { self.style = style }

        public static func plain() -> Configuration { Configuration(style: "plain") }
        public static func tinted() -> Configuration { Configuration(style: "tinted") }
        public static func gray() -> Configuration { Configuration(style: "gray") }
        public static func filled() -> Configuration { Configuration(style: "filled") }
        public static func borderless() -> Configuration { Configuration(style: "borderless") }
        public static func bordered() -> Configuration { Configuration(style: "bordered") }
        public static func borderedTinted() -> Configuration { Configuration(style: "borderedTinted") }
        public static func borderedProminent() -> Configuration { Configuration(style: "borderedProminent") }

        public enum CornerStyle: Int, Sendable { case fixed = -1, dynamic, small, medium, large, capsule }
        public enum Size: Int, Sendable { case mini, small, medium, large }
        public enum TitleAlignment: Int, Sendable { case automatic, leading, center, trailing }
    }
}

/// `UIAction`: a closure a control runs.
@MainActor
public final class UIAction {
    public let title: String
    public let image: UIImage?
    let handler: @MainActor (UIAction) -> Void

    public init(title: String = "", image: UIImage? = nil, handler: @escaping @MainActor (UIAction) -> Void) {
        self.title = title
        self.image = image
        self.handler = handler
    }
}
