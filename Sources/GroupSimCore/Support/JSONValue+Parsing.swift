/// Reading JSON back into a `JSONValue`: enough for GroupSim's own reports (exploration
/// shards merged by `groupsim merge`), strict about everything else.
///
/// Objects keep their members in file order and a duplicate key is an error, so a value
/// read back renders exactly as it was written (determinism rule 4, README). Numbers must be whole
/// and fit in 64 bits: GroupSim writes seeds and times as strings and counts as integers.
extension JSONValue {
    /// What went wrong reading JSON, and where (1-based line and column).
    package struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        package var line: Int
        package var column: Int
        package var message: String

        package var description: String { "\(line):\(column): \(message)" }
    }

    /// Parses one JSON document (surrounding whitespace allowed). O(n) in the text's length.
    package static func parse(_ text: String) throws(ParseError) -> JSONValue { try parse(Array(text.utf8)) }

    /// Parses one JSON document from a file's bytes; bytes that are not UTF-8 are refused
    /// at the place they start.
    package static func parse(_ bytes: [UInt8]) throws(ParseError) -> JSONValue {
        var reader = JSONReader(bytes)
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): reader.index += UTF8.width(scalar)
            case .emptyInput: break decoding
            case .error: throw reader.error("bytes that are not UTF-8 text")
            }
        }
        reader.index = 0
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        guard reader.atEnd else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    /// The member `key` of an object, or nil (also for anything that is not an object).
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }
}

/// A recursive-descent reader over UTF-8 bytes.
private struct JSONReader {
    /// Nesting deeper than this is refused rather than risking the stack.
    static let maximumDepth = 200

    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    func error(_ message: String) -> JSONValue.ParseError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONValue.ParseError(line: line, column: column, message: message)
    }

    mutating func value(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("JSON nested deeper than \(Self.maximumDepth) levels") }
        guard index < bytes.count else { throw error("expected a JSON value, found the end of the text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("expected a JSON value")
        }
    }

    mutating func literal(_ word: String) throws(JSONValue.ParseError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("expected \(word)")
        }
        index += expected.count
    }

    mutating func object(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        index += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let key = try string()
            guard !members.contains(where: { $0.0 == key }) else { throw error("duplicate key \"\(key)\"") }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected \":\" after \"\(key)\"") }
            index += 1
            skipWhitespace()
            members.append((key, try value(depth: depth + 1)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw error("expected \",\" or \"}\" in an object")
            }
        }
    }

    mutating func array(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw error("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            } else {
                throw error("expected \",\" or \"]\" in an array")
            }
        }
    }

    /// A whole number; fractions and exponents are refused (GroupSim never writes them).
    /// A whole number: `.int` when it fits in 64 bits, `.count` when it is larger and not
    /// negative (an exhaustive exploration's counts).
    mutating func number() throws(JSONValue.ParseError) -> JSONValue {
        let start = index
        do {
            return .int(try integer())
        } catch {
            let digits = String(decoding: bytes[start..<index], as: UTF8.self)
            if error.message == "number out of range", let count = ExactCount(digits) { return .count(count) }
            throw error
        }
    }

    mutating func integer() throws(JSONValue.ParseError) -> Int64 {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        guard index > digitsStart else { throw error("expected digits") }
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            throw error("only whole numbers are supported")
        }
        guard bytes[digitsStart] != UInt8(ascii: "0") || index - digitsStart == 1 else { throw error("a number may not start with 0") }
        guard let number = Int64(String(decoding: bytes[start..<index], as: UTF8.self)) else {
            throw error("number out of range")
        }
        return number
    }

    mutating func string() throws(JSONValue.ParseError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            if !run.isEmpty {
                scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
                run.removeAll(keepingCapacity: true)
            }
        }
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                index += 1
                guard index < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
                default: throw error("unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
            case 0x00..<0x20:
                throw error("control character in a string")
            default:
                run.append(byte)
                index += 1
            }
        }
    }

    /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00`; the `\u` is already read.
    mutating func unicodeEscape() throws(JSONValue.ParseError) -> Unicode.Scalar {
        let high = try hexQuad()
        if (0xD800..<0xDC00).contains(high) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("unpaired surrogate in \\u escape")
            }
            index += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low),
                  let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) else {
                throw error("invalid surrogate pair in \\u escape")
            }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw error("invalid \\u escape") }
        return scalar
    }

    mutating func hexQuad() throws(JSONValue.ParseError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Self.hexDigit(bytes[index]) else { throw error("expected four hex digits after \\u") }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
