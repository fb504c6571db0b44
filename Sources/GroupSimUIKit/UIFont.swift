import Foundation

/// `UIFont`: a font's name, size and weight, and the text style it was asked for;
/// nothing is drawn. `preferredFont(forTextStyle:)` answers iOS's sizes at the default
/// text size (body 17, headline 17 semibold, footnote 13...).
public final class UIFont: Sendable, Equatable, CustomStringConvertible {
    public let fontName: String
    public let pointSize: CGFloat
    /// The weight `systemFont(ofSize:weight:)` was given (`.regular` otherwise); GroupSim's own.
    public let weight: Weight
    /// The text style `preferredFont(forTextStyle:)` was given; GroupSim's own, for a test
    /// that checks the app follows the user's text size.
    public let textStyle: TextStyle?

    init(fontName name: String, size: CGFloat, weight: Weight = .regular, textStyle: TextStyle? = nil) {
        fontName = name
        pointSize = size
        self.weight = weight
        self.textStyle = textStyle
    }

    /// A font by name: any name is taken (there are no font files to check).
    public convenience init?(name fontName: String, size fontSize: CGFloat) {
        self.init(fontName: fontName, size: fontSize)
    }

    public var familyName: String { fontName.components(separatedBy: "-").first ?? fontName }
    public var lineHeight: CGFloat { (pointSize * 1.2).rounded() }
    public var description: String { "\(fontName) \(pointSize)pt" }

    public static func == (lhs: UIFont, rhs: UIFont) -> Bool {
        lhs.fontName == rhs.fontName && lhs.pointSize == rhs.pointSize && lhs.weight == rhs.weight && lhs.textStyle == rhs.textStyle
    }

    public func withSize(_ fontSize: CGFloat) -> UIFont { UIFont(fontName: fontName, size: fontSize, weight: weight, textStyle: textStyle) }

    public static var systemFontSize: CGFloat { 17 }
    public static var smallSystemFontSize: CGFloat { 12 }
    public static var labelFontSize: CGFloat { 17 }
    public static var buttonFontSize: CGFloat { 18 }

    public static func systemFont(ofSize fontSize: CGFloat) -> UIFont { systemFont(ofSize: fontSize, weight: .regular) }

    public static func systemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(fontName: weight == .regular ? ".SFUI-Regular" : ".SFUI-\(weight.name)", size: fontSize, weight: weight)
    }

    public static func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont { systemFont(ofSize: fontSize, weight: .bold) }
    public static func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont { UIFont(fontName: ".SFUI-RegularItalic", size: fontSize) }
    public static func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        systemFont(ofSize: fontSize, weight: weight)
    }
    public static func monospacedSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(fontName: ".SFMono-\(weight.name)", size: fontSize, weight: weight)
    }

    /// The font for `style` at the default text size (`.large`), as iOS answers it.
    public static func preferredFont(forTextStyle style: TextStyle) -> UIFont {
        let (size, weight) = style.defaultSizeAndWeight
        return UIFont(fontName: ".SFUI-\(weight.name)", size: size, weight: weight, textStyle: style)
    }

    public static func preferredFont(forTextStyle style: TextStyle, compatibleWith traitCollection: UITraitCollection?) -> UIFont {
        preferredFont(forTextStyle: style)
    }

    /// `UIFont.TextStyle`: a Dynamic Type style.
    public struct TextStyle: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let largeTitle = TextStyle(rawValue: "UICTFontTextStyleTitle0")
        public static let title1 = TextStyle(rawValue: "UICTFontTextStyleTitle1")
        public static let title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2")
        public static let title3 = TextStyle(rawValue: "UICTFontTextStyleTitle3")
        public static let headline = TextStyle(rawValue: "UICTFontTextStyleHeadline")
        public static let subheadline = TextStyle(rawValue: "UICTFontTextStyleSubhead")
        public static let body = TextStyle(rawValue: "UICTFontTextStyleBody")
        public static let callout = TextStyle(rawValue: "UICTFontTextStyleCallout")
        public static let footnote = TextStyle(rawValue: "UICTFontTextStyleFootnote")
        public static let caption1 = TextStyle(rawValue: "UICTFontTextStyleCaption1")
        public static let caption2 = TextStyle(rawValue: "UICTFontTextStyleCaption2")

        /// iOS's size and weight for the style at the default text size.
        var defaultSizeAndWeight: (CGFloat, Weight) {
            let sizes: [TextStyle: CGFloat] = [.largeTitle: 34, .title1: 28, .title2: 22, .title3: 20, .headline: 17, .subheadline: 15,
                                               .body: 17, .callout: 16, .footnote: 13, .caption1: 12, .caption2: 11]
            return (sizes[self] ?? 17, self == .headline ? .semibold : .regular)
        }
    }

    /// `UIFont.Weight`: iOS's weights, by their raw values.
    public struct Weight: RawRepresentable, Hashable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }

        public static let ultraLight = Weight(-0.8)
        public static let thin = Weight(-0.6)
        public static let light = Weight(-0.4)
        public static let regular = Weight(0)
        public static let medium = Weight(0.23)
        public static let semibold = Weight(0.3)
        public static let bold = Weight(0.4)
        public static let heavy = Weight(0.56)
        public static let black = Weight(0.62)

        var name: String {
            let names: [Weight: String] = [.ultraLight: "Ultralight", .thin: "Thin", .light: "Light", .regular: "Regular", .medium: "Medium",
                                            .semibold: "Semibold", .bold: "Bold", .heavy: "Heavy", .black: "Black"]
            return names[self] ?? "Regular"
        }
    }
}

/// `UIFontMetrics`: scales fonts and values for the user's text size; the size here is
/// the default, so they come back as given.
public struct UIFontMetrics: Sendable {
    public let textStyle: UIFont.TextStyle

    public init(forTextStyle textStyle: UIFont.TextStyle) { self.textStyle = textStyle }

    public static let `default` = UIFontMetrics(forTextStyle: .body)

    public func scaledFont(for font: UIFont) -> UIFont { font }
    public func scaledFont(for font: UIFont, maximumPointSize: CGFloat) -> UIFont { font.withSize(min(font.pointSize, maximumPointSize)) }
    public func scaledValue(for value: CGFloat) -> CGFloat { value }
}

/// `NSTextAlignment`, with UIKit's raw values.
public enum NSTextAlignment: Int, Sendable {
    case left = 0, center = 1, right = 2, justified = 3, natural = 4
}

/// `NSLineBreakMode`, with UIKit's raw values.
public enum NSLineBreakMode: Int, Sendable {
    case byWordWrapping = 0, byCharWrapping, byClipping, byTruncatingHead, byTruncatingTail, byTruncatingMiddle
}
