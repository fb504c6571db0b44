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
        guard let parsed = Self.parse(text.utf8) else { return nil }
        self.init(parsed: parsed)
    }

    /// The two halves of the 36 bytes `8-4-4-4-12` (hex digits of either case), or nil.
    /// Bytes that do not lie in one piece are copied into one first (a bridged string's).
    @inlinable
    static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> (high: UInt64, low: UInt64)? {
        guard bytes.count == 36 else { return nil }
        return bytes.withContiguousStorageIfAvailable(parse(contiguous:)) ?? Array(bytes).withUnsafeBufferPointer(parse(contiguous:))
    }

    /// `parse` of bytes in one piece: the dashes at their four places, then each half's
    /// sixteen digits by position (drawn captions and sent URLs parse every token).
    @inlinable
    static func parse(contiguous bytes: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
        guard bytes.count == 36, bytes[8] == UInt8(ascii: "-"), bytes[13] == UInt8(ascii: "-"), bytes[18] == UInt8(ascii: "-"),
              bytes[23] == UInt8(ascii: "-") else { return nil }
        // The digits' places: 0-7, 9-12 and 14-17 make the high half, 19-22 and 24-35 the low.
        guard let high = digits(bytes, 0..<8, 0), let high2 = digits(bytes, 9..<13, high), let high3 = digits(bytes, 14..<18, high2),
              let low = digits(bytes, 19..<23, 0), let low2 = digits(bytes, 24..<36, low) else { return nil }
        return (high3, low2)
    }

    /// `value` followed by the hex digits at `places`, or nil when a byte is not one.
    /// Without a branch per byte: `0`-`9` less `0` is below 10, and only `A`-`F` and
    /// `a`-`f`, lowercased (`| 0x20`), less `a` are below 6.
    @inlinable
    static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ places: Range<Int>, _ value: UInt64) -> UInt64? {
        var value = value
        var valid = true
        for place in places {
            let digit = bytes[place] &- UInt8(ascii: "0")
            let letter = (bytes[place] | 0x20) &- UInt8(ascii: "a")
            valid = valid && (digit < 10 || letter < 6)
            value = value << 4 | UInt64(digit < 10 ? digit : letter &+ 10)
        }
        return valid ? value : nil
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
                   let parsed = parse(contiguous: UnsafeBufferPointer(rebasing: bytes[index..<index + 36])) {
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
