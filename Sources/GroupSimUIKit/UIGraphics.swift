import Foundation

/// One call that would have drawn, as `UIGraphicsImageRenderer` recorded it (GroupSim's
/// own: UIKit paints pixels instead).
public enum UIGraphicsDrawingStep: Equatable, Sendable {
    /// `fill(_:)` or `UIRectFill`: the rectangle and the fill color set then (nil: none).
    case fill(CGRect, UIColor?)
    /// `stroke(_:)` or `UIRectFrame`: the rectangle and the stroke color set then.
    case stroke(CGRect, UIColor?)
    /// `UIImage.draw(in:)` or `draw(at:)`: the image's name and where it went.
    case image(String?, CGRect)
}

/// `UIGraphicsImageRendererFormat`: the scale and opacity of the images a renderer makes.
public final class UIGraphicsImageRendererFormat: @unchecked Sendable {
    /// Pixels per point: 1 here (there is no screen), unless you set it.
    public var scale: CGFloat = 1
    public var opaque = false

    public init() {}

    public static func `default`() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
    public static func preferred() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
}

/// `UIGraphicsImageRenderer`: runs your drawing code and makes an image of the size
/// given. Nothing is painted: the image keeps what the code drew (`UIImage.drawing`),
/// so a test can check the size and the calls.
public final class UIGraphicsImageRenderer: Sendable {
    public let format: UIGraphicsImageRendererFormat
    public let bounds: CGRect

    public init(bounds: CGRect, format: UIGraphicsImageRendererFormat) {
        self.bounds = bounds
        self.format = format
    }

    public convenience init(bounds: CGRect) { self.init(bounds: bounds, format: .default()) }
    public convenience init(size: CGSize) { self.init(size: size, format: .default()) }
    public convenience init(size: CGSize, format: UIGraphicsImageRendererFormat) {
        self.init(bounds: CGRect(origin: .zero, size: size), format: format)
    }

    /// Runs `actions` with a context that is the current one meanwhile (`UIColor.setFill()`,
    /// `UIRectFill` and `UIImage.draw` record into it), and returns the image.
    public func image(actions: (UIGraphicsImageRendererContext) -> Void) -> UIImage {
        let context = UIGraphicsImageRendererContext(format: format, size: bounds.size)
        UIGraphicsImageRendererContext.$current.withValue(context) { actions(context) }
        return context.currentImage
    }

    /// Runs `actions`; there are no pixels to encode, so the data is empty.
    public func pngData(actions: (UIGraphicsImageRendererContext) -> Void) -> Data {
        _ = image(actions: actions)
        return Data()
    }
}

/// `UIGraphicsImageRendererContext`: where a renderer's drawing code draws; it records.
public final class UIGraphicsImageRendererContext: @unchecked Sendable {
    /// The renderer context drawing now on this thread, if any.
    @TaskLocal static var current: UIGraphicsImageRendererContext?

    public let format: UIGraphicsImageRendererFormat
    private let size: CGSize
    private let lock = NSLock()
    private var steps: [UIGraphicsDrawingStep] = []
    private var fillColor: UIColor?
    private var strokeColor: UIColor?

    init(format: UIGraphicsImageRendererFormat, size: CGSize) {
        self.format = format
        self.size = size
    }

    /// The image as drawn so far.
    public var currentImage: UIImage {
        lock.withLock { UIImage(name: nil, size: size, scale: format.scale, drawing: steps) }
    }

    /// Fills `rect` with the fill color set last.
    public func fill(_ rect: CGRect) { lock.withLock { steps.append(.fill(rect, fillColor)) } }
    /// Strokes the outline of `rect` with the stroke color set last.
    public func stroke(_ rect: CGRect) { lock.withLock { steps.append(.stroke(rect, strokeColor)) } }
    public func clip(to rect: CGRect) {}

    func setFillColor(_ color: UIColor) { lock.withLock { fillColor = color } }
    func setStrokeColor(_ color: UIColor) { lock.withLock { strokeColor = color } }
    func record(_ step: UIGraphicsDrawingStep) { lock.withLock { steps.append(step) } }
}

/// Fills `rect` with the fill color set last, in the renderer drawing now.
public func UIRectFill(_ rect: CGRect) { UIGraphicsImageRendererContext.current?.fill(rect) }
/// Strokes the outline of `rect`, in the renderer drawing now.
public func UIRectFrame(_ rect: CGRect) { UIGraphicsImageRendererContext.current?.stroke(rect) }
