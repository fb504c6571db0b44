import Foundation
#if canImport(UIKit)
import UIKit
#else
import GroupSimMessages
#endif

@MainActor
protocol BuildIceCreamViewControllerDelegate: AnyObject {
    /// The user chose `value` for the sundae's next part.
    func buildIceCreamViewController(_ controller: BuildIceCreamViewController, didChoose value: String, for part: IceCreamPart)
}

/// The expanded view: the sundae so far and the choices for its next part.
final class BuildIceCreamViewController: UIViewController {
    weak var delegate: (any BuildIceCreamViewControllerDelegate)?
    let iceCream: IceCream
    private let promptLabel = UILabel()
    private let sundaeLabel = UILabel()

    init(iceCream: IceCream) {
        self.iceCream = iceCream
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    override func viewDidLoad() {
        super.viewDidLoad()
        promptLabel.text = iceCream.nextPart.map { "Choose the \($0.rawValue)" } ?? "This sundae is done"
        sundaeLabel.text = iceCream.caption
        for label in [promptLabel, sundaeLabel] {
            label.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(label)
        }
        NSLayoutConstraint.activate([
            promptLabel.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            promptLabel.topAnchor.constraint(equalTo: view.topAnchor, constant: 24),
            sundaeLabel.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            sundaeLabel.topAnchor.constraint(equalTo: promptLabel.bottomAnchor, constant: 16),
        ])
    }

    /// A choice button's action.
    func choose(_ value: String) {
        guard let part = iceCream.nextPart else { return }
        delegate?.buildIceCreamViewController(self, didChoose: value, for: part)
    }
}
