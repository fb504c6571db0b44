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
        if let inPlace = text.utf8.withContiguousStorageIfAvailable({ Self.parse($0) }) {
            parsed = inPlace
        } else {
            parsed = Self.parse(text.utf8)
        }
        guard let parsed else { return nil }
        high = parsed.high
        low = parsed.low
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

    /// Uppercase, as `UUID().uuidString` prints it: `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    public var uuidString: String {
        // Written byte by byte into the string's own storage: minted identifiers are
        // printed on every token and URL.
        String(unsafeUninitializedCapacity: 36) { bytes in
            var index = 0
            for nibble in 0..<32 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    bytes[index] = UInt8(ascii: "-")
                    index += 1
                }
                let word = nibble < 16 ? high : low
                let value = UInt8(truncatingIfNeeded: word >> UInt64(60 - 4 * (nibble % 16))) & 0xF
                bytes[index] = value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
                index += 1
            }
            return 36
        }
    }

    /// The first block only, for compact printing: `E621E1F8`.
    public var short: String { String(uuidString.prefix(8)) }

    public var description: String { uuidString }

    public static func < (lhs: Self, rhs: Self) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

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
        let scalars = Array(text.utf8)
        guard scalars.count >= 36 else { return [] }
        var found: [ParticipantID] = []
        var index = 0
        while index + 36 <= scalars.count {
            if scalars[index + 8] == UInt8(ascii: "-"), scalars[index + 13] == UInt8(ascii: "-"),
               let id = ParticipantID(uuidString: String(decoding: scalars[index..<index + 36], as: UTF8.self)) {
                found.append(id)
                index += 36
            } else {
                index += 1
            }
        }
        return found
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
