import GroupSimScenario

/// The rules for `MSMessage.url` (M8) and the query-item form apps keep state in.
package enum MessageURL {
    /// URLs longer than this fail at insert or send with `urlExceedsMaxSize` (M8).
    package static let maximumLength = 5_000

    /// The schemes the `url` setter keeps; no scheme at all is kept too (M8).
    package static let allowedSchemes: Set<String> = ["http", "https", "data"]

    /// The URL's scheme, lowercased, or nil when it has none (`?Base=base01`).
    package static func scheme(of url: String) -> String? {
        // Bytes while they are ASCII (every staged and sent message asks): a scheme is ASCII
        // letters, digits and `+-.`, each a character of one byte. A byte past ASCII, or
        // one after the colon (a combining mark would make `:` another character), leaves
        // the answer to the characters.
        let bytes = url.utf8
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte < 0x80 else { return schemeByCharacters(of: url) }
            if byte == UInt8(ascii: ":") {
                let next = bytes.index(after: index)
                if next < bytes.endIndex, bytes[next] >= 0x80 { return schemeByCharacters(of: url) }
                return index == bytes.startIndex ? nil : String(url[..<index]).lowercased()
            }
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            let isOther = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
            guard isLetter || (index != bytes.startIndex && isOther) else { return nil }
            index = bytes.index(after: index)
        }
        return nil
    }

    /// `scheme(of:)` read character by character.
    static func schemeByCharacters(of url: String) -> String? {
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
    package static func isAccepted(_ url: String) -> Bool {
        guard let scheme = scheme(of: url) else { return true }
        return allowedSchemes.contains(scheme)
    }

    /// Whether an old system receives the URL as a plain message (M26): every URL the
    /// setter keeps (M8) but a data URL, which is not sent. A URL with no scheme
    /// (`?q=lunch`) arrives as its text.
    package static func reachesOldSystems(_ url: String) -> Bool { scheme(of: url) != "data" }

    /// Whether a click on macOS opens it in a browser (M25).
    package static func isWeb(_ url: String) -> Bool {
        guard let scheme = scheme(of: url) else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// Percent-encodes a query key or value: everything but unreserved characters (RFC 3986).
    package static func encode(_ text: String) -> String {
        // Most keys and values need no escape: the text itself, no copy. The others are
        // written as bytes and made a string once.
        guard text.utf8.contains(where: { !isUnreserved($0) }) else { return text }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count * 3)
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(digits[Int(byte >> 4)])
                encoded.append(digits[Int(byte & 0xF)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The bytes a query keeps as they are: ASCII letters, digits and `-._~`.
    fileprivate static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Decodes `%XX` escapes and `+` as a space; malformed escapes stay as written.
    package static func decode(_ text: Substring) -> String {
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
    package static func base(of url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }
}

/// The built-in app's shared state: string keys to string values, kept as URL query
/// items (IceCreamBuilder's design, M12). Keys are kept sorted, so the same state always
/// gives the same URL (determinism rule 4, README). A URL may repeat an item
/// (`?pick=olives&pick=pickles`): every value is kept, in the URL's order, after the one
/// before it of the same key; reading the key gives the last.
public struct StateMap: Sendable, Hashable, CustomStringConvertible {
    public private(set) var entries: [Scenario.DataEntry] = []

    public init() {}

    public init(_ entries: [Scenario.DataEntry]) {
        for entry in entries { self[entry.key] = entry.value }
    }

    /// The query items of `url`, a repeated item keeping every value in order. Empty for
    /// nil or no query.
    public init(url: String?) {
        // Bytes, not characters, read where they lie: every staged message's URL is parsed,
        // and the delimiters are ASCII, so every item starts and ends on a character.
        guard let url else { return }
        if url.utf8.withContiguousStorageIfAvailable({ read(query: $0, of: url) }) == nil {
            Array(url.utf8).withUnsafeBufferPointer { read(query: $0, of: url) }
        }
    }

    /// Reads the query items of `url`, whose bytes are `bytes`.
    private mutating func read(query bytes: UnsafeBufferPointer<UInt8>, of url: String) {
        guard let question = bytes.firstIndex(of: UInt8(ascii: "?")) else { return }
        var start = question + 1
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        entries.reserveCapacity(bytes[start..<end].count(where: { $0 == UInt8(ascii: "&") }) + 1)
        while start < end {
            let itemEnd = bytes[start..<end].firstIndex(of: UInt8(ascii: "&")) ?? end
            if itemEnd > start {
                let equals = bytes[start..<itemEnd].firstIndex(of: UInt8(ascii: "="))
                let key = Self.decode(bytes, start..<(equals ?? itemEnd), of: url)
                let value = equals.map { Self.decode(bytes, ($0 + 1)..<itemEnd, of: url) } ?? ""
                // After every entry of the same key: one item, or the last of its repeats.
                // A URL this map wrote has its keys in order: each goes last, found at once.
                if let last = entries.last, last.key > key {
                    entries.insert(Scenario.DataEntry(key, value), at: self.end(of: key))
                } else {
                    entries.append(Scenario.DataEntry(key, value))
                }
            }
            start = itemEnd == end ? end : itemEnd + 1
        }
    }

    /// The item part at `range` of `url`'s bytes, decoded (`MessageURL.decode`): made
    /// from the bytes at once when there is nothing to decode, as most are.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, of url: String) -> String {
        let part = UnsafeBufferPointer(rebasing: bytes[range])
        guard part.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(decoding: part, as: UTF8.self) }
        let utf8 = url.utf8
        return MessageURL.decode(url[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)])
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// The key's value (the last, for an item the URL repeats); setting it replaces
    /// every value of the key with one, and nil removes them.
    public subscript(key: String) -> String? {
        get {
            let end = end(of: key)
            return end > 0 && entries[end - 1].key == key ? entries[end - 1].value : nil
        }
        set {
            let index = position(of: key)
            let end = end(of: key)
            switch (newValue, end > index) {
            case (let value?, true):
                entries[index].value = value
                entries.removeSubrange(index + 1..<end)
            case (let value?, false): entries.insert(Scenario.DataEntry(key, value), at: index)
            case (nil, true): entries.removeSubrange(index..<end)
            case (nil, false): break
            }
        }
    }

    /// Every value of the key, in the URL's order: one, or more for a repeated item.
    public func values(of key: String) -> [String] {
        entries[position(of: key)..<end(of: key)].map(\.value)
    }

    /// Sets every entry of `changes`, in order.
    public mutating func apply(_ changes: [Scenario.DataEntry]) {
        // An empty map given its keys in order, each once (a step's data, most often one
        // entry, on every message the built-in app composes): the list is the map, shared
        // as it is instead of copied entry by entry into a new array.
        if entries.isEmpty, zip(changes, changes.dropFirst()).allSatisfy({ $0.key < $1.key }) {
            entries = changes
            return
        }
        for change in changes { self[change.key] = change.value }
    }

    /// Sets each key of `other` to every value it has there (a repeated item stays repeated).
    public mutating func apply(_ other: StateMap) {
        var index = 0
        while index < other.entries.count {
            let key = other.entries[index].key
            let values = other.values(of: key)
            let start = position(of: key)
            entries.replaceSubrange(start..<end(of: key), with: values.map { Scenario.DataEntry(key, $0) })
            index += values.count
        }
    }

    /// Whether every entry of `expected` is present: its key has that value (one of its
    /// values, for an item the URL repeats).
    public func contains(_ expected: [Scenario.DataEntry]) -> Bool {
        expected.allSatisfy { entry in
            let end = end(of: entry.key)
            // Most keys have one value: the last is the one to compare first.
            guard end > 0, entries[end - 1].key == entry.key else { return false }
            // The key's other values compared where they lie, not gathered into an array.
            return entries[end - 1].value == entry.value || entries[position(of: entry.key)..<end].contains { $0.value == entry.value }
        }
    }

    /// The URL for this state: `base` (may be empty) followed by `?k=v&...` in key order.
    public func url(base: String = "") -> String {
        guard !entries.isEmpty else { return base }
        // Every message the built-in app composes makes its URL here. Most keys and values
        // need no escape: then the URL is written into its string's storage at once.
        var length = base.utf8.count + 1
        var plain = true
        for entry in entries {
            length += entry.key.utf8.count + entry.value.utf8.count + 2
            plain = plain && entry.key.utf8.allSatisfy(MessageURL.isUnreserved) && entry.value.utf8.allSatisfy(MessageURL.isUnreserved)
        }
        guard plain else { return escapedURL(base: base) }
        return String(unsafeUninitializedCapacity: length - 1) { buffer in
            var written = 0
            func put(_ text: String) {
                written = UnsafeMutableBufferPointer(rebasing: buffer[written...]).initialize(from: text.utf8).1 + written
            }
            put(base)
            for (index, entry) in entries.enumerated() {
                buffer[written] = index > 0 ? UInt8(ascii: "&") : UInt8(ascii: "?")
                written += 1
                put(entry.key)
                buffer[written] = UInt8(ascii: "=")
                written += 1
                put(entry.value)
            }
            return written
        }
    }

    /// `url(base:)` with each key and value escaped, appended to one string.
    private func escapedURL(base: String) -> String {
        var url = base
        url += "?"
        for (index, entry) in entries.enumerated() {
            if index > 0 { url += "&" }
            url += MessageURL.encode(entry.key)
            url += "="
            url += MessageURL.encode(entry.value)
        }
        return url
    }

    /// `{bob: tomatoes, q: topping}`.
    public var description: String {
        "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    }

    /// The index of the key's first entry, or where it would go.
    private func position(of key: String) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The index after the key's last entry (its `position` when it has none).
    private func end(of key: String) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].key <= key { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
