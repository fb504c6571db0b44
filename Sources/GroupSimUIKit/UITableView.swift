import Foundation

/// `UITableViewDataSource`: what a table shows. The optional methods of UIKit's
/// protocol have defaults here (one section, no titles, no editing).
@MainActor
public protocol UITableViewDataSource: AnyObject {
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int
    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell
    func numberOfSections(in tableView: UITableView) -> Int
    func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String?
    func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String?
    func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool
    func tableView(_ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath)
}

extension UITableViewDataSource {
    public func numberOfSections(in tableView: UITableView) -> Int { 1 }
    public func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }
    public func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? { nil }
    public func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool { true }
    public func tableView(_ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {}
}

/// `UITableViewDelegate`: what a table tells about selection and display. Every method
/// is optional, as in UIKit.
@MainActor
public protocol UITableViewDelegate: AnyObject {
    func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath?
    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath)
    func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath)
    func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath)
    func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat
}

extension UITableViewDelegate {
    public func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    public func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
    public func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {}
    public func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {}
    public func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { tableView.rowHeight }
}

/// `UITableView`: asks its data source for sections, rows and cells on `reloadData()`
/// (and the first time it is shown, or asked for its rows), and keeps every row's cell
/// on show: nothing scrolls, so every row is visible. Cells are dequeued from the
/// classes registered and reused on the next reload, as in UIKit; each gets a frame,
/// one row under the other. `tapRow(at:)` selects a row as a tap would.
@MainActor
open class UITableView: UIScrollView {
    open weak var dataSource: (any UITableViewDataSource)?
    open weak var delegate: (any UITableViewDelegate)?
    public let style: Style
    /// The height of each row whose delegate gives none; `automaticDimension` counts as 44.
    open var rowHeight: CGFloat = UITableView.automaticDimension
    open var estimatedRowHeight: CGFloat = UITableView.automaticDimension
    open var sectionHeaderHeight: CGFloat = UITableView.automaticDimension
    open var separatorStyle: UITableViewCell.SeparatorStyle = .singleLine
    open var separatorColor: UIColor? = .separator
    open var separatorInset = UIEdgeInsets(top: 0, left: 16, bottom: 0, right: 0)
    open var allowsSelection = true
    open var allowsMultipleSelection = false
    open var isEditing = false
    open var tableHeaderView: UIView?
    open var tableFooterView: UIView?
    open var backgroundView: UIView?
    private var items = ShownItems<UITableViewCell>()

    public static let automaticDimension: CGFloat = -1

    public enum Style: Int, Sendable { case plain = 0, grouped, insetGrouped }
    public enum RowAnimation: Int, Sendable { case fade = 0, right, left, top, bottom, none, middle, automatic = 100 }
    public enum ScrollPosition: Int, Sendable { case none = 0, top, middle, bottom }

    public init(frame: CGRect, style: Style) {
        self.style = style
        super.init(frame: frame)
    }

    public override convenience init(frame: CGRect) { self.init(frame: frame, style: .plain) }

    public required init?(coder: NSCoder) {
        style = .plain
        super.init(coder: coder)
    }

    // MARK: - Cells

    /// Registers the class `dequeueReusableCell` makes for `identifier` (a `UITableViewCell` subclass).
    open func register(_ cellClass: AnyClass?, forCellReuseIdentifier identifier: String) {
        items.queue.register(cellClass, for: identifier)
    }

    /// A cell given back by the last reload, or a new one of the registered class; a plain
    /// default cell when nothing is registered under `identifier` (UIKit raises).
    open func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> UITableViewCell {
        items.queue.dequeue(identifier) ?? UITableViewCell(style: .default, reuseIdentifier: identifier)
    }

    /// A spare or registered cell for `identifier`; nil when there is neither.
    open func dequeueReusableCell(withIdentifier identifier: String) -> UITableViewCell? {
        items.queue.dequeue(identifier)
    }

    // MARK: - Data

    /// Asks the data source for the sections, the rows in each and every row's cell
    /// (then tells the delegate `willDisplay`), as the table would show them. A reload
    /// asked for while one runs (from the data source) is ignored.
    open func reloadData() {
        guard !items.isLoading else { return }
        items.isLoading = true
        defer { items.isLoading = false }
        items.begin()
        let sections = dataSource.map { max(0, $0.numberOfSections(in: self)) } ?? 0
        items.set(counts: (0..<sections).map { section in dataSource?.tableView(self, numberOfRowsInSection: section) ?? 0 })
        var top: CGFloat = 0
        for indexPath in items.all {
            guard let dataSource else { break }
            let cell = dataSource.tableView(self, cellForRowAt: indexPath)
            let height = delegate?.tableView(self, heightForRowAt: indexPath) ?? rowHeight
            cell.frame = CGRect(x: 0, y: top, width: bounds.width, height: height < 0 ? 44 : height)
            top += cell.frame.height
            cell.isSelected = items.selected.contains(indexPath)
            if cell.superview !== self { addSubview(cell) }
            items.cells[indexPath] = cell
            delegate?.tableView(self, willDisplay: cell, forRowAt: indexPath)
        }
        contentSize = CGSize(width: bounds.width, height: top)
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

    open func numberOfRows(inSection section: Int) -> Int {
        loadIfNeeded()
        return items.count(inSection: section)
    }

    /// The cell on show for the row; nil for a row that does not exist.
    open func cellForRow(at indexPath: IndexPath) -> UITableViewCell? {
        loadIfNeeded()
        return items.cells[indexPath]
    }

    open var visibleCells: [UITableViewCell] { indexPathsForVisibleRows.compactMap { items.cells[$0] } }

    /// Every row, in order: nothing scrolls, so all are visible.
    open var indexPathsForVisibleRows: [IndexPath] {
        loadIfNeeded()
        return items.visible
    }

    open func indexPath(for cell: UITableViewCell) -> IndexPath? { items.indexPath(for: cell) }

    // Updates re-ask the data source for everything: nothing animates.
    open func insertRows(at indexPaths: [IndexPath], with animation: RowAnimation) { reloadData() }
    open func deleteRows(at indexPaths: [IndexPath], with animation: RowAnimation) { reloadData() }
    open func reloadRows(at indexPaths: [IndexPath], with animation: RowAnimation) { reloadData() }
    open func insertSections(_ sections: IndexSet, with animation: RowAnimation) { reloadData() }
    open func deleteSections(_ sections: IndexSet, with animation: RowAnimation) { reloadData() }
    open func reloadSections(_ sections: IndexSet, with animation: RowAnimation) { reloadData() }
    open func beginUpdates() {}
    open func endUpdates() { reloadData() }

    /// Runs `updates`, reloads, then `completion(true)`; nothing animates.
    open func performBatchUpdates(_ updates: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        updates?()
        reloadData()
        completion?(true)
    }

    open func scrollToRow(at indexPath: IndexPath, at scrollPosition: ScrollPosition, animated: Bool) {}
    open func setEditing(_ editing: Bool, animated: Bool) { isEditing = editing }

    // MARK: - Selection

    open var indexPathForSelectedRow: IndexPath? { items.selected.first }
    open var indexPathsForSelectedRows: [IndexPath]? { items.selected.isEmpty ? nil : items.selected }

    /// Selects the row without telling the delegate, as UIKit does.
    open func selectRow(at indexPath: IndexPath?, animated: Bool, scrollPosition: ScrollPosition) {
        guard let indexPath, items.contains(indexPath) else { return }
        if !allowsMultipleSelection {
            for other in items.selected where other != indexPath { deselectRow(at: other, animated: false) }
        }
        if !items.selected.contains(indexPath) { items.selected.append(indexPath) }
        items.cells[indexPath]?.isSelected = true
    }

    /// Deselects the row without telling the delegate, as UIKit does.
    open func deselectRow(at indexPath: IndexPath, animated: Bool) {
        items.selected.removeAll { $0 == indexPath }
        items.cells[indexPath]?.isSelected = false
    }

    /// What a tap on the row does (GroupSim's own; nothing taps here): asks the delegate's
    /// `willSelectRowAt`, deselects the other row (telling `didDeselectRowAt`), selects
    /// the row and tells `didSelectRowAt`. Nothing happens when selection is off or the
    /// row does not exist.
    open func tapRow(at indexPath: IndexPath) {
        loadIfNeeded()
        guard allowsSelection, items.contains(indexPath),
              let target = delegate == nil ? indexPath : delegate?.tableView(self, willSelectRowAt: indexPath),
              items.contains(target) else { return }
        if !allowsMultipleSelection {
            for other in items.selected where other != target {
                deselectRow(at: other, animated: false)
                delegate?.tableView(self, didDeselectRowAt: other)
            }
        }
        selectRow(at: target, animated: false, scrollPosition: .none)
        delegate?.tableView(self, didSelectRowAt: target)
    }
}

/// `UITableViewController`: a controller whose view is a table it is the data source
/// and delegate of. The table loads its data when it is first shown (or asked for rows).
/// Override the data source and delegate methods, as on iOS.
@MainActor
open class UITableViewController: UIViewController, UITableViewDataSource, UITableViewDelegate {
    public let tableViewStyle: UITableView.Style
    open var clearsSelectionOnViewWillAppear = true

    public init(style: UITableView.Style) {
        tableViewStyle = style
        super.init(nibName: nil, bundle: nil)
    }

    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        tableViewStyle = .plain
        super.init(nibName: nibNameOrNil, bundle: nibBundleOrNil)
    }

    public required init?(coder: NSCoder) {
        tableViewStyle = .plain
        super.init(coder: coder)
    }

    /// The table: the controller's view.
    open var tableView: UITableView! {
        get { view as? UITableView }
        set { view = newValue }
    }

    open override func loadView() {
        let table = UITableView(frame: .zero, style: tableViewStyle)
        table.dataSource = self
        table.delegate = self
        view = table
    }

    open override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        guard clearsSelectionOnViewWillAppear, let table = view as? UITableView else { return }
        for indexPath in table.indexPathsForSelectedRows ?? [] { table.deselectRow(at: indexPath, animated: animated) }
    }

    open func numberOfSections(in tableView: UITableView) -> Int { 1 }
    open func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 0 }
    open func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        tableView.dequeueReusableCell(withIdentifier: "", for: indexPath)
    }
    open func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? { nil }
    open func tableView(_ tableView: UITableView, titleForFooterInSection section: Int) -> String? { nil }
    open func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool { true }
    open func tableView(_ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {}
    open func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? { indexPath }
    open func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {}
    open func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {}
    open func tableView(_ tableView: UITableView, willDisplay cell: UITableViewCell, forRowAt indexPath: IndexPath) {}
    open func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat { tableView.rowHeight }
}
