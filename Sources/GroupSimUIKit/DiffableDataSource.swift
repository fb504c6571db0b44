import Foundation

/// `NSDiffableDataSourceSnapshot`: sections and their items, by identifier, in order.
/// An identifier already in the snapshot is not added again (UIKit raises).
public struct NSDiffableDataSourceSnapshot<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>: Sendable {
    private var sections: [(id: SectionIdentifierType, items: [ItemIdentifierType])] = []
    /// The items `reloadItems` or `reconfigureItems` named since the snapshot was made.
    public private(set) var reloadedItemIdentifiers: [ItemIdentifierType] = []

    public init() {}

    public var numberOfSections: Int { sections.count }
    public var numberOfItems: Int { sections.reduce(0) { $0 + $1.items.count } }
    public var sectionIdentifiers: [SectionIdentifierType] { sections.map(\.id) }
    public var itemIdentifiers: [ItemIdentifierType] { sections.flatMap(\.items) }

    public func numberOfItems(inSection identifier: SectionIdentifierType) -> Int { itemIdentifiers(inSection: identifier).count }

    public func itemIdentifiers(inSection identifier: SectionIdentifierType) -> [ItemIdentifierType] {
        sections.first { $0.id == identifier }?.items ?? []
    }

    public func sectionIdentifier(containingItem identifier: ItemIdentifierType) -> SectionIdentifierType? {
        sections.first { $0.items.contains(identifier) }?.id
    }

    public func indexOfItem(_ identifier: ItemIdentifierType) -> Int? { itemIdentifiers.firstIndex(of: identifier) }
    public func indexOfSection(_ identifier: SectionIdentifierType) -> Int? { sections.firstIndex { $0.id == identifier } }

    /// The item at `indexPath` (section, item), if there is one.
    func item(at indexPath: IndexPath) -> ItemIdentifierType? {
        guard indexPath.count == 2, sections.indices.contains(indexPath.section),
              sections[indexPath.section].items.indices.contains(indexPath.item) else { return nil }
        return sections[indexPath.section].items[indexPath.item]
    }

    func indexPath(of identifier: ItemIdentifierType) -> IndexPath? {
        for (section, entry) in sections.enumerated() {
            if let item = entry.items.firstIndex(of: identifier) { return IndexPath(item: item, section: section) }
        }
        return nil
    }

    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) {
        for identifier in identifiers where indexOfSection(identifier) == nil { sections.append((identifier, [])) }
    }

    public mutating func insertSections(_ identifiers: [SectionIdentifierType], beforeSection toIdentifier: SectionIdentifierType) {
        insert(sections: identifiers, at: indexOfSection(toIdentifier))
    }

    public mutating func insertSections(_ identifiers: [SectionIdentifierType], afterSection toIdentifier: SectionIdentifierType) {
        insert(sections: identifiers, at: indexOfSection(toIdentifier).map { $0 + 1 })
    }

    private mutating func insert(sections identifiers: [SectionIdentifierType], at index: Int?) {
        guard let index else { return }
        let new = identifiers.filter { indexOfSection($0) == nil }
        sections.insert(contentsOf: new.map { ($0, []) }, at: index)
    }

    /// Appends the items to the section (the last one when nil); nothing without a section.
    public mutating func appendItems(_ identifiers: [ItemIdentifierType], toSection sectionIdentifier: SectionIdentifierType? = nil) {
        let target = sectionIdentifier.map { indexOfSection($0) } ?? sections.indices.last
        guard let index = target else { return }
        for identifier in identifiers where indexOfItem(identifier) == nil { sections[index].items.append(identifier) }
    }

    public mutating func insertItems(_ identifiers: [ItemIdentifierType], beforeItem beforeIdentifier: ItemIdentifierType) {
        insert(items: identifiers, near: beforeIdentifier, offset: 0)
    }

    public mutating func insertItems(_ identifiers: [ItemIdentifierType], afterItem afterIdentifier: ItemIdentifierType) {
        insert(items: identifiers, near: afterIdentifier, offset: 1)
    }

    private mutating func insert(items identifiers: [ItemIdentifierType], near anchor: ItemIdentifierType, offset: Int) {
        guard let place = indexPath(of: anchor) else { return }
        let new = identifiers.filter { indexOfItem($0) == nil }
        sections[place.section].items.insert(contentsOf: new, at: place.item + offset)
    }

    public mutating func deleteItems(_ identifiers: [ItemIdentifierType]) {
        for index in sections.indices { sections[index].items.removeAll { identifiers.contains($0) } }
    }

    public mutating func deleteAllItems() { sections = [] }

    public mutating func deleteSections(_ identifiers: [SectionIdentifierType]) {
        sections.removeAll { identifiers.contains($0.id) }
    }

    public mutating func moveItem(_ identifier: ItemIdentifierType, beforeItem toIdentifier: ItemIdentifierType) {
        guard identifier != toIdentifier, indexOfItem(toIdentifier) != nil else { return }
        deleteItems([identifier])
        insertItems([identifier], beforeItem: toIdentifier)
    }

    public mutating func moveItem(_ identifier: ItemIdentifierType, afterItem toIdentifier: ItemIdentifierType) {
        guard identifier != toIdentifier, indexOfItem(toIdentifier) != nil else { return }
        deleteItems([identifier])
        insertItems([identifier], afterItem: toIdentifier)
    }

    public mutating func reloadItems(_ identifiers: [ItemIdentifierType]) { reloadedItemIdentifiers += identifiers }
    public mutating func reconfigureItems(_ identifiers: [ItemIdentifierType]) { reloadedItemIdentifiers += identifiers }
    public mutating func reloadSections(_ identifiers: [SectionIdentifierType]) {}
}

/// `UICollectionViewDiffableDataSource` (iOS 13): the data source of a collection view,
/// fed snapshots. `apply` reloads the collection view at once (nothing animates), which
/// asks the cell provider for every item's cell.
@MainActor
open class UICollectionViewDiffableDataSource<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>:
    UICollectionViewDataSource {
    public typealias CellProvider = @MainActor (UICollectionView, IndexPath, ItemIdentifierType) -> UICollectionViewCell?
    public typealias Snapshot = NSDiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    private weak var collectionView: UICollectionView?
    private let cellProvider: CellProvider
    private var current = Snapshot()

    /// Becomes `collectionView`'s data source (which holds it weakly: keep it, as on iOS).
    public init(collectionView: UICollectionView, cellProvider: @escaping CellProvider) {
        self.collectionView = collectionView
        self.cellProvider = cellProvider
        collectionView.dataSource = self
    }

    /// Makes `snapshot` the data and reloads the collection view; then `completion`.
    open func apply(_ snapshot: Snapshot, animatingDifferences: Bool = true, completion: (() -> Void)? = nil) {
        current = snapshot
        collectionView?.reloadData()
        completion?()
    }

    open func applySnapshotUsingReloadData(_ snapshot: Snapshot, completion: (() -> Void)? = nil) {
        apply(snapshot, animatingDifferences: false, completion: completion)
    }

    /// A copy of the data now.
    open func snapshot() -> Snapshot { current }
    open func itemIdentifier(for indexPath: IndexPath) -> ItemIdentifierType? { current.item(at: indexPath) }
    open func indexPath(for itemIdentifier: ItemIdentifierType) -> IndexPath? { current.indexPath(of: itemIdentifier) }

    open func numberOfSections(in collectionView: UICollectionView) -> Int { current.numberOfSections }

    open func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        current.sectionIdentifiers.indices.contains(section) ? current.numberOfItems(inSection: current.sectionIdentifiers[section]) : 0
    }

    /// The cell provider's cell; a plain cell when it gives none (UIKit raises).
    open func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        guard let item = current.item(at: indexPath) else { return UICollectionViewCell() }
        return cellProvider(collectionView, indexPath, item) ?? UICollectionViewCell()
    }
}
