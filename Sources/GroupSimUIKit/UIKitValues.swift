import Foundation

/// `UIColor`: a color a view keeps; nothing paints it. The semantic colors (`.label`,
/// `.systemBackground`, `.systemBlue`...) have iOS's light-appearance values.
public final class UIColor: Sendable, Equatable, CustomStringConvertible {
    public let red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat
    /// The name of a system color (`"systemBlue"`), nil for one made from components.
    public let systemName: String?

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
        systemName = nil
    }

    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let sector = (hue - hue.rounded(.down)) * 6
        let index = Int(sector.rounded(.down)) % 6, fraction = sector - sector.rounded(.down)
        let (p, q, t) = (brightness * (1 - saturation), brightness * (1 - saturation * fraction),
                         brightness * (1 - saturation * (1 - fraction)))
        let rgb = [(brightness, t, p), (q, brightness, p), (p, brightness, t), (p, q, brightness), (t, p, brightness), (brightness, p, q)][index]
        self.init(red: rgb.0, green: rgb.1, blue: rgb.2, alpha: alpha)
    }

    /// A system color: its iOS light-appearance components, out of 255.
    private init(system name: String, _ red: CGFloat, _ green: CGFloat, _ blue: CGFloat, _ alpha: CGFloat = 1) {
        self.red = red / 255
        self.green = green / 255
        self.blue = blue / 255
        self.alpha = alpha
        systemName = name
    }

    public static func == (lhs: UIColor, rhs: UIColor) -> Bool {
        (lhs.red, lhs.green, lhs.blue, lhs.alpha) == (rhs.red, rhs.green, rhs.blue, rhs.alpha)
    }

    public var description: String {
        systemName ?? "UIColor(red: \(red), green: \(green), blue: \(blue), alpha: \(alpha))"
    }

    public func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        UIColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// There is one appearance here (light): the color itself.
    public func resolvedColor(with traitCollection: UITraitCollection) -> UIColor { self }

    /// Makes this the fill color of the image renderer drawing now (nothing else draws).
    public func setFill() { UIGraphicsImageRendererContext.current?.setFillColor(self) }
    /// Makes this the stroke color of the image renderer drawing now.
    public func setStroke() { UIGraphicsImageRendererContext.current?.setStrokeColor(self) }
    /// Makes this the fill and stroke color of the image renderer drawing now.
    public func set() {
        setFill()
        setStroke()
    }

    public static let clear = UIColor(white: 0, alpha: 0)
    public static let white = UIColor(white: 1, alpha: 1)
    public static let black = UIColor(white: 0, alpha: 1)
    public static let gray = UIColor(white: 0.5, alpha: 1)
    public static let lightGray = UIColor(white: 2 / 3, alpha: 1)
    public static let darkGray = UIColor(white: 1 / 3, alpha: 1)
    public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
    public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
    public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
    public static let yellow = UIColor(red: 1, green: 1, blue: 0, alpha: 1)
    public static let orange = UIColor(red: 1, green: 0.5, blue: 0, alpha: 1)

    public static let label = UIColor(system: "label", 0, 0, 0)
    public static let secondaryLabel = UIColor(system: "secondaryLabel", 60, 60, 67, 0.6)
    public static let tertiaryLabel = UIColor(system: "tertiaryLabel", 60, 60, 67, 0.3)
    public static let quaternaryLabel = UIColor(system: "quaternaryLabel", 60, 60, 67, 0.18)
    public static let placeholderText = UIColor(system: "placeholderText", 60, 60, 67, 0.3)
    public static let link = UIColor(system: "link", 0, 122, 255)
    public static let separator = UIColor(system: "separator", 60, 60, 67, 0.29)
    public static let opaqueSeparator = UIColor(system: "opaqueSeparator", 198, 198, 200)
    public static let systemBackground = UIColor(system: "systemBackground", 255, 255, 255)
    public static let secondarySystemBackground = UIColor(system: "secondarySystemBackground", 242, 242, 247)
    public static let tertiarySystemBackground = UIColor(system: "tertiarySystemBackground", 255, 255, 255)
    public static let systemGroupedBackground = UIColor(system: "systemGroupedBackground", 242, 242, 247)
    public static let secondarySystemGroupedBackground = UIColor(system: "secondarySystemGroupedBackground", 255, 255, 255)
    public static let systemFill = UIColor(system: "systemFill", 120, 120, 128, 0.2)
    public static let secondarySystemFill = UIColor(system: "secondarySystemFill", 120, 120, 128, 0.16)
    public static let systemBlue = UIColor(system: "systemBlue", 0, 122, 255)
    public static let systemRed = UIColor(system: "systemRed", 255, 59, 48)
    public static let systemGreen = UIColor(system: "systemGreen", 52, 199, 89)
    public static let systemOrange = UIColor(system: "systemOrange", 255, 149, 0)
    public static let systemYellow = UIColor(system: "systemYellow", 255, 204, 0)
    public static let systemPink = UIColor(system: "systemPink", 255, 45, 85)
    public static let systemPurple = UIColor(system: "systemPurple", 175, 82, 222)
    public static let systemTeal = UIColor(system: "systemTeal", 48, 176, 199)
    public static let systemIndigo = UIColor(system: "systemIndigo", 88, 86, 214)
    public static let systemGray = UIColor(system: "systemGray", 142, 142, 147)
    public static let systemGray2 = UIColor(system: "systemGray2", 174, 174, 178)
    public static let systemGray3 = UIColor(system: "systemGray3", 199, 199, 204)
    public static let systemGray4 = UIColor(system: "systemGray4", 209, 209, 214)
    public static let systemGray5 = UIColor(system: "systemGray5", 229, 229, 234)
    public static let systemGray6 = UIColor(system: "systemGray6", 242, 242, 247)
    /// The app's tint: `.systemBlue`, as iOS's default.
    public static let tintColor = UIColor(system: "tintColor", 0, 122, 255)
}

/// `#colorLiteral(red:green:blue:alpha:)` makes a `UIColor`, as with UIKit.
extension UIColor: _ExpressibleByColorLiteral {
    public convenience init(_colorLiteralRed red: Float, green: Float, blue: Float, alpha: Float) {
        self.init(red: CGFloat(red), green: CGFloat(green), blue: CGFloat(blue), alpha: CGFloat(alpha))
    }
}

/// `UIImage`: what an image stands for and its size; nothing is decoded or drawn. An
/// image from `UIGraphicsImageRenderer` keeps what its drawing code did (`drawing`).
public final class UIImage: Sendable {
    /// The asset, file or symbol the image stands for, if known.
    public let name: String?
    /// The size in points: a renderer's size; zero for a symbol or a file (nothing is decoded).
    public let size: CGSize
    public let scale: CGFloat
    /// Whether `UIImage(systemName:)` made it.
    public let isSymbolImage: Bool
    public let renderingMode: RenderingMode
    /// The tint `withTintColor(_:)` gave it.
    public let tintColor: UIColor?
    /// What the renderer's drawing code did, in order (GroupSim's own: UIKit paints pixels).
    public let drawing: [UIGraphicsDrawingStep]

    init(name: String?, size: CGSize, scale: CGFloat = 1, isSymbolImage: Bool = false, renderingMode: RenderingMode = .automatic,
         tintColor: UIColor? = nil, drawing: [UIGraphicsDrawingStep] = []) {
        self.name = name
        self.size = size
        self.scale = scale
        self.isSymbolImage = isSymbolImage
        self.renderingMode = renderingMode
        self.tintColor = tintColor
        self.drawing = drawing
    }

    public convenience init() { self.init(name: nil, size: .zero) }

    /// There is no asset catalog here: nil, as UIKit answers for a missing asset.
    public init?(named name: String) { return nil }

    /// There is no asset catalog here: nil, as UIKit answers for a missing asset.
    public init?(named name: String, in bundle: Bundle?, compatibleWith traitCollection: UITraitCollection?) { return nil }

    /// An SF Symbol: the image for any name (GroupSim has no symbol catalog to check it
    /// against), of size zero.
    public convenience init?(systemName name: String) {
        self.init(name: name, size: .zero, isSymbolImage: true)
    }

    public convenience init?(systemName name: String, withConfiguration configuration: SymbolConfiguration?) {
        self.init(systemName: name)
    }

    /// An image for a file that exists; nil otherwise.
    public convenience init?(contentsOfFile path: String) {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        self.init(name: (path as NSString).lastPathComponent, size: .zero)
    }

    private func with(renderingMode: RenderingMode? = nil, tintColor: UIColor? = nil) -> UIImage {
        UIImage(name: name, size: size, scale: scale, isSymbolImage: isSymbolImage, renderingMode: renderingMode ?? self.renderingMode,
                tintColor: tintColor ?? self.tintColor, drawing: drawing)
    }

    public func withRenderingMode(_ renderingMode: RenderingMode) -> UIImage { with(renderingMode: renderingMode) }
    public func withTintColor(_ color: UIColor) -> UIImage { with(tintColor: color) }
    public func withTintColor(_ color: UIColor, renderingMode: RenderingMode) -> UIImage {
        with(renderingMode: renderingMode, tintColor: color)
    }
    public func withConfiguration(_ configuration: SymbolConfiguration) -> UIImage { self }
    public func applyingSymbolConfiguration(_ configuration: SymbolConfiguration) -> UIImage? { self }

    /// Records drawing the image into `rect` in the renderer drawing now.
    public func draw(in rect: CGRect) { UIGraphicsImageRendererContext.current?.record(.image(name, rect)) }
    /// Records drawing the image at `point`, at its own size.
    public func draw(at point: CGPoint) { draw(in: CGRect(origin: point, size: size)) }
    /// Nothing is encoded: there are no pixels.
    public func pngData() -> Data? { nil }
    /// Nothing is encoded: there are no pixels.
    public func jpegData(compressionQuality: CGFloat) -> Data? { nil }

    public enum RenderingMode: Int, Sendable {
        case automatic = 0, alwaysOriginal, alwaysTemplate
    }

    /// `UIImage.SymbolConfiguration`: kept for the compiler; symbols are not drawn.
    public final class SymbolConfiguration: Sendable {
        public let pointSize: CGFloat?
        public let weight: SymbolWeight?
        public let textStyle: UIFont.TextStyle?
        public let scale: SymbolScale?

        init(pointSize: CGFloat? = nil, weight: SymbolWeight? = nil, textStyle: UIFont.TextStyle? = nil, scale: SymbolScale? = nil) {
            self.pointSize = pointSize
            self.weight = weight
            self.textStyle = textStyle
            self.scale = scale
        }

        public convenience init(pointSize: CGFloat) { self.init(pointSize: pointSize, weight: nil) }
        public convenience init(pointSize: CGFloat, weight: SymbolWeight) { self.init(pointSize: pointSize, weight: weight, textStyle: nil) }
        public convenience init(weight: SymbolWeight) { self.init(pointSize: nil, weight: weight) }
        public convenience init(textStyle: UIFont.TextStyle) { self.init(pointSize: nil, weight: nil, textStyle: textStyle) }
        public convenience init(scale: SymbolScale) { self.init(pointSize: nil, weight: nil, textStyle: nil, scale: scale) }
    }

    public enum SymbolWeight: Int, Sendable {
        case unspecified = 0, ultraLight, thin, light, regular, medium, semibold, bold, heavy, black
    }

    public enum SymbolScale: Int, Sendable {
        case `default` = -1, unspecified, small, medium, large
    }
}

/// `UIEdgeInsets`: kept as given; nothing is laid out.
public struct UIEdgeInsets: Equatable, Sendable {
    public var top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat

    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public init() { self.init(top: 0, left: 0, bottom: 0, right: 0) }

    public static let zero = UIEdgeInsets()
}

/// `NSDirectionalEdgeInsets`: insets by leading and trailing edge.
public struct NSDirectionalEdgeInsets: Equatable, Sendable {
    public var top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat

    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    public init() { self.init(top: 0, leading: 0, bottom: 0, trailing: 0) }

    public static let zero = NSDirectionalEdgeInsets()
}

/// `NSDirectionalRectEdge`: the edges of a rectangle by leading and trailing.
public struct NSDirectionalRectEdge: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let top = NSDirectionalRectEdge(rawValue: 1 << 0)
    public static let leading = NSDirectionalRectEdge(rawValue: 1 << 1)
    public static let bottom = NSDirectionalRectEdge(rawValue: 1 << 2)
    public static let trailing = NSDirectionalRectEdge(rawValue: 1 << 3)
    public static let all: NSDirectionalRectEdge = [.top, .leading, .bottom, .trailing]
}

/// `UITraitCollection`: the traits a view is shown with. GroupSim has one device: an
/// iPhone in portrait with the light appearance at the default text size.
public final class UITraitCollection: Sendable {
    public let userInterfaceStyle: UIUserInterfaceStyle
    public let horizontalSizeClass: UIUserInterfaceSizeClass
    public let verticalSizeClass: UIUserInterfaceSizeClass
    public let preferredContentSizeCategory: UIContentSizeCategory
    public let displayScale: CGFloat

    public init(userInterfaceStyle: UIUserInterfaceStyle) {
        self.userInterfaceStyle = userInterfaceStyle
        horizontalSizeClass = .compact
        verticalSizeClass = .regular
        preferredContentSizeCategory = .large
        displayScale = 3
    }

    /// The traits everything here is shown with.
    public static let current = UITraitCollection(userInterfaceStyle: .light)

    public func hasDifferentColorAppearance(comparedTo traitCollection: UITraitCollection?) -> Bool {
        traitCollection?.userInterfaceStyle != userInterfaceStyle
    }
}

public enum UIUserInterfaceStyle: Int, Sendable {
    case unspecified = 0, light, dark
}

public enum UIUserInterfaceSizeClass: Int, Sendable {
    case unspecified = 0, compact, regular
}

/// `UIContentSizeCategory`: the user's text size.
public struct UIContentSizeCategory: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let unspecified = UIContentSizeCategory(rawValue: "_UICTContentSizeCategoryUnspecified")
    public static let small = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryS")
    public static let medium = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryM")
    public static let large = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryL")
    public static let extraLarge = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryXL")
    public static let accessibilityMedium = UIContentSizeCategory(rawValue: "UICTContentSizeCategoryAccessibilityM")

    public var isAccessibilityCategory: Bool { rawValue.contains("Accessibility") }
}
