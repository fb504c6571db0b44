import Foundation

/// `UILabel`: the text and the text attributes a controller sets; nothing draws it.
@MainActor
open class UILabel: UIView {
    open var text: String?
    open var numberOfLines = 1
    /// `nil` reads back as `.label`, as on iOS.
    open var textColor: UIColor! {
        get { storedTextColor ?? .label }
        set { storedTextColor = newValue }
    }
    /// `nil` reads back as the 17-point system font, as on iOS.
    open var font: UIFont! {
        get { storedFont ?? .systemFont(ofSize: UIFont.labelFontSize) }
        set { storedFont = newValue }
    }
    open var textAlignment: NSTextAlignment = .natural
    open var lineBreakMode: NSLineBreakMode = .byTruncatingTail
    open var adjustsFontSizeToFitWidth = false
    open var adjustsFontForContentSizeCategory = false
    open var minimumScaleFactor: CGFloat = 0
    open var isEnabled = true
    private var storedTextColor: UIColor?
    private var storedFont: UIFont?
}

/// `UIImageView`: the image it shows; nothing is drawn. Its intrinsic size is the
/// image's size, as on iOS.
@MainActor
open class UIImageView: UIView {
    open var image: UIImage?
    open var highlightedImage: UIImage?
    open var isHighlighted = false
    open var preferredSymbolConfiguration: UIImage.SymbolConfiguration?

    public convenience init(image: UIImage?) {
        self.init(frame: CGRect(origin: .zero, size: image?.size ?? .zero))
        self.image = image
    }

    open override var intrinsicContentSize: CGSize {
        image?.size ?? CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric)
    }
}

/// `UIStackView`: its arranged subviews, in order, and how it would arrange them;
/// nothing is laid out.
@MainActor
open class UIStackView: UIView {
    open private(set) var arrangedSubviews: [UIView] = []
    open var axis: NSLayoutConstraint.Axis = .horizontal
    open var spacing: CGFloat = 0
    open var alignment: Alignment = .fill
    open var distribution: Distribution = .fill
    open var isLayoutMarginsRelativeArrangement = false
    open var isBaselineRelativeArrangement = false
    private var customSpacings: [(view: UIView, spacing: CGFloat)] = []

    public enum Alignment: Int, Sendable {
        case fill = 0, leading, firstBaseline, center, trailing, lastBaseline
        public static let top = Alignment.leading
        public static let bottom = Alignment.trailing
    }

    public enum Distribution: Int, Sendable {
        case fill = 0, fillEqually, fillProportionally, equalSpacing, equalCentering
    }

    /// `UIStackView.spacingUseDefault`: the system spacing after a view.
    public static let spacingUseDefault = CGFloat.greatestFiniteMagnitude
    public static let spacingUseSystem = -CGFloat.greatestFiniteMagnitude

    public convenience init(arrangedSubviews views: [UIView]) {
        self.init(frame: .zero)
        for view in views { addArrangedSubview(view) }
    }

    open func addArrangedSubview(_ view: UIView) {
        insertArrangedSubview(view, at: arrangedSubviews.count)
    }

    /// Adds `view` at `stackIndex` among the arranged subviews (clamped), and as a subview.
    open func insertArrangedSubview(_ view: UIView, at stackIndex: Int) {
        arrangedSubviews.removeAll { $0 === view }
        arrangedSubviews.insert(view, at: max(0, min(stackIndex, arrangedSubviews.count)))
        if view.superview !== self { addSubview(view) }
    }

    /// Stops arranging `view`; it stays a subview, as on iOS.
    open func removeArrangedSubview(_ view: UIView) {
        arrangedSubviews.removeAll { $0 === view }
    }

    open func setCustomSpacing(_ spacing: CGFloat, after arrangedSubview: UIView) {
        customSpacings.removeAll { $0.view === arrangedSubview }
        customSpacings.append((arrangedSubview, spacing))
    }

    open func customSpacing(after arrangedSubview: UIView) -> CGFloat {
        customSpacings.first { $0.view === arrangedSubview }?.spacing ?? UIStackView.spacingUseDefault
    }
}

/// `UIActivityIndicatorView`: whether it spins; nothing is drawn. Stopped, it hides
/// itself while `hidesWhenStopped` is on (the default), as on iOS.
@MainActor
open class UIActivityIndicatorView: UIView {
    open private(set) var isAnimating = false
    open var hidesWhenStopped = true {
        didSet { if hidesWhenStopped && !isAnimating { isHidden = true } }
    }
    open var style: Style = .medium
    open var color: UIColor! = .gray

    public enum Style: Int, Sendable {
        case medium = 100, large = 101
        case whiteLarge = 0, white = 1, gray = 2
    }

    public override init(frame: CGRect) {
        super.init(frame: frame)
        isHidden = true
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        isHidden = true
    }

    public convenience init(style: Style) {
        self.init(frame: .zero)
        self.style = style
    }

    open func startAnimating() {
        isAnimating = true
        isHidden = false
    }

    open func stopAnimating() {
        isAnimating = false
        if hidesWhenStopped { isHidden = true }
    }
}
