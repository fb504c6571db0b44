import Foundation

/// `IndexPath(row:section:)`, `row`, `section` and `item`: what UIKit adds to Foundation's
/// `IndexPath` for tables and collections.
extension IndexPath {
    public init(row: Int, section: Int) { self.init(indexes: [section, row]) }
    public init(item: Int, section: Int) { self.init(indexes: [section, item]) }

    /// The section: the first index (0 for an empty path, where UIKit would raise).
    public var section: Int {
        get { count > 0 ? self[0] : 0 }
        set { if count > 0 { self[0] = newValue } }
    }

    /// The row in a table: the second index (0 for a shorter path, where UIKit would raise).
    public var row: Int {
        get { count > 1 ? self[1] : 0 }
        set { if count > 1 { self[1] = newValue } }
    }

    /// The item in a collection: the same index as `row`.
    public var item: Int {
        get { row }
        set { row = newValue }
    }
}

/// `UIScrollView`: its content size, offset and insets, kept as given; nothing scrolls.
@MainActor
open class UIScrollView: UIView {
    open var contentOffset: CGPoint = .zero
    open var contentSize: CGSize = .zero
    open var contentInset: UIEdgeInsets = .zero
    open var isScrollEnabled = true
    open var isPagingEnabled = false
    open var bounces = true
    open var alwaysBounceVertical = false
    open var alwaysBounceHorizontal = false
    open var showsVerticalScrollIndicator = true
    open var showsHorizontalScrollIndicator = true
    open var keyboardDismissMode: KeyboardDismissMode = .none
    open var contentInsetAdjustmentBehavior: ContentInsetAdjustmentBehavior = .automatic
    open var decelerationRate: DecelerationRate = .normal

    /// The visible part of the content: its origin is the content offset, as in UIKit.
    open override var bounds: CGRect {
        get { CGRect(origin: contentOffset, size: frame.size) }
        set {
            contentOffset = newValue.origin
            frame.size = newValue.size
        }
    }

    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) { self.contentOffset = contentOffset }
    open func scrollRectToVisible(_ rect: CGRect, animated: Bool) {}

    public enum KeyboardDismissMode: Int, Sendable { case none = 0, onDrag, interactive }
    public enum ContentInsetAdjustmentBehavior: Int, Sendable { case automatic = 0, scrollableAxes, never, always }

    public struct DecelerationRate: RawRepresentable, Hashable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public static let normal = DecelerationRate(rawValue: 0.998)
        public static let fast = DecelerationRate(rawValue: 0.99)
    }
}

/// A cell a table or collection view makes for a registered class and reuses.
@MainActor
protocol ReusableCell: UIView {
    init(registeredReuseIdentifier identifier: String)
    var reuseIdentifier: String? { get }
    func prepareForReuse()
}

/// The reuse queue of a table or collection view: registered classes, and the cells
/// given back by the last reload, by identifier, reused oldest first.
@MainActor
struct CellQueue<Cell: ReusableCell> {
    private var classes: [String: Cell.Type] = [:]
    private var spare: [String: [Cell]] = [:]

    mutating func register(_ cellClass: AnyClass?, for identifier: String) {
        classes[identifier] = cellClass.flatMap { $0 as? Cell.Type }
    }

    func isRegistered(_ identifier: String) -> Bool { classes[identifier] != nil }

    /// A spare cell (after `prepareForReuse()`), else a new one of the registered class,
    /// else nil.
    mutating func dequeue(_ identifier: String) -> Cell? {
        if var cells = spare[identifier], !cells.isEmpty {
            let cell = cells.removeFirst()
            spare[identifier] = cells
            cell.prepareForReuse()
            return cell
        }
        return classes[identifier].map { $0.init(registeredReuseIdentifier: identifier) }
    }

    /// Takes back the cells on show before a reload.
    mutating func recycle(_ cells: [Cell]) {
        for cell in cells {
            guard let key = cell.reuseIdentifier else { continue }
            spare[key, default: []].append(cell)
        }
    }

    /// The cells the reload did not reuse leave the view.
    mutating func dropSpareViews() {
        for key in spare.keys.sorted() {
            for cell in spare[key] ?? [] { cell.removeFromSuperview() }
        }
    }
}

/// What a table or collection view shows: the item count of each section as its data
/// source last said (nil before the first load), the cell of each item, the selection.
@MainActor
struct ShownItems<Cell: ReusableCell> {
    var queue = CellQueue<Cell>()
    var counts: [Int]?
    var cells: [IndexPath: Cell] = [:]
    var selected: [IndexPath] = []
    var isLoading = false

    /// Starts a reload: the cells on show go back to the reuse queue.
    mutating func begin() {
        queue.recycle(visible.compactMap { cells[$0] })
        cells = [:]
    }

    /// The data source's counts; the selection keeps the items that still exist.
    mutating func set(counts: [Int]) {
        self.counts = counts.map { max(0, $0) }
        let kept = selected.filter(contains)
        selected = kept
    }

    func contains(_ indexPath: IndexPath) -> Bool {
        guard indexPath.count == 2, let counts, counts.indices.contains(indexPath.section) else { return false }
        return (0..<counts[indexPath.section]).contains(indexPath.item)
    }

    func count(inSection section: Int) -> Int {
        guard let counts, counts.indices.contains(section) else { return 0 }
        return counts[section]
    }

    /// Every index path that has a cell, in order.
    var visible: [IndexPath] { cells.keys.sorted { ($0.section, $0.item) < ($1.section, $1.item) } }

    func indexPath(for cell: Cell) -> IndexPath? { visible.first { cells[$0] === cell } }

    /// Every index path of the counts, in order.
    var all: [IndexPath] {
        (counts ?? []).enumerated().flatMap { section, items in (0..<items).map { IndexPath(item: $0, section: section) } }
    }
}
