/// A participant identifier: a UUID standing for a person as seen on one device (M1).
///
/// GroupSim mints these from the seed (determinism rule 2, README), never from `UUID()`. The same
/// person has a different one on every device, and a reinstall replaces a device's whole
/// set (M2). A UUID minted on one device means nothing on another (M4).
public struct ParticipantID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    /// A version-4, RFC 4122 variant UUID from 128 bits (the version and variant bits are set).
    public init(bits high: UInt64, _ low: UInt64) {
        self.high = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        self.low = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
    }

    /// Mints the identifier for `parts` (device, installation, conversation, person) from `streams`.
    package static func mint(_ streams: RandomStreams, _ parts: String...) -> ParticipantID {
        mint(streams, key: RandomStreams.key(.identifiers, parts))
    }

    /// `mint(streams, parts...)` with the parts' key computed once (`RandomStreams.key`).
    package static func mint(_ streams: RandomStreams, key: UInt64) -> ParticipantID {
        var generator = SplitMix64(seed: streams.streamSeed(key: key))
        return ParticipantID(bits: generator.next(), generator.next())
    }

    /// Parses the 36-character form `8-4-4-4-12` (either case); nil for anything else.
    /// Inlinable, so that the targets above parse their substrings with specialized code;
    /// a string's own bytes are read in place (drawn captions parse every `$UUID` token).
    @inlinable
    public init?(uuidString text: some StringProtocol) {
        let parsed: (high: UInt64, low: UInt64)?
        if let inPlace = text.utf8.withContiguousStorageIfAvailable({ Self.parse(contiguous: $0) }) {
            parsed = inPlace
        } else {
            parsed = Self.parse(text.utf8)
        }
        guard let parsed else { return nil }
        self.init(parsed: parsed)
    }

    /// The two halves of the 36 bytes `8-4-4-4-12` (hex digits of either case), or nil.
    @inlinable
    static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> (high: UInt64, low: UInt64)? {
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var nibbles = 0
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = Self.hexValue(byte) else { return nil }
            if nibbles < 16 {
                high = high << 4 | UInt64(nibble)
            } else {
                low = low << 4 | UInt64(nibble)
            }
            nibbles += 1
        }
        return (high, low)
    }

    /// `parse(_:)` of bytes in memory: each byte read at its place, the dashes first, and
    /// each digit's value worked out without a branch on which kind of digit it is (a
    /// UUID's digits and letters come in no order a branch could guess), where a check
    /// compares drawn captions and summary lines, each `$UUID` token of them parsed.
    @inlinable
    static func parse(contiguous bytes: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
        guard bytes.count == 36, bytes[8] == UInt8(ascii: "-"), bytes[13] == UInt8(ascii: "-"), bytes[18] == UInt8(ascii: "-"),
              bytes[23] == UInt8(ascii: "-") else { return nil }
        var high: UInt64 = 0
        var value: UInt64 = 0
        var invalid: UInt8 = 0
        for index in 0..<36 where index != 8 && index != 13 && index != 18 && index != 23 {
            let byte = bytes[index]
            // 0 to 9 for a decimal digit; 0 to 5 for a letter a to f of either case (bit 5 makes it lowercase).
            let digit = byte &- UInt8(ascii: "0")
            let letter = (byte | 0x20) &- UInt8(ascii: "a")
            let isDigit: UInt8 = digit < 10 ? 1 : 0
            let isLetter: UInt8 = letter < 6 ? 1 : 0
            invalid |= (isDigit | isLetter) ^ 1
            value = value << 4 | UInt64(isDigit == 1 ? digit : letter &+ 10) & 0xF
            // The 16th digit ends the high half.
            if index == 17 { (high, value) = (value, 0) }
        }
        return invalid == 0 ? (high, value) : nil
    }

    /// Uppercase, as `UUID().uuidString` prints it: `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    public var uuidString: String {
        // Written byte by byte into the string's own storage: minted identifiers are
        // printed on every token and URL.
        String(unsafeUninitializedCapacity: 36) { bytes in
            write(into: bytes, at: 0)
            return 36
        }
    }

    /// Writes `uuidString`'s 36 bytes into `bytes` from `start`, which must have room:
    /// composed text writes its `$me` tokens in place, without making the string first.
    package func write(into bytes: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        // Group by group, the dashes at their places: 8-4-4 digits of the high half, 4-12 of the low.
        Self.writeHex(high >> 32, digits: 8, into: bytes, at: start)
        bytes[start + 8] = UInt8(ascii: "-")
        Self.writeHex(high >> 16, digits: 4, into: bytes, at: start + 9)
        bytes[start + 13] = UInt8(ascii: "-")
        Self.writeHex(high, digits: 4, into: bytes, at: start + 14)
        bytes[start + 18] = UInt8(ascii: "-")
        Self.writeHex(low >> 48, digits: 4, into: bytes, at: start + 19)
        bytes[start + 23] = UInt8(ascii: "-")
        Self.writeHex(low, digits: 12, into: bytes, at: start + 24)
    }

    /// The low `digits` nibbles of `value` as uppercase hex digits, the last at the end.
    private static func writeHex(_ value: UInt64, digits: Int, into bytes: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        var value = value
        for place in (start..<start + digits).reversed() {
            let nibble = UInt8(truncatingIfNeeded: value) & 0xF
            bytes[place] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
            value >>= 4
        }
    }

    /// The first block only, for compact printing: `E621E1F8`.
    public var short: String { String(uuidString.prefix(8)) }

    public var description: String { uuidString }

    /// Inlinable: a conversation view sorts its remote identifiers with it.
    @inlinable
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.high != rhs.high ? lhs.high < rhs.high : lhs.low < rhs.low }

    @inlinable
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Every UUID-shaped run of 36 characters in `text`, in order (for M4 and M5 scans).
    public static func occurrences(in text: String) -> [ParticipantID] {
        // Most URLs are shorter than one UUID: no copy of their bytes is made for them.
        guard text.utf8.count >= 36 else { return [] }
        let scalars = Array(text.utf8)
        var found: [ParticipantID] = []
        scalars.withUnsafeBufferPointer { bytes in
            var index = 0
            while index + 36 <= bytes.count {
                if bytes[index + 8] == UInt8(ascii: "-"), bytes[index + 13] == UInt8(ascii: "-"),
                   let parsed = parse(bytes[index..<index + 36]) {
                    found.append(ParticipantID(parsed: parsed))
                    index += 36
                } else {
                    index += 1
                }
            }
        }
        return found
    }

    /// The identifier whose halves `parse` read.
    @usableFromInline
    init(parsed: (high: UInt64, low: UInt64)) {
        high = parsed.high
        low = parsed.low
    }
}

/// Encoded as its `uuidString`, the form reports print.
extension ParticipantID: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = ParticipantID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a UUID: \(text)")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(uuidString)
    }
}
