import Foundation

/// `UIColor`: a color a view keeps; nothing paints it.
public final class UIColor: Sendable, Equatable {
    public let red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    public static func == (lhs: UIColor, rhs: UIColor) -> Bool {
        (lhs.red, lhs.green, lhs.blue, lhs.alpha) == (rhs.red, rhs.green, rhs.blue, rhs.alpha)
    }

    public static let clear = UIColor(white: 0, alpha: 0)
    public static let white = UIColor(white: 1, alpha: 1)
    public static let black = UIColor(white: 0, alpha: 1)
    public static let gray = UIColor(white: 0.5, alpha: 1)
    public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
    public static let systemBackground = UIColor(white: 1, alpha: 1)
    public static let label = UIColor(white: 0, alpha: 1)
}

/// `UIImage`: an image file's name; nothing is decoded or drawn.
public final class UIImage: Sendable {
    /// The asset or file the image stands for, if known.
    public let name: String?

    public init() { name = nil }

    /// There is no asset catalog here: nil, as UIKit answers for a missing asset.
    public init?(named name: String) { return nil }

    /// An image for a file that exists; nil otherwise.
    public init?(contentsOfFile path: String) {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        name = (path as NSString).lastPathComponent
    }
}
