import GroupSimScenario

/// The rules for `MSMessage.url` (M8) and the query-item form apps keep state in.
package enum MessageURL {
    /// URLs longer than this fail at insert or send with `urlExceedsMaxSize` (M8).
    public static let maximumLength = 5_000

    /// The schemes the `url` setter keeps; no scheme at all is kept too (M8).
    public static let allowedSchemes: Set<String> = ["http", "https", "data"]

    /// The URL's scheme, lowercased, or nil when it has none (`?Base=base01`).
    public static func scheme(of url: String) -> String? {
        var scheme = ""
        for character in url {
            if character == ":" { return scheme.isEmpty ? nil : scheme.lowercased() }
            let isLetter = character.isASCII && character.isLetter
            let isSchemeCharacter = isLetter || (!scheme.isEmpty && (character.isASCII && character.isNumber || "+-.".contains(character)))
            guard isSchemeCharacter else { return nil }
            scheme.append(character)
        }
        return nil
    }

    /// Whether the setter keeps `url` (M8): no scheme, http, https or data.
    public static func isAccepted(_ url: String) -> Bool {
        guard let scheme = scheme(of: url) else { return true }
        return allowedSchemes.contains(scheme)
    }

    /// Whether a click on macOS opens it in a browser (M25), and whether iOS 9 receives it (M26).
    public static func isWeb(_ url: String) -> Bool {
        guard let scheme = scheme(of: url) else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// Percent-encodes a query key or value: everything but unreserved characters (RFC 3986).
    public static func encode(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                encoded += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
            }
        }
        return encoded
    }

    /// Decodes `%XX` escapes and `+` as a space; malformed escapes stay as written.
    public static func decode(_ text: Substring) -> String {
        // Most items have nothing to decode.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(text) }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), index + 2 < utf8.count,
               let value = UInt8(String(decoding: utf8[index + 1...index + 2], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index += 3
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The part before the query (`https://example.com/poll`), or "" for a bare query.
    public static func base(of url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }
}

/// The built-in app's shared state: string keys to string values, kept as URL query
/// items (IceCreamBuilder's design, M12). Keys are kept sorted, so the same state always
/// gives the same URL (determinism rule 4, README).
public struct StateMap: Sendable, Hashable, CustomStringConvertible {
    public private(set) var entries: [Scenario.DataEntry] = []

    public init() {}

    public init(_ entries: [Scenario.DataEntry]) {
        for entry in entries { self[entry.key] = entry.value }
    }

    /// The query items of `url`, later duplicates winning. Empty for nil or no query.
    public init(url: String?) {
        // Bytes, not characters: every sent message's URL is parsed, and the delimiters
        // are ASCII.
        guard let url else { return }
        let bytes = url.utf8
        guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return }
        var start = bytes.index(after: question)
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        while start < end {
            let itemEnd = bytes[start..<end].firstIndex(of: UInt8(ascii: "&")) ?? end
            if itemEnd > start {
                let equals = bytes[start..<itemEnd].firstIndex(of: UInt8(ascii: "="))
                let key = MessageURL.decode(url[start..<(equals ?? itemEnd)])
                let value = equals.map { MessageURL.decode(url[bytes.index(after: $0)..<itemEnd]) } ?? ""
                self[key] = value
            }
            start = itemEnd == end ? end : bytes.index(after: itemEnd)
        }
    }

    public var isEmpty: Bool { entries.isEmpty }

    public subscript(key: String) -> String? {
        get {
            let index = position(of: key)
            return index < entries.count && entries[index].key == key ? entries[index].value : nil
        }
        set {
            let index = position(of: key)
            let present = index < entries.count && entries[index].key == key
            switch (newValue, present) {
            case (let value?, true): entries[index].value = value
            case (let value?, false): entries.insert(DataEntry(key, value), at: index)
            case (nil, true): entries.remove(at: index)
            case (nil, false): break
            }
        }
    }

    /// Sets every entry of `changes`, in order.
    public mutating func apply(_ changes: [Scenario.DataEntry]) {
        for change in changes { self[change.key] = change.value }
    }

    /// Whether every entry of `expected` is present with the same value.
    public func contains(_ expected: [Scenario.DataEntry]) -> Bool {
        expected.allSatisfy { self[$0.key] == $0.value }
    }

    /// The URL for this state: `base` (may be empty) followed by `?k=v&...` in key order.
    public func url(base: String = "") -> String {
        guard !entries.isEmpty else { return base }
        return base + "?" + entries.map { MessageURL.encode($0.key) + "=" + MessageURL.encode($0.value) }.joined(separator: "&")
    }

    /// `{bob: tomatoes, q: topping}`.
    public var description: String {
        "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    }

    private func position(of key: String) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
