import Foundation

/// `UICollectionViewLayoutAttributes`: where a layout puts one item.
@MainActor
open class UICollectionViewLayoutAttributes {
    open var indexPath: IndexPath
    open var frame: CGRect = .zero
    open var alpha: CGFloat = 1
    open var zIndex = 0
    open var isHidden = false
    public let representedElementCategory: UICollectionView.ElementCategory
    public let representedElementKind: String?

    init(indexPath: IndexPath, category: UICollectionView.ElementCategory, kind: String?) {
        self.indexPath = indexPath
        representedElementCategory = category
        representedElementKind = kind
    }

    public convenience init(forCellWith indexPath: IndexPath) { self.init(indexPath: indexPath, category: .cell, kind: nil) }

    public convenience init(forSupplementaryViewOfKind elementKind: String, with indexPath: IndexPath) {
        self.init(indexPath: indexPath, category: .supplementaryView, kind: elementKind)
    }

    open var center: CGPoint {
        get { CGPoint(x: frame.midX, y: frame.midY) }
        set { frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
    }

    open var size: CGSize {
        get { frame.size }
        set { frame.size = newValue }
    }

    open var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }

    /// A copy, as `NSCopying`'s `copy()` gives it (cast it back, as on iOS).
    open func copy() -> Any {
        let copy = UICollectionViewLayoutAttributes(indexPath: indexPath, category: representedElementCategory, kind: representedElementKind)
        copy.frame = frame
        copy.alpha = alpha
        copy.zIndex = zIndex
        copy.isHidden = isHidden
        return copy
    }
}

extension UICollectionView {
    public enum ElementCategory: Int, Sendable { case cell = 0, supplementaryView, decorationView }
}

/// `UICollectionViewLayout`: the base of layouts an app subclasses. The collection view
/// calls `prepare()` on each reload, then reads `collectionViewContentSize` and
/// `layoutAttributesForElements(in:)` (and `layoutAttributesForItem(at:)` for an item
/// those left out), so an override is called as on iOS.
@MainActor
open class UICollectionViewLayout {
    /// The collection view using this layout.
    open internal(set) weak var collectionView: UICollectionView?

    public init() {}

    public required init?(coder: NSCoder) {}

    open func prepare() {}
    open func invalidateLayout() {}
    open var collectionViewContentSize: CGSize { .zero }
    open func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? { nil }
    open func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? { nil }
    open func layoutAttributesForSupplementaryView(ofKind elementKind: String, at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        nil
    }
    open func shouldInvalidateLayout(forBoundsChange newBounds: CGRect) -> Bool { false }
    open func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint) -> CGPoint { proposedContentOffset }
    open func targetContentOffset(forProposedContentOffset proposedContentOffset: CGPoint, withScrollingVelocity velocity: CGPoint) -> CGPoint {
        proposedContentOffset
    }
}

/// `UICollectionViewDelegateFlowLayout`: per-item sizes and per-section spacing for a
/// flow layout; each defaults to the layout's own property.
@MainActor
public protocol UICollectionViewDelegateFlowLayout: UICollectionViewDelegate {
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        sizeForItemAt indexPath: IndexPath) -> CGSize
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        insetForSectionAt section: Int) -> UIEdgeInsets
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        minimumLineSpacingForSectionAt section: Int) -> CGFloat
    func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                        minimumInteritemSpacingForSectionAt section: Int) -> CGFloat
}

extension UICollectionViewDelegateFlowLayout {
    private func flow(_ layout: UICollectionViewLayout) -> UICollectionViewFlowLayout {
        layout as? UICollectionViewFlowLayout ?? UICollectionViewFlowLayout()
    }

    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                               sizeForItemAt indexPath: IndexPath) -> CGSize {
        flow(collectionViewLayout).itemSize
    }
    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                               insetForSectionAt section: Int) -> UIEdgeInsets {
        flow(collectionViewLayout).sectionInset
    }
    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                               minimumLineSpacingForSectionAt section: Int) -> CGFloat {
        flow(collectionViewLayout).minimumLineSpacing
    }
    public func collectionView(_ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                               minimumInteritemSpacingForSectionAt section: Int) -> CGFloat {
        flow(collectionViewLayout).minimumInteritemSpacing
    }
}

/// `UICollectionViewFlowLayout`: places items in lines across the scroll direction, at
/// the minimum spacings (UIKit also spreads a line's leftover space; GroupSim does not),
/// wrapping a line when the next item would pass the collection view's bounds. Sizes
/// and spacings come from the delegate when it is a `UICollectionViewDelegateFlowLayout`.
/// Subclass it and override `prepare()`, `layoutAttributesForElements(in:)`...
@MainActor
open class UICollectionViewFlowLayout: UICollectionViewLayout {
    open var itemSize = CGSize(width: 50, height: 50)
    open var estimatedItemSize: CGSize = .zero
    open var minimumLineSpacing: CGFloat = 10
    open var minimumInteritemSpacing: CGFloat = 10
    open var sectionInset: UIEdgeInsets = .zero
    open var scrollDirection: UICollectionView.ScrollDirection = .vertical
    open var headerReferenceSize: CGSize = .zero
    open var footerReferenceSize: CGSize = .zero
    private var placed: [UICollectionViewLayoutAttributes] = []
    private var contentSize: CGSize = .zero

    public static let automaticSize = CGSize(width: CGFloat.greatestFiniteMagnitude, height: CGFloat.greatestFiniteMagnitude)

    public override init() { super.init() }
    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// Places every item of the collection view; the collection view calls it on each reload.
    open override func prepare() {
        super.prepare()
        placed = []
        guard let collectionView else {
            contentSize = .zero
            return
        }
        let vertical = scrollDirection == .vertical
        let flow = collectionView.delegate as? any UICollectionViewDelegateFlowLayout
        let lineLength = vertical ? collectionView.bounds.width : collectionView.bounds.height
        var depth: CGFloat = 0
        for section in 0..<collectionView.numberOfSections {
            let inset = flow?.collectionView(collectionView, layout: self, insetForSectionAt: section) ?? sectionInset
            let lineSpacing = flow?.collectionView(collectionView, layout: self, minimumLineSpacingForSectionAt: section) ?? minimumLineSpacing
            let itemSpacing = flow?.collectionView(collectionView, layout: self, minimumInteritemSpacingForSectionAt: section)
                ?? minimumInteritemSpacing
            let (lineStart, lineEnd) = vertical ? (inset.left, lineLength - inset.right) : (inset.top, lineLength - inset.bottom)
            depth += vertical ? inset.top : inset.left
            var position = lineStart, thickness: CGFloat = 0, lineIsEmpty = true
            for item in 0..<collectionView.numberOfItems(inSection: section) {
                let indexPath = IndexPath(item: item, section: section)
                let size = flow?.collectionView(collectionView, layout: self, sizeForItemAt: indexPath) ?? itemSize
                let (along, across) = vertical ? (size.width, size.height) : (size.height, size.width)
                if !lineIsEmpty && position + along > lineEnd {
                    depth += thickness + lineSpacing
                    (position, thickness) = (lineStart, 0)
                }
                let attributes = UICollectionViewLayoutAttributes(forCellWith: indexPath)
                attributes.frame = vertical ? CGRect(x: position, y: depth, width: size.width, height: size.height)
                    : CGRect(x: depth, y: position, width: size.width, height: size.height)
                placed.append(attributes)
                position += along + itemSpacing
                thickness = max(thickness, across)
                lineIsEmpty = false
            }
            depth += thickness + (vertical ? inset.bottom : inset.right)
        }
        contentSize = vertical ? CGSize(width: lineLength, height: depth) : CGSize(width: depth, height: lineLength)
    }

    open override var collectionViewContentSize: CGSize { contentSize }

    /// The items placed by the last `prepare()` whose frames meet `rect`.
    open override func layoutAttributesForElements(in rect: CGRect) -> [UICollectionViewLayoutAttributes]? {
        placed.filter { $0.frame.intersects(rect) }
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        placed.first { $0.indexPath == indexPath }
    }
}
