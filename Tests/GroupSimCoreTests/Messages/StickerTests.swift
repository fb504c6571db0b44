import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimCore
import GroupSimTesting

/// Sticker files and their checks: formats, sizes and descriptions (M28), and the error
/// code each failure reports (M29).
@Suite struct StickerTests {
    // MARK: - ImageHeader: each format's size (M28)

    @Test("M28: a PNG's size comes from IHDR")
    func readsPNG() {
        let header = ImageHeader.read(ImageBytes.png(width: 408, height: 300))
        #expect(header == ImageHeader(format: .png, width: 408, height: 300, isAnimated: false))
    }

    @Test("M28: acTL before the first IDAT makes an APNG; its frame count decides animation")
    func readsAPNG() {
        let animated = ImageHeader.read(ImageBytes.png(width: 618, height: 618, frames: 12))
        #expect(animated == ImageHeader(format: .apng, width: 618, height: 618, isAnimated: true))
        let still = ImageHeader.read(ImageBytes.png(width: 300, height: 300, frames: 1))
        #expect(still == ImageHeader(format: .apng, width: 300, height: 300, isAnimated: false))
    }

    @Test("M28: acTL after the first IDAT does not make an APNG")
    func ignoresLateAnimationControl() {
        let bytes = ImageBytes.pngSignature
            + ImageBytes.chunk("IHDR", ImageBytes.bigEndian32(400) + ImageBytes.bigEndian32(400) + [8, 6, 0, 0, 0])
            + ImageBytes.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00])
            + ImageBytes.chunk("acTL", ImageBytes.bigEndian32(5) + ImageBytes.bigEndian32(0))
            + ImageBytes.chunk("IEND", [])
        #expect(ImageHeader.read(bytes) == ImageHeader(format: .png, width: 400, height: 400, isAnimated: false))
    }

    @Test("M28: a GIF's size comes from its logical screen, little-endian", arguments: [
        (frames: 1, animated: false),
        (frames: 2, animated: true),
        (frames: 5, animated: true),
    ])
    func readsGIF(frames: Int, animated: Bool) {
        let header = ImageHeader.read(ImageBytes.gif(width: 0x0201, height: 0x0130, frames: frames))
        #expect(header == ImageHeader(format: .gif, width: 0x0201, height: 0x0130, isAnimated: animated))
    }

    @Test("M28: GIF87a is read as well as GIF89a")
    func readsGIF87a() {
        var bytes = ImageBytes.gif(width: 320, height: 320, frames: 1)
        bytes.replaceSubrange(0..<6, with: Array("GIF87a".utf8))
        #expect(ImageHeader.read(bytes) == ImageHeader(format: .gif, width: 320, height: 320, isAnimated: false))
    }

    @Test("M28: a JPEG's size comes from the first SOFn, after APP0", arguments: [false, true])
    func readsJPEG(padded: Bool) {
        let header = ImageHeader.read(ImageBytes.jpeg(width: 0x0234, height: 0x0123, padded: padded))
        #expect(header == ImageHeader(format: .jpeg, width: 0x0234, height: 0x0123, isAnimated: false))
    }

    @Test("M28: every start-of-frame marker gives the size; DHT, JPG and DAC do not", arguments: Array(UInt8(0xC0)...0xCF))
    func readsEveryStartOfFrame(marker: UInt8) {
        let bytes = ImageBytes.jpeg(width: 500, height: 500, frameMarker: marker)
        let isFrame = ![0xC4, 0xC8, 0xCC].contains(marker)
        #expect((ImageHeader.read(bytes) != nil) == isFrame)
    }

    @Test("M28: every strict prefix of a valid image is truncated and reads as nil", arguments: ImageBytes.samples)
    func rejectsEveryTruncation(sample: ImageBytes.Sample) {
        #expect(ImageHeader.read(sample.bytes) != nil)
        for length in 0..<sample.bytes.count {
            #expect(ImageHeader.read(Array(sample.bytes.prefix(length))) == nil, "prefix of \(length) bytes")
        }
    }

    @Test("M28: malformed headers read as nil", arguments: ImageBytes.malformed)
    func rejectsMalformed(sample: ImageBytes.Sample) {
        #expect(ImageHeader.read(sample.bytes) == nil)
    }

    @Test("M28: 300 seeded random byte arrays never crash or hang the reader")
    func survivesRandomBytes() {
        var random = SplitMix64(seed: 0x5EED_0028)
        let prefixes: [[UInt8]] = [[], ImageBytes.pngSignature, Array("GIF89a".utf8), [0xFF, 0xD8]]
        for index in 0..<300 {
            let prefix = prefixes[index % prefixes.count]
            let tail = (0..<Int.random(in: 0...600, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            if let header = ImageHeader.read(prefix + tail) {
                #expect(header.width >= 1 && header.height >= 1)
            }
        }
    }

    @Test("M28: 300 seeded mutations of valid images never crash or hang the reader")
    func survivesMutatedImages() {
        var random = SplitMix64(seed: 0x5EED_0029)
        for index in 0..<300 {
            var bytes = ImageBytes.samples[index % ImageBytes.samples.count].bytes
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                bytes[Int.random(in: bytes.indices, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if let header = ImageHeader.read(bytes) {
                #expect(header.width >= 1 && header.height >= 1)
            }
        }
    }

    @Test("Test support: SplitMix64 matches the reference sequence for seed 0")
    func splitMixReference() {
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    // MARK: - Sizes (M28)

    @Test("M28: small 100 pt, regular 136 pt, large 206 pt, at @3x", arguments: [
        (Sticker.Size.small, 100, 300),
        (Sticker.Size.regular, 136, 408),
        (Sticker.Size.large, 206, 618),
    ])
    func sizes(size: Sticker.Size, points: Int, pixels: Int) {
        #expect(size.points == points)
        #expect(size.pixels == pixels)
        #expect(Sticker.points(forPixels: pixels) == points)
    }

    @Test("M28: the default size is regular")
    func defaultSize() {
        #expect(Sticker.Size.default == .regular)
    }

    @Test("M28: points are pixels / 3, rounded down", arguments: [
        (300, 100), (301, 100), (302, 100), (303, 101), (618, 206),
    ])
    func pointsFromPixels(pixels: Int, points: Int) throws {
        #expect(Sticker.points(forPixels: pixels) == points)
        let sticker = try Sticker.described(format: "png", bytes: 1, pixels: pixels, description: "").get()
        #expect(sticker.points == points)
    }

    // MARK: - Sticker.described (M28, M29)

    @Test("M28, M29: described stickers pass or fail with the right code", arguments: DescribedCase.all)
    func described(check: DescribedCase) {
        let result = Sticker.described(
            format: check.format,
            bytes: check.bytes,
            width: check.width,
            height: check.height,
            isAnimated: check.isAnimated,
            description: check.description
        )
        #expect(result.failureCode == check.expected)
    }

    @Test("M28: a described sticker keeps what it was given, and jpg names JPEG")
    func describedKeepsValues() throws {
        let sticker = try Sticker.described(
            format: "JPG", bytes: 2048, width: 408, height: 408, description: "A waving hand"
        ).get()
        #expect(sticker.format == .jpeg)
        #expect(sticker.bytes == 2048)
        #expect(sticker.pixels == 408 && sticker.width == 408 && sticker.height == 408)
        #expect(sticker.points == 136)
        #expect(!sticker.isAnimated)
        #expect(sticker.stickerDescription == "A waving hand")
    }

    // MARK: - Sticker.load (M28, M29)

    @Test("M28: each format loads, sized from its content", arguments: ImageBytes.samples)
    func loadsEachFormat(sample: ImageBytes.Sample) throws {
        try withScratchDirectory("load-\(sample.name)") { directory in
            let url = try directory.write(sample.bytes, named: "sticker")
            let sticker = try Sticker.load(fileURL: url, description: sample.name).get()
            let header = try #require(ImageHeader.read(sample.bytes))
            #expect(sticker.format == header.format)
            #expect(sticker.width == header.width && sticker.height == header.height)
            #expect(sticker.isAnimated == header.isAnimated)
            #expect(sticker.bytes == sample.bytes.count)
            #expect(sticker.stickerDescription == sample.name)
        }
    }

    @Test("M29: content wins over the extension: a GIF named .png loads as a GIF")
    func contentWinsOverExtension() throws {
        try withScratchDirectory("content-wins") { directory in
            let url = try directory.write(ImageBytes.gif(width: 300, height: 300, frames: 2), named: "cat.png")
            let sticker = try Sticker.load(path: url.path, description: "cat").get()
            #expect(sticker.format == .gif)
            #expect(sticker.isAnimated)
        }
    }

    @Test("M29: 4 improperFileURL for a URL that is not a file URL", arguments: [
        "https://example.com/sticker.png", "http://localhost/sticker.gif", "data:image/png;base64,iVBORw0KGgo=",
    ])
    func rejectsRemoteURL(address: String) throws {
        let url = try #require(URL(string: address))
        #expect(Sticker.load(fileURL: url, description: "").failureCode == .improperFileURL)
    }

    @Test("M29: 1 fileNotFound for a missing file or a dangling symbolic link")
    func rejectsMissingFile() throws {
        try withScratchDirectory("missing") { directory in
            let missing = directory.url.appendingPathComponent("missing.png")
            #expect(Sticker.load(fileURL: missing, description: "").failureCode == .fileNotFound)
            let link = directory.url.appendingPathComponent("dangling.png")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: missing)
            #expect(Sticker.load(fileURL: link, description: "").failureCode == .fileNotFound)
        }
    }

    @Test("M29: a symbolic link to a valid sticker is followed")
    func followsSymbolicLink() throws {
        try withScratchDirectory("symlink") { directory in
            let target = try directory.write(ImageBytes.png(width: 408, height: 408), named: "target.png")
            let link = directory.url.appendingPathComponent("link.png")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
            #expect(Sticker.load(fileURL: link, description: "").failureCode == nil)
        }
    }

    @Test("M29: 2 fileUnreadable for a directory")
    func rejectsDirectory() throws {
        try withScratchDirectory("directory") { directory in
            let folder = directory.url.appendingPathComponent("folder.png", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            #expect(Sticker.load(fileURL: folder, description: "").failureCode == .fileUnreadable)
        }
    }

    @Test(
        "M29: 2 fileUnreadable for a file without read permission",
        .disabled(if: getuid() == 0, "root may read any file")
    )
    func rejectsUnreadableFile() throws {
        try withScratchDirectory("no-permission") { directory in
            let url = try directory.write(ImageBytes.png(width: 408, height: 408), named: "locked.png")
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: url.path)
            #expect(Sticker.load(fileURL: url, description: "").failureCode == .fileUnreadable)
        }
    }

    @Test("M29: 3 improperFileType for a FIFO, which is never read, so an empty pipe cannot hang the run")
    func rejectsFIFO() throws {
        try withScratchDirectory("fifo") { directory in
            let url = directory.url.appendingPathComponent("pipe.png")
            try #require(mkfifo(url.path, 0o600) == 0)
            #expect(Sticker.load(fileURL: url, description: "").failureCode == .improperFileType)
            // Through a symbolic link too: links are followed, then the kind decides.
            let link = directory.url.appendingPathComponent("link.png")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
            #expect(Sticker.load(fileURL: link, description: "").failureCode == .improperFileType)
        }
    }

    @Test("Bounded read: a file that reports a small size but goes on is read only up to the limit")
    func readsAtMostTheLimit() throws {
        // A regular file that grows past what its attributes said when checked cannot be
        // made portably; a FIFO with a writer stands in for "reports 0, reads forever"
        // (as /proc/self/pagemap does) for the reader that accepts special files.
        try withScratchDirectory("bounded") { directory in
            let url = try directory.write(Array(repeating: 7, count: 2_000), named: "long.bin")
            #expect(BoundedFile.read(url.path, limit: 1_999) == .failure(.tooLarge))
            #expect(BoundedFile.read(url.path, limit: 2_000) == .success(Array(repeating: 7, count: 2_000)))
            let big = try directory.write(Array(repeating: 0, count: Sticker.fileSizeLimit + 10_000), named: "big.png")
            #expect(Sticker.load(fileURL: big, description: "").failureCode == .stickerFileImproperFileSize)
            #expect(BoundedFile.read(directory.url.path, limit: 10) == .failure(.notAFile(.directory)))
            #expect(BoundedFile.read(directory.url.appendingPathComponent("none").path, limit: 10) == .failure(.notFound))
        }
    }

    @Test("M28, M29: 511,999 bytes load; 500 KiB (512,000 bytes) and more are 6 stickerFileImproperFileSize", arguments: [
        (511_999, nil),
        (512_000, MessageErrorCode.stickerFileImproperFileSize),
        (512_001, MessageErrorCode.stickerFileImproperFileSize),
        (700_000, MessageErrorCode.stickerFileImproperFileSize),
    ])
    func loadsUpToMaximumSize(size: Int, expected: MessageErrorCode?) throws {
        try withScratchDirectory("size-\(size)") { directory in
            let bytes = ImageBytes.png(width: 408, height: 408, fileSize: size)
            #expect(bytes.count == size)
            let url = try directory.write(bytes, named: "big.png")
            #expect(Sticker.load(fileURL: url, description: "").failureCode == expected)
        }
    }

    @Test("M28, M29: pixel size at load: 300 and 618 pass; 299, 619 and not square are 7", arguments: [
        (300, 300, nil),
        (618, 618, nil),
        (299, 299, MessageErrorCode.stickerFileImproperFileFormat),
        (619, 619, .stickerFileImproperFileFormat),
        (408, 409, .stickerFileImproperFileFormat),
    ])
    func loadChecksPixels(width: Int, height: Int, expected: MessageErrorCode?) throws {
        try withScratchDirectory("pixels-\(width)x\(height)") { directory in
            let url = try directory.write(ImageBytes.jpeg(width: width, height: height), named: "photo.jpg")
            #expect(Sticker.load(fileURL: url, description: "").failureCode == expected)
        }
    }

    @Test("M29: 7 stickerFileImproperFileFormat for content that is not a whole image", arguments: [
        ImageBytes.Sample(name: "text", bytes: Array("not an image".utf8)),
        ImageBytes.Sample(name: "empty", bytes: []),
        ImageBytes.Sample(name: "truncated PNG", bytes: Array(ImageBytes.png(width: 408, height: 408).dropLast())),
        ImageBytes.Sample(name: "BMP", bytes: Array("BM".utf8) + Array(repeating: 0, count: 60)),
    ])
    func rejectsNonImageContent(sample: ImageBytes.Sample) throws {
        try withScratchDirectory("content-\(sample.name.replacingOccurrences(of: " ", with: "-"))") { directory in
            let url = try directory.write(sample.bytes, named: "sticker.png")
            #expect(Sticker.load(fileURL: url, description: "").failureCode == .stickerFileImproperFileFormat)
        }
    }

    @Test("M28, M29: a description of 150 characters loads; 151 is 5 stickerFileImproperFileAttributes", arguments: [
        (150, nil),
        (151, MessageErrorCode.stickerFileImproperFileAttributes),
    ])
    func loadChecksDescription(length: Int, expected: MessageErrorCode?) throws {
        try withScratchDirectory("description-\(length)") { directory in
            let url = try directory.write(ImageBytes.gif(width: 408, height: 408, frames: 2), named: "wave.gif")
            let description = String(repeating: "a", count: length)
            #expect(Sticker.load(fileURL: url, description: description).failureCode == expected)
        }
    }
}

extension StickerTests {
    // MARK: - Described cases

    /// One row of the `Sticker.described` table: its inputs and the code it must fail with.
    struct DescribedCase: Sendable, CustomTestStringConvertible {
        var name: String
        var format = "png"
        var bytes = 40_000
        var width = 408
        var height = 408
        var isAnimated = false
        var description = "A sticker"
        var expected: MessageErrorCode?

        var testDescription: String { name }

        static let all: [DescribedCase] = [
            DescribedCase(name: "M28: png passes"),
            DescribedCase(name: "M28: upper-case PNG passes", format: "PNG"),
            DescribedCase(name: "M28: animated apng passes", format: "apng", isAnimated: true),
            DescribedCase(name: "M28: animated gif passes", format: "Gif", isAnimated: true),
            DescribedCase(name: "M28: jpeg passes", format: "jpeg"),
            DescribedCase(name: "M28: jpg passes", format: "jpg"),
            DescribedCase(name: "M29: 7 for webp", format: "webp", expected: .stickerFileImproperFileFormat),
            DescribedCase(name: "M29: 7 for bmp", format: "bmp", expected: .stickerFileImproperFileFormat),
            DescribedCase(name: "M29: 7 for an empty format", format: "", expected: .stickerFileImproperFileFormat),
            DescribedCase(name: "M29: 7 for png with a dot", format: ".png", expected: .stickerFileImproperFileFormat),
            DescribedCase(
                name: "M28, M29: 7 for an animated png", isAnimated: true, expected: .stickerFileImproperFileFormat
            ),
            DescribedCase(
                name: "M28, M29: 7 for an animated jpeg", format: "jpeg", isAnimated: true,
                expected: .stickerFileImproperFileFormat
            ),
            DescribedCase(name: "M29: 5 for a negative size", bytes: -1, expected: .stickerFileImproperFileAttributes),
            DescribedCase(name: "M28: 0 bytes passes the size check", bytes: 0),
            DescribedCase(name: "M28: one byte under 500 KiB passes", bytes: 511_999),
            DescribedCase(
                name: "M28, M29: 6 for exactly 500 KiB (512,000 bytes)", bytes: 512_000, expected: .stickerFileImproperFileSize
            ),
            DescribedCase(
                name: "M28, M29: 6 one byte over 500 KiB", bytes: 512_001, expected: .stickerFileImproperFileSize
            ),
            DescribedCase(
                name: "M28, M29: 7 for 299 pixels", width: 299, height: 299, expected: .stickerFileImproperFileFormat
            ),
            DescribedCase(name: "M28: 300 pixels passes", width: 300, height: 300),
            DescribedCase(name: "M28: 618 pixels passes", width: 618, height: 618),
            DescribedCase(
                name: "M28, M29: 7 for 619 pixels", width: 619, height: 619, expected: .stickerFileImproperFileFormat
            ),
            DescribedCase(name: "M28, M29: 7 for 0 pixels", width: 0, height: 0, expected: .stickerFileImproperFileFormat),
            DescribedCase(
                name: "M28, M29: 7 when not square", width: 408, height: 300, expected: .stickerFileImproperFileFormat
            ),
            DescribedCase(name: "M28: a 150-character description passes", description: String(repeating: "x", count: 150)),
            DescribedCase(
                name: "M28: 150 emoji with skin tones count as 150 characters",
                description: String(repeating: "👋🏽", count: 150)
            ),
            DescribedCase(
                name: "M28, M29: 5 for a 151-character description", description: String(repeating: "x", count: 151),
                expected: .stickerFileImproperFileAttributes
            ),
            DescribedCase(
                name: "M29: the format name is checked before the size", format: "bmp", bytes: 600_000, width: 10,
                height: 10, expected: .stickerFileImproperFileFormat
            ),
            DescribedCase(
                name: "M29: the file size is checked before the pixels", bytes: 600_000, width: 10, height: 10,
                expected: .stickerFileImproperFileSize
            ),
            DescribedCase(
                name: "M29: the pixels are checked before the description", width: 10, height: 10,
                description: String(repeating: "x", count: 151), expected: .stickerFileImproperFileFormat
            ),
        ]
    }

    // MARK: - Image builders

    /// Tiny images built byte by byte. CRCs are zero: the reader does not check them.
    enum ImageBytes {
        /// A named byte array, so argument tables read well in test output.
        struct Sample: Sendable, CustomTestStringConvertible {
            var name: String
            var bytes: [UInt8]
            var testDescription: String { name }
        }

        static let samples: [Sample] = [
            Sample(name: "PNG", bytes: png(width: 408, height: 408)),
            Sample(name: "APNG", bytes: png(width: 300, height: 300, frames: 3)),
            Sample(name: "GIF", bytes: gif(width: 618, height: 618, frames: 1)),
            Sample(name: "animated GIF", bytes: gif(width: 408, height: 408, frames: 2)),
            Sample(name: "JPEG", bytes: jpeg(width: 300, height: 300)),
            Sample(name: "padded JPEG", bytes: jpeg(width: 618, height: 618, padded: true)),
        ]

        static let malformed: [Sample] = [
            Sample(name: "PNG whose first chunk is not IHDR", bytes: pngSignature + chunk("IDAT", []) + chunk("IEND", [])),
            Sample(name: "PNG without IDAT", bytes: pngSignature + ihdr(width: 408, height: 408) + chunk("IEND", [])),
            Sample(name: "PNG of width 0", bytes: png(width: 0, height: 408)),
            Sample(name: "PNG of width 2^31", bytes: png(width: 1 << 31, height: 408)),
            Sample(name: "PNG with a short IHDR", bytes: pngSignature + chunk("IHDR", bigEndian32(408)) + chunk("IEND", [])),
            Sample(
                name: "PNG with a chunk length of 2^32 - 1",
                bytes: pngSignature + ihdr(width: 408, height: 408) + [0xFF, 0xFF, 0xFF, 0xFF] + Array("IDAT".utf8)
            ),
            Sample(
                name: "PNG with two IHDR chunks",
                bytes: pngSignature + ihdr(width: 408, height: 408) + ihdr(width: 408, height: 408)
                    + chunk("IDAT", []) + chunk("IEND", [])
            ),
            Sample(
                name: "APNG with 0 frames",
                bytes: pngSignature + ihdr(width: 408, height: 408) + chunk("acTL", bigEndian32(0) + bigEndian32(0))
                    + chunk("IDAT", []) + chunk("IEND", [])
            ),
            Sample(name: "GIF without an image", bytes: Array("GIF89a".utf8) + [0x98, 0x01, 0x98, 0x01, 0, 0, 0, 0x3B]),
            Sample(name: "GIF of height 0", bytes: gif(width: 408, height: 0, frames: 1)),
            Sample(name: "GIF with an unknown block", bytes: Array("GIF89a".utf8) + [0x98, 0x01, 0x98, 0x01, 0, 0, 0, 0x99]),
            Sample(
                name: "GIF whose color table runs past the end",
                bytes: Array("GIF89a".utf8) + [0x98, 0x01, 0x98, 0x01, 0x87, 0, 0, 0x3B]
            ),
            Sample(name: "JPEG with only SOI and EOI", bytes: [0xFF, 0xD8, 0xFF, 0xD9]),
            Sample(name: "JPEG with a segment length of 1", bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0xFF, 0xD9]),
            Sample(name: "JPEG with a stuffed zero as a marker", bytes: [0xFF, 0xD8, 0xFF, 0x00, 0xFF, 0xD9]),
            Sample(name: "JPEG with a byte that is not a marker", bytes: [0xFF, 0xD8, 0x12, 0xFF, 0xD9]),
            Sample(
                name: "JPEG with a scan before its frame",
                bytes: [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 63, 0, 0x12, 0xFF, 0xD9]
            ),
            Sample(
                name: "JPEG whose SOF0 length disagrees with its components",
                bytes: [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 8, 0x01, 0x98, 0x01, 0x98, 2, 1, 0x11, 0, 0xFF, 0xD9]
            ),
            Sample(name: "a lone PNG signature byte", bytes: [0x89]),
        ]

        // PNG

        static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

        /// A PNG: IHDR, an acTL when `frames` is given, padding to `fileSize`, IDAT, IEND.
        static func png(width: Int, height: Int, frames: Int? = nil, fileSize: Int? = nil) -> [UInt8] {
            var head = pngSignature + ihdr(width: width, height: height)
            if let frames { head += chunk("acTL", bigEndian32(frames) + bigEndian32(0)) }
            let tail = chunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00]) + chunk("IEND", [])
            guard let fileSize else { return head + tail }
            let padding = max(0, fileSize - head.count - tail.count - 12)
            return head + chunk("grSm", Array(repeating: 0x20, count: padding)) + tail
        }

        static func ihdr(width: Int, height: Int) -> [UInt8] {
            chunk("IHDR", bigEndian32(width) + bigEndian32(height) + [8, 6, 0, 0, 0])
        }

        /// Length, type, data and a zero CRC.
        static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            bigEndian32(data.count) + Array(type.utf8) + data + [0, 0, 0, 0]
        }

        static func bigEndian32(_ value: Int) -> [UInt8] {
            [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        }

        // GIF

        /// A GIF89a with a two-color global table and `frames` images, each after a graphic
        /// control extension, with a NETSCAPE2.0 loop extension when animated.
        static func gif(width: Int, height: Int, frames: Int) -> [UInt8] {
            var bytes = Array("GIF89a".utf8) + littleEndian16(width) + littleEndian16(height) + [0x80, 0, 0]
            bytes += [0, 0, 0, 0xFF, 0xFF, 0xFF]
            if frames > 1 {
                bytes += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
            }
            for _ in 0..<frames {
                bytes += [0x21, 0xF9, 0x04, 0x04, 0x0A, 0x00, 0x00, 0x00]
                bytes += [0x2C, 0, 0, 0, 0] + littleEndian16(width) + littleEndian16(height) + [0x00]
                bytes += [0x02, 0x02, 0x4C, 0x01, 0x00]
            }
            return bytes + [0x3B]
        }

        static func littleEndian16(_ value: Int) -> [UInt8] {
            [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
        }

        // JPEG

        /// SOI, APP0 (JFIF), a one-component frame (SOF0 unless `frameMarker` says), SOS,
        /// entropy-coded data holding a stuffed zero and a restart marker, EOI.
        /// `padded` adds a TEM marker and fill bytes.
        static func jpeg(width: Int, height: Int, padded: Bool = false, frameMarker: UInt8 = 0xC0) -> [UInt8] {
            var bytes: [UInt8] = [0xFF, 0xD8]
            if padded { bytes += [0xFF, 0x01] }
            bytes += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8)
            bytes += [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
            if padded { bytes += [0xFF, 0xFF, 0xFF] }
            bytes += [0xFF, frameMarker, 0x00, 0x0B, 0x08] + bigEndian16(height) + bigEndian16(width)
            bytes += [0x01, 0x01, 0x11, 0x00]
            bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
            bytes += [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xFF]
            return bytes + [0xFF, 0xD9]
        }

        static func bigEndian16(_ value: Int) -> [UInt8] {
            [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        }
    }

    // MARK: - Helpers

    /// The seeded generator of Steele, Lea and Flood: 64 bits of state, one add and a mix per draw.
    struct SplitMix64: RandomNumberGenerator {
        private var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
    }

    /// A directory of its own under the system temporary directory, named from the test's label
    /// and this process's id, removed when the test is done.
    struct ScratchDirectory {
        let url: URL

        /// Writes `bytes` to a file called `name` in the directory.
        func write(_ bytes: [UInt8], named name: String) throws -> URL {
            let file = url.appendingPathComponent(name)
            try Data(bytes).write(to: file)
            return file
        }
    }

    /// Runs `body` with a fresh scratch directory named from `label` and this process's id,
    /// and removes the directory afterwards, whatever happens.
    func withScratchDirectory(_ label: String, _ body: (ScratchDirectory) throws -> Void) throws {
        let url = try TemporaryFolder.create("sticker-tests-\(label)")
        defer { TemporaryFolder.remove(url) }
        try body(ScratchDirectory(url: url))
    }
}

fileprivate extension Result where Failure == MessageErrorCode {
    /// The code of a failure; nil for a success.
    var failureCode: MessageErrorCode? {
        if case .failure(let code) = self { code } else { nil }
    }
}
