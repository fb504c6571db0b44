import Foundation

/// A sticker that passed the Messages checks: its image format, file size, pixel size,
/// animation and accessibility description (M28).
///
/// Only the two factories make one, so every `Sticker` satisfies M28:
/// - `described(format:bytes:width:height:isAnimated:description:)` checks a sticker that
///   a scenario file describes in words;
/// - `load(fileURL:description:)` reads a real file and checks what it finds.
///
/// Both return the `MessageErrorCode` Messages would report on failure (M29). Where M29
/// leaves the choice open, GroupSim maps as each factory documents.
public struct Sticker: Sendable, Hashable {
    /// The size a sticker browser draws its stickers at (M28); `regular` is the default.
    public enum Size: String, Sendable, CaseIterable {
        /// 100 points: 300 pixels at @3x.
        case small
        /// 136 points: 408 pixels at @3x. The default.
        case regular
        /// 206 points: 618 pixels at @3x.
        case large

        /// The size a browser uses when none is chosen (M28).
        public static let `default`: Size = .regular

        /// The side of the square, in points.
        public var points: Int {
            switch self {
            case .small: 100
            case .regular: 136
            case .large: 206
            }
        }

        /// The side of the square, in pixels at @3x.
        public var pixels: Int { points * Sticker.scale }
    }

    /// The size limit in bytes: a sticker must be less than 500 KB, read as
    /// 500 × 1,024 = 512,000 bytes. A file of this size or more fails with
    /// `stickerFileImproperFileSize` (6) (M28, M29).
    public static let fileSizeLimit = 500 * 1024

    /// The largest file size accepted, in bytes: one less than `fileSizeLimit` (511,999).
    public static let maximumFileSize = fileSizeLimit - 1

    /// The accepted side of the square, in pixels at @3x: 100 to 206 points (M28).
    public static let pixelRange = 300...618

    /// Pixels per point: sticker files are drawn at @3x (M28).
    public static let scale = 3

    /// The longest accessibility description accepted, in characters (grapheme
    /// clusters, as `String.count` counts them) (M28).
    public static let maximumDescriptionLength = 150

    /// The accessibility description VoiceOver reads, at most 150 characters (M28).
    public let stickerDescription: String
    /// What the content is; for a loaded file, what its bytes are, whatever its name says.
    package let format: ImageHeader.Format
    /// The file size in bytes, less than `fileSizeLimit`.
    public let bytes: Int
    /// Width in pixels at @3x; equal to `height`.
    public let width: Int
    /// Height in pixels at @3x; equal to `width`.
    public let height: Int
    /// More than one frame; only an APNG or a GIF can be animated (M28).
    public let isAnimated: Bool

    private init(
        stickerDescription: String,
        format: ImageHeader.Format,
        bytes: Int,
        width: Int,
        height: Int,
        isAnimated: Bool
    ) {
        self.stickerDescription = stickerDescription
        self.format = format
        self.bytes = bytes
        self.width = width
        self.height = height
        self.isAnimated = isAnimated
    }

    /// The side of the square in pixels at @3x, within `pixelRange`.
    public var pixels: Int { width }

    /// The side of the square in points, 100 to 206 (M28).
    public var points: Int { Self.points(forPixels: pixels) }

    /// The points that `pixels` at @3x cover, rounded down: 300 gives 100, 618 gives 206.
    public static func points(forPixels pixels: Int) -> Int { pixels / scale }
}

// MARK: - A sticker described in a scenario file

extension Sticker {
    /// Checks a sticker that a scenario file describes rather than supplies (M28, M29).
    ///
    /// Checks run in this order and the first failure wins:
    /// 1. `format` is not `png`, `apng`, `gif`, `jpeg` or `jpg` (any case):
    ///    `stickerFileImproperFileFormat` (7), the code for a format other than PNG, APNG,
    ///    GIF or JPEG, as for a file whose content is none of them (see `load`).
    /// 2. `isAnimated` for a PNG or JPEG: `stickerFileImproperFileFormat` (7), since
    ///    animated stickers are APNG or GIF (M28).
    /// 3. `bytes` negative: `stickerFileImproperFileAttributes` (5).
    /// 4. `bytes` of `fileSizeLimit` (500 × 1,024 = 512,000) or more: `stickerFileImproperFileSize` (6).
    /// 5. Not square, or a side outside 300...618: `stickerFileImproperFileFormat` (7).
    /// 6. `description` over 150 characters: `stickerFileImproperFileAttributes` (5).
    ///    Apple does not say which code this gets; the description is an attribute of the
    ///    sticker, so GroupSim chose 5.
    public static func described(
        format: String,
        bytes: Int,
        width: Int,
        height: Int,
        isAnimated: Bool = false,
        description: String
    ) -> Result<Sticker, MessageErrorCode> {
        guard let imageFormat = imageFormat(named: format) else {
            return .failure(.stickerFileImproperFileFormat)
        }
        guard !isAnimated || imageFormat == .apng || imageFormat == .gif else {
            return .failure(.stickerFileImproperFileFormat)
        }
        guard bytes >= 0 else { return .failure(.stickerFileImproperFileAttributes) }
        return validated(
            format: imageFormat,
            bytes: bytes,
            width: width,
            height: height,
            isAnimated: isAnimated,
            description: description
        )
    }

    /// Checks a described square sticker of `pixels` × `pixels`; see
    /// `described(format:bytes:width:height:isAnimated:description:)` (M28, M29).
    public static func described(
        format: String,
        bytes: Int,
        pixels: Int,
        isAnimated: Bool = false,
        description: String
    ) -> Result<Sticker, MessageErrorCode> {
        described(
            format: format,
            bytes: bytes,
            width: pixels,
            height: pixels,
            isAnimated: isAnimated,
            description: description
        )
    }

    /// The format a scenario names: the `ImageHeader.Format` raw values, plus `jpg`.
    private static func imageFormat(named name: String) -> ImageHeader.Format? {
        let lowercased = name.lowercased()
        return lowercased == "jpg" ? .jpeg : ImageHeader.Format(rawValue: lowercased)
    }
}

// MARK: - A sticker read from a file

extension Sticker {
    /// Reads and checks a sticker file (M28, M29).
    ///
    /// Checks run in this order and the first failure wins:
    /// 1. Not a file URL (an `http` URL, say): `improperFileURL` (4).
    /// 2. Nothing at the path, or a symbolic link to nothing: `fileNotFound` (1).
    /// 3. A directory: `fileUnreadable` (2).
    /// 4. Neither a regular file nor a directory (a FIFO, socket or device):
    ///    `improperFileType` (3). Such a file is opened without blocking and never read,
    ///    so a FIFO cannot hang the run.
    /// 5. No read permission, or the read fails: `fileUnreadable` (2).
    /// 6. `fileSizeLimit` (500 × 1,024 = 512,000) bytes or more: `stickerFileImproperFileSize`
    ///    (6). At most that many bytes are ever read, whatever size the file reports, so
    ///    `/proc/self/pagemap` (which reports 0) fails at once instead of filling memory.
    /// 7. Content that `ImageHeader.read` does not recognize as a whole PNG, APNG, GIF or
    ///    JPEG: `stickerFileImproperFileFormat` (7).
    /// 8. Not square, or a side outside 300...618 pixels: `stickerFileImproperFileFormat` (7).
    /// 9. `description` over 150 characters: `stickerFileImproperFileAttributes` (5), as
    ///    in `described`.
    ///
    /// The content decides the format: a GIF named `cat.png` loads as a GIF, and a file
    /// with an image extension but other content fails with 7. Symbolic links are followed.
    public static func load(fileURL: URL, description: String) -> Result<Sticker, MessageErrorCode> {
        guard fileURL.isFileURL else { return .failure(.improperFileURL) }
        let contents: [UInt8]
        switch BoundedFile.read(fileURL.path, limit: maximumFileSize) {
        case .success(let bytes): contents = bytes
        case .failure(.notFound): return .failure(.fileNotFound)
        case .failure(.notAFile(.directory)): return .failure(.fileUnreadable)
        case .failure(.notAFile): return .failure(.improperFileType)
        case .failure(.unreadable): return .failure(.fileUnreadable)
        case .failure(.tooLarge): return .failure(.stickerFileImproperFileSize)
        }
        guard let header = ImageHeader.read(contents) else {
            return .failure(.stickerFileImproperFileFormat)
        }
        return validated(
            format: header.format,
            bytes: contents.count,
            width: header.width,
            height: header.height,
            isAnimated: header.isAnimated,
            description: description
        )
    }

    /// Reads and checks the sticker file at `path`; see `load(fileURL:description:)`.
    /// A relative path is taken from the current directory, so a caller resolves paths
    /// relative to a scenario file first.
    public static func load(path: String, description: String) -> Result<Sticker, MessageErrorCode> {
        load(fileURL: URL(fileURLWithPath: path), description: description)
    }
}

// MARK: - Checks both factories share

extension Sticker {
    /// File size (6), pixel size (7), then description (5), in that order (M28, M29).
    private static func validated(
        format: ImageHeader.Format,
        bytes: Int,
        width: Int,
        height: Int,
        isAnimated: Bool,
        description: String
    ) -> Result<Sticker, MessageErrorCode> {
        guard bytes <= maximumFileSize else { return .failure(.stickerFileImproperFileSize) }
        guard width == height, pixelRange.contains(width) else {
            return .failure(.stickerFileImproperFileFormat)
        }
        guard description.count <= maximumDescriptionLength else {
            return .failure(.stickerFileImproperFileAttributes)
        }
        return .success(Sticker(
            stickerDescription: description,
            format: format,
            bytes: bytes,
            width: width,
            height: height,
            isAnimated: isAnimated
        ))
    }
}

