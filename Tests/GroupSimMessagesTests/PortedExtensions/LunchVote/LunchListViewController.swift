import GroupSimMessages

@MainActor
protocol LunchListViewControllerDelegate: AnyObject {
    func lunchList(_ controller: LunchListViewController, didChoose option: String)
    func lunchListDidAskForDetails(_ controller: LunchListViewController)
}

/// The compact view: one row per option with its vote count; a tap votes.
final class LunchListViewController: UITableViewController {
    static let cellIdentifier = "LunchOptionCell"
    weak var delegate: (any LunchListViewControllerDelegate)?
    let vote: LunchVote
    let voter: String

    init(vote: LunchVote, voter: String) {
        self.vote = vote
        self.voter = voter
        super.init(style: .insetGrouped)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = NSLocalizedString("Lunch", comment: "")
        navigationItem.rightBarButtonItem = UIBarButtonItem(systemItem: .add, primaryAction: UIAction { [weak self] _ in
            guard let self else { return }
            self.delegate?.lunchListDidAskForDetails(self)
        })
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: Self.cellIdentifier)
        tableView.rowHeight = 52
        tableView.separatorColor = .separator
        tableView.backgroundColor = .secondarySystemBackground
    }

    override func numberOfSections(in tableView: UITableView) -> Int { 1 }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { vote.options.count }

    override func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? {
        NSLocalizedString("Where do we eat?", comment: "")
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: Self.cellIdentifier, for: indexPath)
        let option = vote.options[indexPath.row]
        let mine = vote.ballots[voter] == option
        var content = cell.defaultContentConfiguration()
        content.text = option
        content.secondaryText = String(format: NSLocalizedString("%d votes", comment: ""), vote.votes(for: option))
        content.image = UIImage(systemName: mine ? "checkmark.circle.fill" : "circle")
        content.imageProperties.tintColor = mine ? .systemGreen : .systemGray
        content.textProperties.font = .preferredFont(forTextStyle: .headline)
        content.secondaryTextProperties.color = .secondaryLabel
        cell.contentConfiguration = content
        cell.accessoryType = mine ? .checkmark : .none
        return cell
    }

    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        tableView.deselectRow(at: indexPath, animated: true)
        delegate?.lunchList(self, didChoose: vote.options[indexPath.row])
    }
}
