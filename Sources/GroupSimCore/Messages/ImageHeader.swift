/// The format and pixel size of an image, read from its bytes without an image library.
///
/// Used to check sticker files (M28): a sticker is PNG, APNG, GIF or JPEG, 300 to 618
/// pixels square. `read(_:)` walks the file's structure to its end marker (PNG `IEND`,
/// GIF trailer, JPEG `EOI`), so a file cut short is rejected rather than half-read.
package struct ImageHeader: Sendable, Hashable {
    /// The image formats a sticker may use (M28).
    package enum Format: String, Sendable, CaseIterable {
        case png
        /// Animated PNG: a PNG with an `acTL` chunk before its first `IDAT`.
        case apng
        case gif
        case jpeg
    }

    package var format: Format
    /// Width in pixels, always at least 1.
    package var width: Int
    /// Height in pixels, always at least 1.
    package var height: Int
    /// More than one frame: an APNG whose `acTL` counts more than one frame, or a GIF
    /// with more than one image. PNG and JPEG are never animated (M28).
    package var isAnimated: Bool

    package init(format: Format, width: Int, height: Int, isAnimated: Bool) {
        self.format = format
        self.width = width
        self.height = height
        self.isAnimated = isAnimated
    }

    /// Reads the format and pixel size of a PNG, APNG, GIF or JPEG file's bytes.
    ///
    /// Returns nil for any other content, and for truncated or malformed files: the
    /// structure is walked, with bounds checks, up to the format's end marker. Bytes after
    /// the end marker are ignored. CRCs and compressed data are not checked.
    /// Complexity: O(n) in the number of bytes; never traps, always terminates.
    package static func read(_ bytes: [UInt8]) -> ImageHeader? {
        if bytes.starts(with: pngSignature) { return readPNG(bytes) }
        if bytes.starts(with: gif87aSignature) || bytes.starts(with: gif89aSignature) {
            return readGIF(bytes)
        }
        if bytes.starts(with: jpegStartOfImage) { return readJPEG(bytes) }
        return nil
    }
}

// MARK: - PNG and APNG

extension ImageHeader {
    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let ihdr: UInt32 = 0x4948_4452  // "IHDR"
    private static let acTL: UInt32 = 0x6163_544C  // "acTL"
    private static let idat: UInt32 = 0x4944_4154  // "IDAT"
    private static let iend: UInt32 = 0x4945_4E44  // "IEND"
    /// PNG lengths and dimensions are at most 2^31 - 1.
    private static let pngMaximum = Int(Int32.max)

    /// Walks the chunks: `IHDR` first, an `acTL` before the first `IDAT` makes it an APNG,
    /// at least one `IDAT`, and `IEND` last. Every chunk (length, type, data, CRC) must fit.
    private static func readPNG(_ bytes: [UInt8]) -> ImageHeader? {
        var offset = pngSignature.count
        var size: (width: Int, height: Int)?
        var frameCount: Int?
        var sawImageData = false

        while true {
            guard let length = bigEndian32(bytes, at: offset), length <= pngMaximum,
                  let type = bigEndianUInt32(bytes, at: offset + 4),
                  length <= bytes.count - offset - 12
            else { return nil }
            let data = offset + 8
            offset = data + length + 4

            if size == nil {
                guard type == ihdr, length == 13,
                      let width = bigEndian32(bytes, at: data), (1...pngMaximum).contains(width),
                      let height = bigEndian32(bytes, at: data + 4), (1...pngMaximum).contains(height)
                else { return nil }
                size = (width, height)
                continue
            }

            switch type {
            case acTL where !sawImageData && frameCount == nil:
                guard length == 8, let frames = bigEndian32(bytes, at: data), frames >= 1 else { return nil }
                frameCount = frames
            case idat:
                sawImageData = true
            case iend:
                guard sawImageData, let size else { return nil }
                return ImageHeader(
                    format: frameCount == nil ? .png : .apng,
                    width: size.width,
                    height: size.height,
                    isAnimated: (frameCount ?? 1) > 1
                )
            case ihdr:
                return nil
            default:
                break
            }
        }
    }
}

// MARK: - GIF

extension ImageHeader {
    private static let gif87aSignature = Array("GIF87a".utf8)
    private static let gif89aSignature = Array("GIF89a".utf8)

    /// Reads the logical screen size, then walks the blocks (extensions, image descriptors
    /// with their color tables and data sub-blocks) to the trailer, counting images.
    private static func readGIF(_ bytes: [UInt8]) -> ImageHeader? {
        guard let width = littleEndian16(bytes, at: 6), width >= 1,
              let height = littleEndian16(bytes, at: 8), height >= 1,
              bytes.count > 10
        else { return nil }
        var offset = 13 + colorTableSize(packedFields: bytes[10])
        var imageCount = 0

        while offset < bytes.count {
            switch bytes[offset] {
            case 0x3B:  // trailer
                guard imageCount >= 1 else { return nil }
                return ImageHeader(format: .gif, width: width, height: height, isAnimated: imageCount > 1)
            case 0x21:  // extension: introducer, label, data sub-blocks
                guard let next = skipSubBlocks(bytes, from: offset + 2) else { return nil }
                offset = next
            case 0x2C:  // image descriptor: 10 bytes, color table, LZW code size, sub-blocks
                guard bytes.count - offset >= 10 else { return nil }
                let start = offset + 10 + colorTableSize(packedFields: bytes[offset + 9]) + 1
                guard let next = skipSubBlocks(bytes, from: start) else { return nil }
                offset = next
                imageCount += 1
            default:
                return nil
            }
        }
        return nil
    }

    /// The byte length of the global or local color table that `packedFields` announces.
    private static func colorTableSize(packedFields: UInt8) -> Int {
        guard packedFields & 0x80 != 0 else { return 0 }
        return 3 << (Int(packedFields & 0x07) + 1)
    }

    /// The offset just past the zero-length block that ends a run of data sub-blocks.
    private static func skipSubBlocks(_ bytes: [UInt8], from start: Int) -> Int? {
        var offset = start
        while offset < bytes.count {
            let length = Int(bytes[offset])
            offset += 1
            if length == 0 { return offset }
            offset += length
        }
        return nil
    }
}

// MARK: - JPEG

extension ImageHeader {
    private static let jpegStartOfImage: [UInt8] = [0xFF, 0xD8]

    /// Walks the markers after SOI: standalone markers (TEM, RST0-7, SOI) have no length,
    /// fill bytes (0xFF) may precede any marker, each scan's entropy-coded data is skipped,
    /// and EOI ends the file. The first SOFn gives the size; a scan before it is malformed.
    private static func readJPEG(_ bytes: [UInt8]) -> ImageHeader? {
        var offset = jpegStartOfImage.count
        var size: (width: Int, height: Int)?

        while true {
            guard offset < bytes.count, bytes[offset] == 0xFF else { return nil }
            while offset < bytes.count, bytes[offset] == 0xFF { offset += 1 }
            guard offset < bytes.count else { return nil }
            let marker = bytes[offset]
            offset += 1

            switch marker {
            case 0xD9:  // EOI
                guard let size else { return nil }
                return ImageHeader(format: .jpeg, width: size.width, height: size.height, isAnimated: false)
            case 0x01, 0xD0...0xD8:  // TEM, RST0-7, SOI: no length, no data
                continue
            case 0x00:  // a stuffed zero belongs inside entropy-coded data only
                return nil
            default:
                guard let length = bigEndian16(bytes, at: offset), length >= 2,
                      length <= bytes.count - offset
                else { return nil }
                let segment = offset + 2
                offset += length

                if isStartOfFrame(marker) {
                    guard size == nil else { continue }
                    guard length >= 8,
                          let height = bigEndian16(bytes, at: segment + 1), height >= 1,
                          let width = bigEndian16(bytes, at: segment + 3), width >= 1,
                          bytes[segment + 5] >= 1, length == 8 + 3 * Int(bytes[segment + 5])
                    else { return nil }
                    size = (width, height)
                } else if marker == 0xDA {  // SOS, then entropy-coded data
                    guard size != nil, let next = endOfEntropyCodedData(bytes, from: offset) else { return nil }
                    offset = next
                }
            }
        }
    }

    /// SOF0-3, SOF5-7, SOF9-11 and SOF13-15; not DHT (C4), JPG (C8) or DAC (CC).
    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        switch marker {
        case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF: true
        default: false
        }
    }

    /// The offset of the 0xFF that starts the next marker after a scan's data, skipping
    /// stuffed zeros (FF 00), restart markers (FF D0-D7) and fill bytes.
    private static func endOfEntropyCodedData(_ bytes: [UInt8], from start: Int) -> Int? {
        var offset = start
        while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else {
                offset += 1
                continue
            }
            switch bytes[offset + 1] {
            case 0x00, 0xD0...0xD7: offset += 2
            case 0xFF: offset += 1
            default: return offset
            }
        }
        return nil
    }
}

// MARK: - Bounds-checked reads

extension ImageHeader {
    private static func bigEndian16(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    private static func littleEndian16(_ bytes: [UInt8], at offset: Int) -> Int? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        return Int(bytes[offset]) | Int(bytes[offset + 1]) << 8
    }

    private static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> Int? {
        bigEndianUInt32(bytes, at: offset).flatMap { Int(exactly: $0) }
    }

    /// Four bytes as one big-endian number: a PNG chunk type, length or dimension.
    private static func bigEndianUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
