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

    /// The view the constraint starts from.
    open private(set) weak var firstItem: UIView?
    open private(set) var firstAttribute: Attribute
    open private(set) var relation: Relation
    /// The view the constraint relates to; nil for a constant width or height.
    open private(set) weak var secondItem: UIView?
    open private(set) var secondAttribute: Attribute
    open private(set) var multiplier: CGFloat
    open var constant: CGFloat
    open var priority: Float = 1000
    open var identifier: String?
    /// Whether the constraint is on; nothing is laid out either way.
    open var isActive = false

    init(_ first: UIView?, _ firstAttribute: Attribute, _ relation: Relation, _ second: UIView?, _ secondAttribute: Attribute,
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

/// The base of the anchors: a view and one of its attributes.
@MainActor
open class NSLayoutAnchor<AnchorType: AnyObject> {
    weak var view: UIView?
    let attribute: NSLayoutConstraint.Attribute

    init(_ view: UIView, _ attribute: NSLayoutConstraint.Attribute) {
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
