import Foundation

/// `NSLayoutConstraint`: a relation between two anchors, recorded and never solved.
/// `activate` and `deactivate` flip `isActive`, so a controller that swaps its layout
/// can check which constraints are on.
@MainActor
open class NSLayoutConstraint {
    public enum Attribute: Int, Sendable {
        case left = 1, right, top, bottom, leading, trailing, width, height, centerX, centerY
        case notAnAttribute = 0
    }

    /// A stack view's direction.
    public enum Axis: Int, Sendable {
        case horizontal = 0, vertical
    }

    public enum Relation: Int, Sendable {
        case lessThanOrEqual = -1, equal = 0, greaterThanOrEqual = 1
    }

    /// The view (or layout guide) the constraint starts from.
    open private(set) weak var firstItem: AnyObject?
    open private(set) var firstAttribute: Attribute
    open private(set) var relation: Relation
    /// The view (or layout guide) the constraint relates to; nil for a constant width or height.
    open private(set) weak var secondItem: AnyObject?
    open private(set) var secondAttribute: Attribute
    open private(set) var multiplier: CGFloat
    open var constant: CGFloat
    open var priority: UILayoutPriority = .required
    open var identifier: String?
    /// Whether the constraint is on; nothing is laid out either way.
    open var isActive = false

    init(_ first: AnyObject?, _ firstAttribute: Attribute, _ relation: Relation, _ second: AnyObject?, _ secondAttribute: Attribute,
         multiplier: CGFloat = 1, constant: CGFloat = 0) {
        firstItem = first
        self.firstAttribute = firstAttribute
        self.relation = relation
        secondItem = second
        self.secondAttribute = secondAttribute
        self.multiplier = multiplier
        self.constant = constant
    }

    /// Turns each constraint on.
    public static func activate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = true }
    }

    /// Turns each constraint off.
    public static func deactivate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = false }
    }
}

/// The base of the anchors: a view (or layout guide) and one of its attributes.
@MainActor
open class NSLayoutAnchor<AnchorType: AnyObject> {
    weak var view: AnyObject?
    let attribute: NSLayoutConstraint.Attribute

    init(_ view: AnyObject, _ attribute: NSLayoutConstraint.Attribute) {
        self.view = view
        self.attribute = attribute
    }

    private func relate(_ relation: NSLayoutConstraint.Relation, _ anchor: NSLayoutAnchor<AnchorType>,
                        _ constant: CGFloat) -> NSLayoutConstraint {
        NSLayoutConstraint(view, attribute, relation, anchor.view, anchor.attribute, constant: constant)
    }

    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint { relate(.equal, anchor, 0) }
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat) -> NSLayoutConstraint {
        relate(.equal, anchor, c)
    }
    open func constraint(greaterThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint {
        relate(.greaterThanOrEqual, anchor, 0)
    }
    open func constraint(greaterThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat) -> NSLayoutConstraint {
        relate(.greaterThanOrEqual, anchor, c)
    }
    open func constraint(lessThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint {
        relate(.lessThanOrEqual, anchor, 0)
    }
    open func constraint(lessThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat) -> NSLayoutConstraint {
        relate(.lessThanOrEqual, anchor, c)
    }
}

/// `NSLayoutXAxisAnchor`: leading, trailing, left, right, centerX.
@MainActor
public final class NSLayoutXAxisAnchor: NSLayoutAnchor<NSLayoutXAxisAnchor> {}

/// `NSLayoutYAxisAnchor`: top, bottom, centerY.
@MainActor
public final class NSLayoutYAxisAnchor: NSLayoutAnchor<NSLayoutYAxisAnchor> {}

/// `NSLayoutDimension`: width and height, which may also equal a constant.
@MainActor
public final class NSLayoutDimension: NSLayoutAnchor<NSLayoutDimension> {
    public func constraint(equalToConstant c: CGFloat) -> NSLayoutConstraint {
        NSLayoutConstraint(view, attribute, .equal, nil, .notAnAttribute, constant: c)
    }

    public func constraint(equalTo anchor: NSLayoutDimension, multiplier m: CGFloat) -> NSLayoutConstraint {
        NSLayoutConstraint(view, attribute, .equal, anchor.view, anchor.attribute, multiplier: m)
    }
}

/// `UILayoutPriority`: how much a constraint or a view's content size matters.
public struct UILayoutPriority: RawRepresentable, Hashable, Comparable, Sendable {
    public var rawValue: Float
    public init(rawValue: Float) { self.rawValue = rawValue }
    public init(_ rawValue: Float) { self.rawValue = rawValue }

    public static let required = UILayoutPriority(1000)
    public static let defaultHigh = UILayoutPriority(750)
    public static let dragThatCanResizeScene = UILayoutPriority(510)
    public static let defaultLow = UILayoutPriority(250)
    public static let fittingSizeLevel = UILayoutPriority(50)

    public static func < (lhs: UILayoutPriority, rhs: UILayoutPriority) -> Bool { lhs.rawValue < rhs.rawValue }
    public static func + (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority { UILayoutPriority(lhs.rawValue + rhs) }
    public static func - (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority { UILayoutPriority(lhs.rawValue - rhs) }
}

/// `UILayoutGuide`: a rectangle constraints can name instead of a view (the safe area,
/// the layout margins, or your own). Its anchors record constraints as a view's do.
@MainActor
open class UILayoutGuide {
    /// The view the guide belongs to.
    open internal(set) weak var owningView: UIView?
    open var identifier = ""
    /// Nothing is laid out: the owning view's bounds (zero without one).
    open var layoutFrame: CGRect { owningView?.bounds ?? .zero }

    public init() {}

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
