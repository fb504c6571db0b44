import Foundation

/// `UICollectionViewDataSource`: what a collection shows; one section unless it says more.
@MainActor
public protocol UICollectionViewDataSource: AnyObject {
    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int
    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell
    func numberOfSections(in collectionView: UICollectionView) -> Int
}

extension UICollectionViewDataSource {
    public func numberOfSections(in collectionView: UICollectionView) -> Int { 1 }
}

/// `UICollectionViewDelegate`: what a collection tells about selection and display;
/// every method is optional, as in UIKit.
@MainActor
public protocol UICollectionViewDelegate: AnyObject {
    func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool
    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath)
    func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath)
    func collectionView(_ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath)
}

extension UICollectionViewDelegate {
    public func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool { true }
    public func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath) {}
}

/// `UICollectionView`: asks its data source for sections, items and cells on
/// `reloadData()` (and the first time it is shown, or asked for its items), has its
/// layout `prepare()` and place every item, and keeps every item's cell on show, with
/// the frame the layout gave it: nothing scrolls, so every item is visible. Cells are
/// dequeued from the registered classes and reused on the next reload, as in UIKit.
/// `tapItem(at:)` selects an item as a tap would.
@MainActor
open class UICollectionView: UIScrollView {
    open weak var dataSource: (any UICollectionViewDataSource)?
    open weak var delegate: (any UICollectionViewDelegate)?
    open var allowsSelection = true
    open var allowsMultipleSelection = false
    open var backgroundView: UIView?
    private var items = ShownItems<UICollectionViewCell>()

    /// The layout; setting it makes this its collection view.
    open var collectionViewLayout: UICollectionViewLayout {
        didSet {
            oldValue.collectionView = nil
            collectionViewLayout.collectionView = self
        }
    }

    public init(frame: CGRect, collectionViewLayout layout: UICollectionViewLayout) {
        collectionViewLayout = layout
        super.init(frame: frame)
        layout.collectionView = self
    }

    public required init?(coder: NSCoder) {
        collectionViewLayout = UICollectionViewFlowLayout()
        super.init(coder: coder)
        collectionViewLayout.collectionView = self
    }

    public enum ScrollDirection: Int, Sendable { case vertical = 0, horizontal }

    public struct ScrollPosition: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let top = ScrollPosition(rawValue: 1 << 0)
        public static let centeredVertically = ScrollPosition(rawValue: 1 << 1)
        public static let bottom = ScrollPosition(rawValue: 1 << 2)
        public static let left = ScrollPosition(rawValue: 1 << 3)
        public static let centeredHorizontally = ScrollPosition(rawValue: 1 << 4)
        public static let right = ScrollPosition(rawValue: 1 << 5)
    }

    public static let elementKindSectionHeader = "UICollectionElementKindSectionHeader"
    public static let elementKindSectionFooter = "UICollectionElementKindSectionFooter"

    // MARK: - Cells

    /// Registers the class `dequeueReusableCell` makes for `identifier` (a `UICollectionViewCell` subclass).
    open func register(_ cellClass: AnyClass?, forCellWithReuseIdentifier identifier: String) {
        items.queue.register(cellClass, for: identifier)
    }

    /// A cell given back by the last reload, or a new one of the registered class; a plain
    /// cell when nothing is registered under `identifier` (UIKit raises).
    open func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> UICollectionViewCell {
        items.queue.dequeue(identifier) ?? UICollectionViewCell(registeredReuseIdentifier: identifier)
    }

    /// A cell of the registration's class, configured by its handler for `item` (iOS 14).
    open func dequeueConfiguredReusableCell<Cell, Item>(using registration: CellRegistration<Cell, Item>, for indexPath: IndexPath,
                                                        item: Item?) -> Cell {
        if !items.queue.isRegistered(registration.identifier) { register(Cell.self, forCellWithReuseIdentifier: registration.identifier) }
        let cell = items.queue.dequeue(registration.identifier) as? Cell ?? Cell(registeredReuseIdentifier: registration.identifier)
        if let item { registration.handler(cell, indexPath, item) }
        return cell
    }

    /// `UICollectionView.CellRegistration` (iOS 14): a cell class and how to configure it for an item.
    public struct CellRegistration<Cell: UICollectionViewCell, Item> {
        public typealias Handler = @MainActor (Cell, IndexPath, Item) -> Void
        let handler: Handler
        let identifier = "CellRegistration.\(Cell.self)"

        public init(handler: @escaping Handler) { self.handler = handler }
    }

    // MARK: - Data

    /// Asks the data source for the sections, the items in each and every item's cell,
    /// has the layout prepare and place them, then tells the delegate `willDisplay`. A
    /// reload asked for while one runs (from the data source) is ignored.
    open func reloadData() {
        guard !items.isLoading else { return }
        items.isLoading = true
        defer { items.isLoading = false }
        items.begin()
        let sections = dataSource.map { max(0, $0.numberOfSections(in: self)) } ?? 0
        items.set(counts: (0..<sections).map { section in dataSource?.collectionView(self, numberOfItemsInSection: section) ?? 0 })
        collectionViewLayout.prepare()
        contentSize = collectionViewLayout.collectionViewContentSize
        var placed: [IndexPath: UICollectionViewLayoutAttributes] = [:]
        for attributes in collectionViewLayout.layoutAttributesForElements(in: CGRect(origin: .zero, size: contentSize)) ?? []
        where attributes.representedElementCategory == .cell {
            placed[attributes.indexPath] = attributes
        }
        for indexPath in items.all {
            guard let dataSource else { break }
            let cell = dataSource.collectionView(self, cellForItemAt: indexPath)
            if let attributes = placed[indexPath] ?? collectionViewLayout.layoutAttributesForItem(at: indexPath) { cell.apply(attributes) }
            cell.isSelected = items.selected.contains(indexPath)
            if cell.superview !== self { addSubview(cell) }
            items.cells[indexPath] = cell
            delegate?.collectionView(self, willDisplay: cell, forItemAt: indexPath)
        }
        items.queue.dropSpareViews()
    }

    /// Loads the data the first time it is needed.
    private func loadIfNeeded() {
        if items.counts == nil { reloadData() }
    }

    open override func didMoveToWindow() {
        if dataSource != nil { loadIfNeeded() }
    }

    open var numberOfSections: Int {
        loadIfNeeded()
        return items.counts?.count ?? 0
    }

    open func numberOfItems(inSection section: Int) -> Int {
        loadIfNeeded()
        return items.count(inSection: section)
    }

    /// The cell on show for the item; nil for an item that does not exist.
    open func cellForItem(at indexPath: IndexPath) -> UICollectionViewCell? {
        loadIfNeeded()
        return items.cells[indexPath]
    }

    open var visibleCells: [UICollectionViewCell] { indexPathsForVisibleItems.compactMap { items.cells[$0] } }

    /// Every item, in order: nothing scrolls, so all are visible.
    open var indexPathsForVisibleItems: [IndexPath] {
        loadIfNeeded()
        return items.visible
    }

    open func indexPath(for cell: UICollectionViewCell) -> IndexPath? { items.indexPath(for: cell) }

    open func layoutAttributesForItem(at indexPath: IndexPath) -> UICollectionViewLayoutAttributes? {
        collectionViewLayout.layoutAttributesForItem(at: indexPath)
    }

    /// The item whose frame, as the layout placed it, contains `point`.
    open func indexPathForItem(at point: CGPoint) -> IndexPath? {
        indexPathsForVisibleItems.first { items.cells[$0]?.frame.contains(point) ?? false }
    }

    // Updates re-ask the data source for everything: nothing animates.
    open func insertItems(at indexPaths: [IndexPath]) { reloadData() }
    open func deleteItems(at indexPaths: [IndexPath]) { reloadData() }
    open func reloadItems(at indexPaths: [IndexPath]) { reloadData() }
    open func insertSections(_ sections: IndexSet) { reloadData() }
    open func deleteSections(_ sections: IndexSet) { reloadData() }
    open func reloadSections(_ sections: IndexSet) { reloadData() }

    /// Runs `updates`, reloads, then `completion(true)`; nothing animates.
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        updates?()
        reloadData()
        completion?(true)
    }

    open func scrollToItem(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {}

    // MARK: - Selection

    open var indexPathsForSelectedItems: [IndexPath]? { items.selected }

    /// Selects the item without telling the delegate, as UIKit does.
    open func selectItem(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        guard let indexPath, items.contains(indexPath) else { return }
        if !allowsMultipleSelection {
            for other in items.selected where other != indexPath { deselectItem(at: other, animated: false) }
        }
        if !items.selected.contains(indexPath) { items.selected.append(indexPath) }
        items.cells[indexPath]?.isSelected = true
    }

    /// Deselects the item without telling the delegate, as UIKit does.
    open func deselectItem(at indexPath: IndexPath, animated: Bool) {
        items.selected.removeAll { $0 == indexPath }
        items.cells[indexPath]?.isSelected = false
    }

    /// What a tap on the item does (GroupSim's own; nothing taps here): asks the
    /// delegate's `shouldSelectItemAt`, deselects the other item (telling
    /// `didDeselectItemAt`), selects this one and tells `didSelectItemAt`.
    open func tapItem(at indexPath: IndexPath) {
        loadIfNeeded()
        guard allowsSelection, items.contains(indexPath), delegate?.collectionView(self, shouldSelectItemAt: indexPath) ?? true else { return }
        if !allowsMultipleSelection {
            for other in items.selected where other != indexPath {
                deselectItem(at: other, animated: false)
                delegate?.collectionView(self, didDeselectItemAt: other)
            }
        }
        selectItem(at: indexPath, animated: false, scrollPosition: [])
        delegate?.collectionView(self, didSelectItemAt: indexPath)
    }
}

/// `UICollectionViewController`: a controller whose view is a collection it is the data
/// source and delegate of; the collection loads its data when first shown. Override the
/// data source and delegate methods, as on iOS.
@MainActor
open class UICollectionViewController: UIViewController, UICollectionViewDataSource, UICollectionViewDelegate {
    private let initialLayout: UICollectionViewLayout
    open var clearsSelectionOnViewWillAppear = true
    open var installsStandardGestureForInteractiveMovement = false

    public init(collectionViewLayout layout: UICollectionViewLayout) {
        initialLayout = layout
        super.init(nibName: nil, bundle: nil)
    }

    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        initialLayout = UICollectionViewFlowLayout()
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    /// As a storyboard makes it: with a flow layout.
    public required init?(coder: NSCoder) {
        initialLayout = UICollectionViewFlowLayout()
        super.init(coder: coder)
    }

    /// The collection: the controller's view.
    open var collectionView: UICollectionView! {
        get { view as? UICollectionView }
        set { view = newValue }
    }

    open var collectionViewLayout: UICollectionViewLayout { collectionView?.collectionViewLayout ?? initialLayout }

    open override func loadView() {
        let collection = UICollectionView(frame: .zero, collectionViewLayout: initialLayout)
        collection.dataSource = self
        collection.delegate = self
        view = collection
    }

    open override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        guard clearsSelectionOnViewWillAppear, let collection = view as? UICollectionView else { return }
        for indexPath in collection.indexPathsForSelectedItems ?? [] { collection.deselectItem(at: indexPath, animated: animated) }
    }

    open func numberOfSections(in collectionView: UICollectionView) -> Int { 1 }
    open func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { 0 }
    open func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        collectionView.dequeueReusableCell(withReuseIdentifier: "", for: indexPath)
    }
    open func collectionView(_ collectionView: UICollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool { true }
    open func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {}
    open func collectionView(_ collectionView: UICollectionView, didDeselectItemAt indexPath: IndexPath) {}
    open func collectionView(_ collectionView: UICollectionView, willDisplay cell: UICollectionViewCell, forItemAt indexPath: IndexPath) {}
}
