import Foundation
import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// `MSSticker`: an image file sent as a sticker, validated when it is made (M28, M29).
open class MSSticker {
    /// The sticker's file.
    open private(set) var imageFileURL: URL
    /// What VoiceOver reads; at most 150 characters (M28).
    open private(set) var localizedDescription: String

    let sticker: Sticker

    /// Reads and validates the file: a local PNG, APNG, GIF or JPEG under 500 KB, 300 to
    /// 618 pixels square (M28). Throws an `NSError` in `MSMessagesErrorDomain` whose code
    /// is the `MSMessageErrorCode` (M29): `improperFileURL` for a URL that is not a local
    /// file, `fileNotFound`, `stickerFileImproperFileSize`, `stickerFileImproperFileFormat`...
    public init(contentsOfFileURL fileURL: URL, localizedDescription: String) throws {
        switch Sticker.load(fileURL: fileURL, description: localizedDescription) {
        case .success(let sticker):
            self.sticker = sticker
        case .failure(let code):
            throw MSMessageErrorCode(code).error
        }
        imageFileURL = fileURL
        self.localizedDescription = localizedDescription
    }
}

/// `MSStickerView`: shows a sticker and whether it animates; nothing is drawn or peeled
/// off. Its intrinsic size is the sticker's, in pixels (GroupSim has no screen scale).
@MainActor
open class MSStickerView: UIView {
    /// The sticker shown.
    open var sticker: MSSticker?
    private var animating = false

    public init(frame: CGRect, sticker: MSSticker?) {
        self.sticker = sticker
        super.init(frame: frame)
    }

    public override convenience init(frame: CGRect) {
        self.init(frame: frame, sticker: nil)
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    /// One pass of the animation: zero, as nothing is decoded.
    open var animationDuration: TimeInterval { 0 }

    open func startAnimating() { animating = sticker != nil }
    open func stopAnimating() { animating = false }
    open func isAnimating() -> Bool { animating }

    open override var intrinsicContentSize: CGSize {
        guard let sticker else { return super.intrinsicContentSize }
        return CGSize(width: sticker.sticker.width, height: sticker.sticker.height)
    }
}
