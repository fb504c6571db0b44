import GroupSimMessages

@MainActor
protocol LunchDetailViewControllerDelegate: AnyObject {
    func lunchDetail(_ controller: LunchDetailViewController, didChoose option: String)
    func lunchDetailDidCancel(_ controller: LunchDetailViewController)
}

/// The expanded view: a headline, the options as a grid of cards, and Send/Cancel.
final class LunchDetailViewController: UIViewController {
    enum Section: Hashable, Sendable {
        case options
    }

    weak var delegate: (any LunchDetailViewControllerDelegate)?
    let vote: LunchVote
    private(set) var chosen: String?
    let headlineLabel = UILabel()
    let subtitleLabel = UILabel()
    let artworkView = UIImageView(image: UIImage(systemName: "takeoutbag.and.cup.and.straw"))
    let stackView = UIStackView()
    let sendButton = UIButton(configuration: .filled())
    let cancelButton = UIButton(configuration: .plain())
    let spinner = UIActivityIndicatorView(style: .medium)
    private(set) lazy var collectionView = UICollectionView(frame: .zero, collectionViewLayout: Self.makeLayout())
    private(set) var dataSource: UICollectionViewDiffableDataSource<Section, String>?

    init(vote: LunchVote) {
        self.vote = vote
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    static func makeLayout() -> UICollectionViewFlowLayout {
        let layout = UICollectionViewFlowLayout()
        layout.scrollDirection = .vertical
        layout.itemSize = CGSize(width: 100, height: 44)
        layout.minimumInteritemSpacing = 8
        layout.minimumLineSpacing = 8
        layout.sectionInset = UIEdgeInsets(top: 8, left: 16, bottom: 8, right: 16)
        return layout
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = traitCollection.userInterfaceStyle == .dark ? .black : .systemBackground

        headlineLabel.text = NSLocalizedString("What's for lunch?", comment: "")
        headlineLabel.font = .systemFont(ofSize: 28, weight: .bold)
        headlineLabel.textAlignment = .center
        headlineLabel.numberOfLines = 0
        headlineLabel.textColor = .label
        subtitleLabel.text = vote.summary
        subtitleLabel.font = .preferredFont(forTextStyle: .subheadline)
        subtitleLabel.adjustsFontForContentSizeCategory = true
        subtitleLabel.textColor = .secondaryLabel
        artworkView.contentMode = .scaleAspectFit
        artworkView.tintColor = .systemBlue

        var send = UIButton.Configuration.filled()
        send.title = NSLocalizedString("Send vote", comment: "")
        send.baseBackgroundColor = .systemBlue
        sendButton.configuration = send
        sendButton.isEnabled = false
        sendButton.addAction(UIAction { [weak self] _ in self?.sendTapped() }, for: .touchUpInside)
        var cancel = UIButton.Configuration.plain()
        cancel.title = NSLocalizedString("Cancel", comment: "")
        cancel.baseForegroundColor = .systemRed
        cancelButton.configuration = cancel
        cancelButton.addAction(UIAction { [weak self] _ in
            guard let self else { return }
            self.delegate?.lunchDetailDidCancel(self)
        }, for: .touchUpInside)
        spinner.hidesWhenStopped = true

        collectionView.backgroundColor = .secondarySystemBackground
        collectionView.delegate = self
        let registration = UICollectionView.CellRegistration<UICollectionViewListCell, String> { [vote] cell, _, option in
            var content = cell.defaultContentConfiguration()
            content.text = option
            content.secondaryText = "\(vote.votes(for: option))"
            content.textProperties.font = .boldSystemFont(ofSize: 17)
            content.textProperties.alignment = .center
            cell.contentConfiguration = content
        }
        dataSource = UICollectionViewDiffableDataSource<Section, String>(collectionView: collectionView) { collectionView, indexPath, option in
            collectionView.dequeueConfiguredReusableCell(using: registration, for: indexPath, item: option)
        }

        stackView.axis = .vertical
        stackView.alignment = .center
        stackView.distribution = .fill
        stackView.spacing = 12
        for arranged in [artworkView, headlineLabel, subtitleLabel, collectionView, spinner, sendButton, cancelButton] {
            stackView.addArrangedSubview(arranged)
        }
        stackView.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(stackView)
        NSLayoutConstraint.activate([
            stackView.leadingAnchor.constraint(equalTo: view.layoutMarginsGuide.leadingAnchor),
            stackView.trailingAnchor.constraint(equalTo: view.layoutMarginsGuide.trailingAnchor),
            stackView.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 16),
            stackView.bottomAnchor.constraint(lessThanOrEqualTo: view.safeAreaLayoutGuide.bottomAnchor),
            artworkView.heightAnchor.constraint(equalToConstant: max(artworkView.image?.size.height ?? 0, 64)),
            collectionView.widthAnchor.constraint(equalTo: stackView.widthAnchor),
        ])
        applySnapshot()
    }

    func applySnapshot() {
        var snapshot = NSDiffableDataSourceSnapshot<Section, String>()
        snapshot.appendSections([.options])
        snapshot.appendItems(vote.options, toSection: .options)
        dataSource?.apply(snapshot, animatingDifferences: false)
    }

    private func sendTapped() {
        guard let chosen else { return }
        spinner.startAnimating()
        UIView.animate(withDuration: 0.25, animations: {
            self.sendButton.alpha = 0.5
        }, completion: { _ in
            self.spinner.stopAnimating()
            self.delegate?.lunchDetail(self, didChoose: chosen)
        })
    }
}

extension LunchDetailViewController: UICollectionViewDelegate {
    func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        chosen = dataSource?.itemIdentifier(for: indexPath)
        sendButton.isEnabled = chosen != nil
        var configuration = sendButton.configuration
        configuration?.title = chosen.map { String(format: NSLocalizedString("Vote for %@", comment: ""), $0) }
        sendButton.configuration = configuration
    }
}
