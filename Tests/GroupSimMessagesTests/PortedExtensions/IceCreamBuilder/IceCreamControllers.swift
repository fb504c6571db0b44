import GroupSimMessages

@MainActor
protocol IceCreamsViewControllerDelegate: AnyObject {
    func iceCreamsViewControllerDidSelectAdd(_ controller: IceCreamsViewController)
}

/// The compact view: an "add" cell, then the finished ice creams' stickers.
final class IceCreamsViewController: UICollectionViewController {
    enum CollectionViewItem {
        case iceCream(IceCream)
        case create
    }

    static let storyboardIdentifier = "IceCreamsViewController"
    weak var delegate: (any IceCreamsViewControllerDelegate)?
    var stickerCache: IceCreamStickerCache?
    private let items: [CollectionViewItem]

    init(history: IceCreamHistory) {
        items = [.create] + history.reversed().map { .iceCream($0) }
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: 100, height: 100)
        super.init(collectionViewLayout: layout)
    }

    required init?(coder aDecoder: NSCoder) {
        items = [.create] + IceCreamHistory.load().reversed().map { .iceCream($0) }
        super.init(coder: aDecoder)
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        collectionView.register(IceCreamCell.self, forCellWithReuseIdentifier: IceCreamCell.reuseIdentifier)
        collectionView.register(IceCreamAddCell.self, forCellWithReuseIdentifier: IceCreamAddCell.reuseIdentifier)
    }

    override func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { items.count }

    override func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        switch items[indexPath.row] {
        case .iceCream(let iceCream):
            return dequeueIceCreamCell(for: iceCream, at: indexPath)
        case .create:
            return collectionView.dequeueReusableCell(withReuseIdentifier: IceCreamAddCell.reuseIdentifier, for: indexPath)
        }
    }

    override func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        if case .create = items[indexPath.row] { delegate?.iceCreamsViewControllerDidSelectAdd(self) }
    }

    private func dequeueIceCreamCell(for iceCream: IceCream, at indexPath: IndexPath) -> UICollectionViewCell {
        guard let cell = collectionView?.dequeueReusableCell(withReuseIdentifier: IceCreamCell.reuseIdentifier, for: indexPath) as? IceCreamCell
        else { return UICollectionViewCell() }
        cell.representedIceCream = iceCream
        cell.stickerView.sticker = stickerCache?.placeholderSticker
        stickerCache?.sticker(for: iceCream) { sticker in
            guard cell.representedIceCream == iceCream else { return }
            cell.stickerView.sticker = sticker
            cell.stickerView.startAnimating()
        }
        return cell
    }
}

@MainActor
protocol BuildIceCreamViewControllerDelegate: AnyObject {
    func buildIceCreamViewController(_ controller: BuildIceCreamViewController, didSelect iceCreamPart: any IceCreamPart)
}

/// The expanded view: the ice cream so far and a carousel of the parts for its next step.
final class BuildIceCreamViewController: UIViewController {
    static let storyboardIdentifier = "BuildIceCreamViewController"
    weak var delegate: (any BuildIceCreamViewControllerDelegate)?
    private(set) var prompt: String?
    private(set) var iceCreamParts: [any IceCreamPart] = [] {
        didSet {
            guard isViewLoaded else { return }
            collectionView.reloadData()
        }
    }

    var iceCream: IceCream? {
        didSet {
            guard let iceCream else { return }
            if iceCream.base == nil {
                iceCreamParts = Base.allCases
                prompt = NSLocalizedString("Select a base", comment: "")
            } else if iceCream.scoops == nil {
                iceCreamParts = Scoops.allCases
                prompt = NSLocalizedString("Add some scoops", comment: "")
            } else if iceCream.topping == nil {
                iceCreamParts = Topping.allCases
                prompt = NSLocalizedString("Finish with a topping", comment: "")
            }
        }
    }

    // The sample's outlets, made in code.
    let promptLabel = UILabel()
    let iceCreamView = IceCreamView()
    let collectionView = UICollectionView(frame: .zero, collectionViewLayout: IceCreamPartCollectionViewLayout())
    let selectButton = UIButton(type: .system)
    private(set) lazy var iceCreamViewHeightConstraint = iceCreamView.heightAnchor.constraint(equalToConstant: 0)
    private(set) lazy var collectionViewHeightConstraint = collectionView.heightAnchor.constraint(equalToConstant: 0)

    override func viewDidLoad() {
        super.viewDidLoad()
        promptLabel.text = prompt
        promptLabel.textAlignment = .center
        iceCreamView.iceCream = iceCream
        iceCreamView.axis = .vertical
        collectionView.decelerationRate = UIScrollView.DecelerationRate.fast
        collectionView.dataSource = self
        collectionView.register(IceCreamPartCell.self, forCellWithReuseIdentifier: IceCreamPartCell.reuseIdentifier)
        if let layout = collectionView.collectionViewLayout as? UICollectionViewFlowLayout { layout.scrollDirection = .horizontal }
        selectButton.setTitle(NSLocalizedString("Select", comment: ""), for: .normal)
        selectButton.addAction(UIAction { [weak self] _ in self?.didTapSelect() }, for: .touchUpInside)
        for subview in [promptLabel, iceCreamView, collectionView, selectButton] {
            subview.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(subview)
        }
        NSLayoutConstraint.activate([
            promptLabel.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 8),
            promptLabel.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            iceCreamView.topAnchor.constraint(equalTo: promptLabel.bottomAnchor, constant: 8),
            iceCreamView.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            iceCreamViewHeightConstraint,
            collectionView.topAnchor.constraint(equalTo: iceCreamView.bottomAnchor),
            collectionView.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            collectionView.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            collectionViewHeightConstraint,
            selectButton.topAnchor.constraint(equalTo: collectionView.bottomAnchor, constant: 8),
            selectButton.centerXAnchor.constraint(equalTo: view.centerXAnchor),
        ])
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        guard !iceCreamParts.isEmpty, let layout = collectionView.collectionViewLayout as? UICollectionViewFlowLayout else { return }
        layout.itemSize.width = floor(view.bounds.size.width / 3.0)
        let partImageSize = iceCreamParts[0].image.size
        guard partImageSize.width > 0 else { return }
        layout.itemSize.height = floor(layout.itemSize.width / (partImageSize.width / partImageSize.height))
        collectionViewHeightConstraint.constant = layout.itemSize.height
        var contentInset = collectionView.contentInset
        contentInset.left = (view.bounds.size.width - layout.itemSize.width) / 2.0
        contentInset.right = contentInset.left
        collectionView.contentInset = contentInset
        let contentHeight = iceCreamView.arrangedSubviews.reduce(0.0) { $0 + $1.intrinsicContentSize.height }
        iceCreamViewHeightConstraint.constant = floor(contentHeight * layout.itemSize.height / partImageSize.height)
    }

    /// The sample's Select action: the part in the middle of the carousel.
    func didTapSelect() {
        guard let layout = collectionView.collectionViewLayout as? IceCreamPartCollectionViewLayout else { return }
        let halfWidth = collectionView.bounds.size.width / 2.0
        guard let indexPath = layout.indexPathForVisibleItemClosest(to: collectionView.contentOffset.x + halfWidth) else { return }
        delegate?.buildIceCreamViewController(self, didSelect: iceCreamParts[indexPath.row])
    }
}

extension BuildIceCreamViewController: UICollectionViewDataSource {
    func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int { iceCreamParts.count }

    func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        guard let cell = collectionView.dequeueReusableCell(withReuseIdentifier: IceCreamPartCell.reuseIdentifier,
                                                            for: indexPath as IndexPath) as? IceCreamPartCell
        else { return UICollectionViewCell() }
        cell.imageView.image = iceCreamParts[indexPath.row].image
        return cell
    }
}

/// The expanded view of a finished ice cream: its sticker.
final class CompletedIceCreamViewController: UIViewController {
    static let storyboardIdentifier = "CompletedIceCreamViewController"
    var iceCream: IceCream?
    var stickerCache: IceCreamStickerCache?
    let stickerView = MSStickerView(frame: .zero)

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(stickerView)
        guard let iceCream else { return }
        stickerView.sticker = stickerCache?.placeholderSticker
        stickerCache?.sticker(for: iceCream) { sticker in
            guard self.isViewLoaded else { return }
            self.stickerView.sticker = sticker
            self.stickerView.startAnimating()
        }
    }
}
