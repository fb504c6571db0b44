import GroupSimMessages

extension IceCream {
    private enum StickerProperties {
        static let size = CGSize(width: 300, height: 300)
        static let opaquePadding = CGSize(width: 60, height: 10)
    }

    /// The ice cream as a sticker image: its parts, scaled into a 300-point square
    /// (on a pink background when opaque).
    func renderSticker(opaque: Bool) -> UIImage? {
        guard let partsImage = renderParts() else { return nil }
        let scale: CGFloat
        let outputSize: CGSize
        if opaque {
            scale = min((StickerProperties.size.width - StickerProperties.opaquePadding.width) / partsImage.size.height,
                        (StickerProperties.size.height - StickerProperties.opaquePadding.height) / partsImage.size.width)
            outputSize = StickerProperties.size
        } else {
            scale = StickerProperties.size.width / partsImage.size.height
            outputSize = CGSize(width: partsImage.size.width * scale, height: partsImage.size.height * scale)
        }
        let iceCreamSize = CGSize(width: partsImage.size.width * scale, height: partsImage.size.height * scale)
        let renderer = UIGraphicsImageRenderer(size: outputSize)
        return renderer.image { context in
            let backgroundColor: UIColor = opaque ? #colorLiteral(red: 0.98, green: 0.88, blue: 0.92, alpha: 1) : .clear
            backgroundColor.setFill()
            context.fill(CGRect(origin: .zero, size: StickerProperties.size))
            let origin = CGPoint(x: (outputSize.width - iceCreamSize.width) / 2, y: (outputSize.height - iceCreamSize.height) / 2)
            partsImage.draw(in: CGRect(origin: origin, size: iceCreamSize))
        }
    }

    /// The parts' sticker images stacked, topping first.
    private func renderParts() -> UIImage? {
        let parts: [(any IceCreamPart)?] = [topping, scoops, base]
        let images = parts.compactMap { $0?.stickerImage }
        guard !images.isEmpty else { return nil }
        let size = CGSize(width: images.map(\.size.width).max() ?? 0, height: images.reduce(0) { $0 + $1.size.height })
        return UIGraphicsImageRenderer(size: size).image { _ in
            var y: CGFloat = 0
            for image in images {
                image.draw(at: CGPoint(x: (size.width - image.size.width) / 2, y: y))
                y += image.size.height
            }
        }
    }
}

/// Where finished ice creams' stickers are kept; the sample renders them to PNG files.
/// Nothing encodes pixels here, so every ice cream gets the placeholder.
final class IceCreamStickerCache {
    let placeholderSticker: MSSticker?
    private let directory: URL

    init(directory: URL, placeholder: String) {
        self.directory = directory
        placeholderSticker = try? MSSticker(contentsOfFileURL: directory.appendingPathComponent(placeholder),
                                            localizedDescription: NSLocalizedString("An ice cream sticker", comment: ""))
    }

    func sticker(for iceCream: IceCream, completion: (MSSticker?) -> Void) {
        let fileURL = directory.appendingPathComponent(iceCream.queryItems.compactMap(\.value).joined() + ".png")
        guard let data = iceCream.renderSticker(opaque: false)?.pngData(), (try? data.write(to: fileURL, options: [.atomic])) != nil else {
            completion(placeholderSticker)
            return
        }
        completion(try? MSSticker(contentsOfFileURL: fileURL, localizedDescription: NSLocalizedString("Ice Cream", comment: "")))
    }
}
