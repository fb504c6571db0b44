import Foundation
import GroupSimMessages
import Testing

/// A cell that counts its reuses.
final class CountingCell: UITableViewCell {
    private(set) var reuses = 0

    override func prepareForReuse() {
        super.prepareForReuse()
        reuses += 1
    }
}

/// A table's data source and delegate that write down what the table asked and told.
final class RecordingTable: UITableViewDataSource, UITableViewDelegate {
    var rows: [String]
    var calls: [String] = []

    init(rows: [String]) { self.rows = rows }

    func numberOfSections(in tableView: UITableView) -> Int {
        calls.append("sections")
        return 1
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        calls.append("rows \(section)")
        return rows.count
    }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        calls.append("cell \(indexPath.row)")
        let cell = tableView.dequeueReusableCell(withIdentifier: "row", for: indexPath)
        cell.textLabel?.text = rows[indexPath.row]
        return cell
    }

    func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
        calls.append("willSelect \(indexPath.row)")
        return indexPath
    }

    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) { calls.append("didSelect \(indexPath.row)") }
    func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) { calls.append("didDeselect \(indexPath.row)") }
}

@MainActor @Suite struct UIKitListTests {
    /// `reloadData` asks for sections, rows and each row's cell; the next reload reuses
    /// the cells (after `prepareForReuse`) and drops the spare one; a tap tells the
    /// delegate in UIKit's order, and a tap on a missing row does nothing.
    @Test func tableReloadsReusesCellsAndTellsTheDelegateOfTaps() throws {
        let table = UITableView(frame: CGRect(x: 0, y: 0, width: 320, height: 480), style: .plain)
        let source = RecordingTable(rows: ["Pizza", "Tacos", "Sushi"])
        table.dataSource = source
        table.delegate = source
        table.register(CountingCell.self, forCellReuseIdentifier: "row")
        table.reloadData()
        #expect(source.calls == ["sections", "rows 0", "cell 0", "cell 1", "cell 2"])
        let first = table.visibleCells
        #expect(first.count == 3 && first.allSatisfy { $0 is CountingCell } && first.map { $0.frame.minY } == [0, 44, 88])

        source.rows = ["Ramen", "Curry"]
        source.calls = []
        table.reloadData()
        let second = table.visibleCells
        #expect(second.map { $0.textLabel?.text } == ["Ramen", "Curry"])
        #expect(second[0] === first[0] && second[1] === first[1] && second.compactMap { ($0 as? CountingCell)?.reuses } == [1, 1])
        #expect(first[2].superview == nil && table.numberOfRows(inSection: 0) == 2)

        source.calls = []
        table.tapRow(at: IndexPath(row: 1, section: 0))
        table.tapRow(at: IndexPath(row: 0, section: 0))
        table.tapRow(at: IndexPath(row: 7, section: 0))
        #expect(source.calls == ["willSelect 1", "didSelect 1", "willSelect 0", "didDeselect 1", "didSelect 0"])
        #expect(table.indexPathForSelectedRow == IndexPath(row: 0, section: 0) && table.cellForRow(at: IndexPath(row: 0, section: 0))?.isSelected == true)
    }

    /// A flow layout fills lines across the bounds at the minimum spacings and wraps;
    /// the collection gives each cell the frame the layout placed it at.
    @Test func flowLayoutPlacesItemsInLinesWithinTheBounds() throws {
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 50)
        layout.sectionInset = UIEdgeInsets(top: 5, left: 10, bottom: 5, right: 10)
        let collection = UICollectionView(frame: CGRect(x: 0, y: 0, width: 250, height: 400), collectionViewLayout: layout)
        let source = UICollectionViewDiffableDataSource<Int, String>(collectionView: collection) { collection, indexPath, _ in
            collection.dequeueReusableCell(withReuseIdentifier: "card", for: indexPath)
        }
        collection.register(UICollectionViewCell.self, forCellWithReuseIdentifier: "card")
        var snapshot = NSDiffableDataSourceSnapshot<Int, String>()
        snapshot.appendSections([0])
        snapshot.appendItems(["a", "b", "c", "a", "d"])
        snapshot.insertItems(["e"], afterItem: "a")
        #expect(snapshot.itemIdentifiers == ["a", "e", "b", "c", "d"])
        source.apply(snapshot)
        #expect(collection.visibleCells.map(\.frame.origin) == [CGPoint(x: 10, y: 5), CGPoint(x: 120, y: 5), CGPoint(x: 10, y: 65),
                                                                CGPoint(x: 120, y: 65), CGPoint(x: 10, y: 125)])
        #expect(collection.contentSize == CGSize(width: 250, height: 180))
        #expect(collection.indexPathForItem(at: CGPoint(x: 130, y: 70)) == IndexPath(item: 3, section: 0))
        #expect(source.itemIdentifier(for: IndexPath(item: 3, section: 0)) == "c" && source.indexPath(for: "d") == IndexPath(item: 4, section: 0))
    }

    /// Animations run before `animate` returns, then the completion with `true`; a
    /// spinner hides when stopped; a storyboard without a factory records the identifier.
    @Test func animationsRunAtOnceAndTheSmallTypesKeepWhatTheyAreGiven() {
        var order: [String] = []
        let view = UIView()
        UIView.animate(withDuration: 0.3, animations: {
            view.alpha = 0
            order.append("animations")
        }, completion: { finished in order.append("completion \(finished)") })
        order.append("returned")
        #expect(order == ["animations", "completion true", "returned"] && view.alpha == 0)

        let spinner = UIActivityIndicatorView(style: .large)
        #expect(spinner.isHidden && !spinner.isAnimating)
        spinner.startAnimating()
        #expect(!spinner.isHidden && spinner.isAnimating)
        spinner.stopAnimating()
        #expect(spinner.isHidden)

        let storyboard = UIStoryboard(name: "Main", bundle: nil)
        let made = storyboard.instantiateViewController(withIdentifier: "Missing")
        #expect(storyboard.missingIdentifiers == ["Missing"] && made.storyboard === storyboard)

        #expect(UIFont.preferredFont(forTextStyle: .footnote).pointSize == 13 && UIFont.preferredFont(forTextStyle: .headline).weight == .semibold)
        let path = IndexPath(row: 4, section: 2)
        #expect(path.row == 4 && path.section == 2 && path.item == 4)
        let guide = view.safeAreaLayoutGuide
        let top = view.topAnchor.constraint(equalTo: guide.topAnchor, constant: 8)
        #expect(top.secondItem === guide && guide.owningView === view && guide.identifier == "UIViewSafeAreaLayoutGuide")
    }
}
