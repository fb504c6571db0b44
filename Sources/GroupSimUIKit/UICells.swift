import Foundation

/// `UIContentConfiguration`: what a cell's content view shows (iOS 14).
public protocol UIContentConfiguration {
    @MainActor func makeContentView() -> any UIView & UIContentView
    func updated(for state: any UIConfigurationState) -> Self
}

/// `UIContentView`: a view that shows a content configuration.
@MainActor
public protocol UIContentView: AnyObject {
    var configuration: any UIContentConfiguration { get set }
    func supports(_ configuration: any UIContentConfiguration) -> Bool
}

extension UIContentView {
    public func supports(_ configuration: any UIContentConfiguration) -> Bool { true }
}

/// `UIConfigurationState`: the state a configuration is updated for.
public protocol UIConfigurationState {
    var traitCollection: UITraitCollection { get set }
}

/// `UICellConfigurationState`: a cell's state.
public struct UICellConfigurationState: UIConfigurationState, Sendable {
    public var traitCollection: UITraitCollection
    public var isSelected = false
    public var isHighlighted = false
    public var isDisabled = false
    public var isEditing = false

    public init(traitCollection: UITraitCollection) { self.traitCollection = traitCollection }
}

/// `UIListContentConfiguration` (iOS 14): a list cell's text, secondary text and image,
/// with their properties; `cell.contentConfiguration = configuration` shows it.
public struct UIListContentConfiguration: UIContentConfiguration, Sendable {
    public var text: String?
    public var secondaryText: String?
    public var image: UIImage?
    public var textProperties: TextProperties
    public var secondaryTextProperties: TextProperties
    public var imageProperties = ImageProperties()
    public var directionalLayoutMargins = NSDirectionalEdgeInsets(top: 11, leading: 16, bottom: 11, trailing: 16)
    public var prefersSideBySideTextAndSecondaryText = false
    public var imageToTextPadding: CGFloat = 16
    public var textToSecondaryTextVerticalPadding: CGFloat = 3
    /// Which factory made it (`"cell"`, `"subtitleCell"`...), GroupSim's own.
    public let style: String

    init(style: String, text: UIFont.TextStyle = .body, secondary: UIFont.TextStyle = .subheadline, secondaryColor: UIColor = .secondaryLabel) {
        self.style = style
        textProperties = TextProperties(font: .preferredFont(forTextStyle: text), color: .label)
        secondaryTextProperties = TextProperties(font: .preferredFont(forTextStyle: secondary), color: secondaryColor)
    }

    public static func cell() -> UIListContentConfiguration { UIListContentConfiguration(style: "cell") }
    public static func subtitleCell() -> UIListContentConfiguration { UIListContentConfiguration(style: "subtitleCell") }
    public static func valueCell() -> UIListContentConfiguration {
        var configuration = UIListContentConfiguration(style: "valueCell", secondary: .body)
        configuration.prefersSideBySideTextAndSecondaryText = true
        return configuration
    }
    public static func sidebarCell() -> UIListContentConfiguration { UIListContentConfiguration(style: "sidebarCell") }
    public static func plainHeader() -> UIListContentConfiguration { UIListContentConfiguration(style: "plainHeader", text: .headline) }
    public static func plainFooter() -> UIListContentConfiguration { UIListContentConfiguration(style: "plainFooter", text: .footnote) }
    public static func groupedHeader() -> UIListContentConfiguration { UIListContentConfiguration(style: "groupedHeader", text: .footnote) }
    public static func groupedFooter() -> UIListContentConfiguration { UIListContentConfiguration(style: "groupedFooter", text: .footnote) }
    public static func header() -> UIListContentConfiguration { UIListContentConfiguration(style: "header", text: .headline) }
    public static func footer() -> UIListContentConfiguration { UIListContentConfiguration(style: "footer", text: .footnote) }

    @MainActor public func makeContentView() -> any UIView & UIContentView { UIListContentView(configuration: self) }
    public func updated(for state: any UIConfigurationState) -> UIListContentConfiguration { self }

    public struct TextProperties: Sendable {
        public var font: UIFont
        public var color: UIColor
        public var numberOfLines = 0
        public var alignment: TextAlignment = .natural
        public var lineBreakMode: NSLineBreakMode = .byTruncatingTail
        public var adjustsFontForContentSizeCategory = true

        public enum TextAlignment: Int, Sendable { case natural = 0, center, justified }
    }

    public struct ImageProperties: Sendable {
        public var tintColor: UIColor?
        public var maximumSize: CGSize = .zero
        public var reservedLayoutSize: CGSize = .zero
        public var cornerRadius: CGFloat = 0
        public var preferredSymbolConfiguration: UIImage.SymbolConfiguration?
    }
}

/// `UIListContentView`: shows a `UIListContentConfiguration`; nothing draws it.
@MainActor
open class UIListContentView: UIView, UIContentView {
    open var configuration: any UIContentConfiguration
    /// The configuration as a list configuration.
    open var listContentConfiguration: UIListContentConfiguration {
        get { configuration as? UIListContentConfiguration ?? .cell() }
        set { configuration = newValue }
    }

    public init(configuration: UIListContentConfiguration) {
        self.configuration = configuration
        super.init(frame: .zero)
    }

    public required init?(coder: NSCoder) {
        configuration = UIListContentConfiguration.cell()
        super.init(coder: coder)
    }
}

/// `UITableViewCell`: its labels, image view, content view and content configuration,
/// kept as set; nothing draws it. A table reuses it for another row after
/// `prepareForReuse()`, as UIKit does.
@MainActor
open class UITableViewCell: UIView, ReusableCell {
    public let reuseIdentifier: String?
    public let cellStyle: CellStyle
    /// The view the cell's content goes in.
    public let contentView = UIView()
    open var accessoryType: AccessoryType = .none
    open var accessoryView: UIView?
    open var editingAccessoryType: AccessoryType = .none
    open var selectionStyle: SelectionStyle = .default
    open var separatorInset = UIEdgeInsets(top: 0, left: 16, bottom: 0, right: 0)
    open var indentationLevel = 0
    open var isSelected = false
    open var isHighlighted = false
    open var isEditing = false
    private var configuredView: UIView?
    private lazy var ownTextLabel = makeLabel()
    private lazy var ownDetailLabel = makeLabel()
    private lazy var ownImageView = makeImageView()

    /// The content configuration (iOS 14); setting it replaces the content view's content.
    open var contentConfiguration: (any UIContentConfiguration)? {
        didSet { configuredView = contentView.show(contentConfiguration, replacing: configuredView) }
    }

    public init(style: CellStyle, reuseIdentifier: String?) {
        cellStyle = style
        self.reuseIdentifier = reuseIdentifier
        super.init(frame: .zero)
        addSubview(contentView)
    }

    public required init?(coder: NSCoder) {
        cellStyle = .default
        reuseIdentifier = nil
        super.init(coder: coder)
        addSubview(contentView)
    }

    /// What a table makes for a registered class (GroupSim's own; UIKit makes it with
    /// `init(style: .default, reuseIdentifier:)` too).
    public required convenience init(registeredReuseIdentifier identifier: String) {
        self.init(style: .default, reuseIdentifier: identifier)
    }

    public convenience init() { self.init(style: .default, reuseIdentifier: nil) }

    /// The main label (iOS 3 API; `contentConfiguration` is its successor).
    open var textLabel: UILabel? { ownTextLabel }
    /// The secondary label: nil for the `.default` style, as on iOS.
    open var detailTextLabel: UILabel? { cellStyle == .default ? nil : ownDetailLabel }
    open var imageView: UIImageView? { ownImageView }

    private func makeLabel() -> UILabel {
        let label = UILabel()
        contentView.addSubview(label)
        return label
    }

    private func makeImageView() -> UIImageView {
        let imageView = UIImageView()
        contentView.addSubview(imageView)
        return imageView
    }

    /// The configuration for this cell's style, empty (iOS 14).
    open func defaultContentConfiguration() -> UIListContentConfiguration {
        switch cellStyle {
        case .default: .cell()
        case .subtitle: .subtitleCell()
        case .value1, .value2: .valueCell()
        }
    }

    /// The cell is about to be reused for another row; override to reset it.
    open func prepareForReuse() {}
    open func setSelected(_ selected: Bool, animated: Bool) { isSelected = selected }
    open func setHighlighted(_ highlighted: Bool, animated: Bool) { isHighlighted = highlighted }
    open func setEditing(_ editing: Bool, animated: Bool) { isEditing = editing }

    public enum CellStyle: Int, Sendable { case `default` = 0, value1, value2, subtitle }
    public enum AccessoryType: Int, Sendable { case none = 0, disclosureIndicator, detailDisclosureButton, checkmark, detailButton }
    public enum SelectionStyle: Int, Sendable { case none = 0, blue, gray, `default` }
    public enum SeparatorStyle: Int, Sendable { case none = 0, singleLine, singleLineEtched }
    public enum EditingStyle: Int, Sendable { case none = 0, delete, insert }
}

/// `UICollectionReusableView`: a view a collection view reuses.
@MainActor
open class UICollectionReusableView: UIView {
    open internal(set) var reuseIdentifier: String?

    /// The view is about to be reused; override to reset it.
    open func prepareForReuse() {}
    open func apply(_ layoutAttributes: UICollectionViewLayoutAttributes) { frame = layoutAttributes.frame }
}

/// `UICollectionViewCell`: a content view and a content configuration; nothing draws
/// it. A collection view reuses it after `prepareForReuse()`, as UIKit does.
@MainActor
open class UICollectionViewCell: UICollectionReusableView, ReusableCell {
    public let contentView = UIView()
    open var isSelected = false
    open var isHighlighted = false
    open var backgroundView: UIView?
    open var selectedBackgroundView: UIView?
    private var configuredView: UIView?

    /// The content configuration (iOS 14); setting it replaces the content view's content.
    open var contentConfiguration: (any UIContentConfiguration)? {
        didSet { configuredView = contentView.show(contentConfiguration, replacing: configuredView) }
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        addSubview(contentView)
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        addSubview(contentView)
    }

    /// What a collection view makes for a registered class (GroupSim's own; UIKit makes
    /// it with `init(frame:)` too).
    public required convenience init(registeredReuseIdentifier identifier: String) {
        self.init(frame: .zero)
        reuseIdentifier = identifier
    }
}

/// `UICollectionViewListCell` (iOS 14): a collection cell with a list's default configuration.
@MainActor
open class UICollectionViewListCell: UICollectionViewCell {
    open func defaultContentConfiguration() -> UIListContentConfiguration { .cell() }
}

extension UIView {
    /// Puts the view `configuration` makes in this view in place of `old`; returns it.
    func show(_ configuration: (any UIContentConfiguration)?, replacing old: UIView?) -> UIView? {
        old?.removeFromSuperview()
        guard let made = configuration?.makeContentView() else { return nil }
        addSubview(made)
        return made
    }
}
