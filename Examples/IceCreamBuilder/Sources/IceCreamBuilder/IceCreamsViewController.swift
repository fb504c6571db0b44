import Foundation
#if canImport(UIKit)
import UIKit
#else
import GroupSimMessages
#endif

@MainActor
protocol IceCreamsViewControllerDelegate: AnyObject {
    /// The user tapped "add a sundae".
    func iceCreamsViewControllerDidSelectAdd(_ controller: IceCreamsViewController)
}

/// The compact view: the sundaes this person finished, and a button to start one.
final class IceCreamsViewController: UIViewController {
    weak var delegate: (any IceCreamsViewControllerDelegate)?
    let history: IceCreamHistory
    private let titleLabel = UILabel()
    private let listLabel = UILabel()

    init(history: IceCreamHistory) {
        self.history = history
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        titleLabel.text = "Your sundaes"
        listLabel.numberOfLines = 0
        for label in [titleLabel, listLabel] {
            label.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(label)
        }
        NSLayoutConstraint.activate([
            titleLabel.topAnchor.constraint(equalTo: view.topAnchor, constant: 12),
            titleLabel.leadingAnchor.constraint(equalTo: view.leadingAnchor, constant: 16),
            listLabel.topAnchor.constraint(equalTo: titleLabel.bottomAnchor, constant: 8),
            listLabel.leadingAnchor.constraint(equalTo: titleLabel.leadingAnchor),
            listLabel.trailingAnchor.constraint(equalTo: view.trailingAnchor, constant: -16),
        ])
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        listLabel.text = history.completed.isEmpty ? "None yet" : history.completed.joined(separator: "\n")
    }

    /// The "add a sundae" button's action.
    func addTapped() {
        delegate?.iceCreamsViewControllerDidSelectAdd(self)
    }
}
