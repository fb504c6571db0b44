import Foundation
import GroupSim
import GroupSimMessages
import GroupSimTesting
import Testing

// The adapters a porter writes in the test target: a scenario step's intent becomes the
// taps the user would make (a row, a card and the Send button, the carousel and Select).
extension LunchVoteViewController: ComposeRequestHandling {
    func handle(_ request: ComposeRequest) {
        for entry in request.data where entry.key == "vote" {
            if let list = children.first as? LunchListViewController, let row = vote.options.firstIndex(of: entry.value) {
                list.tableView.tapRow(at: IndexPath(row: row, section: 0))
            } else if let detail = children.first as? LunchDetailViewController, let item = vote.options.firstIndex(of: entry.value) {
                detail.collectionView.tapItem(at: IndexPath(item: item, section: 0))
                detail.sendButton.sendActions(for: .touchUpInside)
            }
        }
    }
}

extension IceCreamMessagesViewController: ComposeRequestHandling {
    func handle(_ request: ComposeRequest) {
        for entry in request.data {
            if entry.key == "tap", entry.value == "add", let list = children.first as? IceCreamsViewController {
                list.collectionView.tapItem(at: IndexPath(item: 0, section: 0))
            } else if entry.key == "part", let build = children.first as? BuildIceCreamViewController,
                      let index = build.iceCreamParts.firstIndex(where: { $0.rawValue == entry.value }),
                      let attributes = build.collectionView.layoutAttributesForItem(at: IndexPath(item: index, section: 0)) {
                // The user scrolls the chosen part to the middle, then taps Select.
                build.collectionView.contentOffset.x = attributes.center.x - build.collectionView.bounds.width / 2
                build.selectButton.sendActions(for: .touchUpInside)
            }
        }
    }
}

/// Shipping extensions, ported by switching only their import, run as they would on iOS.
@Suite struct PortedExtensionTests {
    static func lunchApps() -> AppRegistry {
        var apps = AppRegistry()
        apps.register("lunch") { LunchVoteViewController() }
        return apps
    }

    /// The storyboard's identifiers served by factories; the root controller made by the
    /// storyboard so its children can come from `storyboard?.instantiateViewController`.
    @MainActor static func iceCreamApps() -> (AppRegistry, UIStoryboard) {
        let storyboard = UIStoryboard(name: "MainInterface", bundle: nil)
        storyboard.register(identifier: IceCreamsViewController.storyboardIdentifier) { IceCreamsViewController(history: .load()) }
        storyboard.register(identifier: BuildIceCreamViewController.storyboardIdentifier) { BuildIceCreamViewController() }
        storyboard.register(identifier: CompletedIceCreamViewController.storyboardIdentifier) { CompletedIceCreamViewController() }
        var apps = AppRegistry()
        apps.register("icecream") {
            storyboard.instantiate {
                let controller = IceCreamMessagesViewController()
                controller.stickerCache = IceCreamStickerCache(directory: ExampleBuildTests.root.appendingPathComponent("Scenarios/assets"),
                                                               placeholder: "pickle.png")
                return controller
            }
        }
        return (apps, storyboard)
    }

    /// The compact list is a `UITableViewController` child: shown, its table asked the
    /// data source for the three rows and a cell each; a tap on a row stages the vote.
    @Test func lunchListLoadsItsRowsWhenShownAndATappedRowStagesTheVote() async throws {
        let harness = try ExtensionHarness(apps: Self.lunchApps(), app: "lunch")
        await harness.open(.compact)
        let controller = try #require(await harness.controller(as: LunchVoteViewController.self))
        let shown = await MainActor.run { () -> (cells: Int, rows: Int, texts: [String], header: String?, title: String?) in
            guard let list = controller.children.first as? LunchListViewController else { return (0, 0, [], nil, nil) }
            let table: UITableView = list.tableView
            let cellsOnShow = table.subviews.filter { $0 is UITableViewCell }.count
            let texts = table.visibleCells.compactMap { ($0.contentConfiguration as? UIListContentConfiguration)?.text }
            return (cellsOnShow, table.numberOfRows(inSection: 0), texts, list.tableView(table, titleForHeaderInSection: 0),
                    list.navigationItem.title)
        }
        #expect(shown.cells == 3 && shown.rows == 3)
        #expect(shown.texts == ["Pizza", "Tacos", "Sushi"])
        #expect(shown.header == "Where do we eat?" && shown.title == "Lunch")

        await harness.insert("lunch", data: ["vote": "Tacos"])
        let url = try #require(await harness.snapshot().draft?.url)
        let vote = try #require(LunchVote(url: URL(string: url)))
        #expect(vote.options == ["Pizza", "Tacos", "Sushi"] && Array(vote.ballots.values) == ["Tacos"])
        let voter = await MainActor.run { controller.activeConversation?.localParticipantIdentifier.uuidString }
        #expect(vote.ballots.keys.first == voter)
        #expect(await MainActor.run { controller.lastError == nil })
    }

    /// The expanded detail, opened by tapping Bob's bubble: a diffable collection of the
    /// options, labels with their fonts, a filled Send button that choosing a card
    /// enables; Send stages the vote (sent by the reply step) and asks for the compact
    /// style, whose list then shows both votes.
    @Test func lunchDetailVotesThroughItsCollectionAndButton() async throws {
        let harness = try ExtensionHarness(apps: Self.lunchApps(), app: "lunch")
        await harness.receive(from: "bob", session: "lunch", url: "?option=Pizza&option=Tacos&option=Sushi&voter.bob=Pizza")
        await harness.tap("lunch")
        let controller = try #require(await harness.controller(as: LunchVoteViewController.self))
        let before = await MainActor.run { () -> (items: Int, texts: [String], headline: UIFont?, enabled: Bool, style: String?, arranged: Int)? in
            guard let detail = controller.children.first as? LunchDetailViewController else { return nil }
            let texts = detail.collectionView.visibleCells.compactMap { ($0.contentConfiguration as? UIListContentConfiguration)?.text }
            return (detail.collectionView.numberOfItems(inSection: 0), texts, detail.headlineLabel.font, detail.sendButton.isEnabled,
                    detail.sendButton.configuration?.style, detail.stackView.arrangedSubviews.count)
        }
        let detail = try #require(before)
        #expect(detail.items == 3 && detail.texts == ["Pizza", "Tacos", "Sushi"])
        #expect(detail.headline == UIFont.systemFont(ofSize: 28, weight: .bold) && !detail.enabled && detail.style == "filled")
        #expect(detail.arranged == 7)

        await harness.reply("lunch", data: ["vote": "Sushi"])
        let voter = try #require(await MainActor.run { controller.activeConversation?.localParticipantIdentifier.uuidString })
        try await harness.expect(sent: ["?option=Pizza&option=Tacos&option=Sushi&voter.\(voter)=Sushi&voter.bob=Pizza"])
        let after = await MainActor.run { () -> [UITableViewCell.AccessoryType] in
            guard let list = controller.children.first as? LunchListViewController else { return [] }
            return list.tableView.visibleCells.map(\.accessoryType)
        }
        #expect(after == [.none, .none, .checkmark])
    }

    /// In the structure of Apple's IceCreamBuilder: the compact child comes from the
    /// storyboard identifier, is a `UICollectionViewController` whose cells show animated
    /// sticker views; tapping the add cell asks for the expanded style, whose carousel (a
    /// flow-layout subclass) picks the part Select stages.
    @Test func iceCreamBuilderStructureRunsFromStoryboardIdentifiersToAStagedPart() async throws {
        let (apps, storyboard) = await MainActor.run { Self.iceCreamApps() }
        let harness = try ExtensionHarness(apps: apps, app: "icecream")
        await harness.open(.compact)
        let controller = try #require(await harness.controller(as: IceCreamMessagesViewController.self))
        let compact = await MainActor.run { () -> (items: Int, add: Bool, animating: [Bool], fromStoryboard: Bool)? in
            guard let list = controller.children.first as? IceCreamsViewController else { return nil }
            let cells = list.collectionView.visibleCells
            let stickers = cells.compactMap { ($0 as? IceCreamCell)?.stickerView }
            return (list.collectionView.numberOfItems(inSection: 0), cells.first is IceCreamAddCell,
                    stickers.map { $0.sticker != nil && $0.isAnimating() }, list.storyboard === storyboard)
        }
        let list = try #require(compact)
        #expect(list.items == 3 && list.add && list.animating == [true, true] && list.fromStoryboard)

        await harness.insert("sundae", data: ["tap": "add"])
        try await harness.expect(callbacks: [.willBecomeActive, .didBecomeActive, .userDidCompose, .willTransition, .didTransition])
        let parts = await MainActor.run { (controller.children.first as? BuildIceCreamViewController)?.iceCreamParts.map(\.rawValue) }
        #expect(parts == ["base01", "base02", "base03"])
        await harness.close()

        // Bob started a sundae; tapping his bubble shows the scoops to add.
        await harness.receive(from: "bob", session: "sundae", url: "?Base=base01")
        await harness.tap("sundae")
        let expanded = try #require(await harness.controller(as: IceCreamMessagesViewController.self))
        let build = await MainActor.run { () -> (parts: [String], prompt: String?, prepared: Int, layers: Int)? in
            guard let build = expanded.children.first as? BuildIceCreamViewController,
                  let layout = build.collectionView.collectionViewLayout as? IceCreamPartCollectionViewLayout else { return nil }
            // Auto Layout would give the carousel its width; GroupSim lays nothing out.
            build.collectionView.frame = CGRect(x: 0, y: 0, width: 300, height: 120)
            layout.itemSize = CGSize(width: 100, height: 100)
            build.collectionView.reloadData()
            return (build.iceCreamParts.map(\.rawValue), build.promptLabel.text, layout.preparedCount, build.iceCreamView.arrangedSubviews.count)
        }
        let shown = try #require(build)
        #expect(shown.parts == ["scoops01", "scoops02", "scoops03"] && shown.prompt == "Add some scoops")
        #expect(shown.prepared >= 2 && shown.layers == 1)

        await harness.reply("sundae", data: ["part": "scoops02"])
        try await harness.expect(sent: ["?Base=base01&Scoops=scoops02"])
        #expect(await MainActor.run { storyboard.missingIdentifiers.isEmpty })
    }

    /// The ported files import nothing but `GroupSimMessages` (Foundation comes with it, as
    /// with UIKit), so their compiling is the proof that the import switch is enough.
    @Test func portedFilesImportOnlyGroupSimMessages() throws {
        var imports: [String: [String]] = [:]
        for app in ["LunchVote", "IceCreamBuilder"] {
            for file in try ExampleBuildTests.swiftFiles(in: "Tests/GroupSimMessagesTests/PortedExtensions/\(app)") {
                let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
                imports[URL(fileURLWithPath: file).lastPathComponent] = lines.filter { $0.hasPrefix("import ") }.map(String.init)
            }
        }
        #expect(imports.count == 9)
        #expect(imports.filter { $0.value != ["import GroupSimMessages"] } == [:])
    }

    /// The sample's sticker rendering: a 300-point square, the background filled with the
    /// literal color set with `setFill()`, then the stacked parts drawn into the middle.
    @Test @MainActor func iceCreamStickerRendersAtItsSizeAndRecordsItsDrawing() throws {
        let image = try #require(IceCream(base: .base01, scoops: .scoops01, topping: .topping01).renderSticker(opaque: true))
        #expect(image.size == CGSize(width: 300, height: 300))
        let pink = UIColor(red: CGFloat(Float(0.98)), green: CGFloat(Float(0.88)), blue: CGFloat(Float(0.92)), alpha: 1)
        #expect(image.drawing.first == .fill(CGRect(x: 0, y: 0, width: 300, height: 300), pink))
        guard case .image(_, let rect)? = image.drawing.last else {
            Issue.record("the parts were not drawn: \(image.drawing)")
            return
        }
        // Parts of 120 x 150 points scaled by min(240/150, 290/120) = 1.6 into the middle.
        #expect(rect == CGRect(x: 54, y: 30, width: 192, height: 240))
        let transparent = try #require(IceCream(base: .base02).renderSticker(opaque: false))
        #expect(transparent.size == CGSize(width: 720, height: 300) && transparent.drawing.first == .fill(CGRect(x: 0, y: 0, width: 300, height: 300), .clear))
    }
}
