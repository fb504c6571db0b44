extension ScenarioReader {
    /// Hands out a file's lines one at a time, rejecting what a text file must not hold.
    ///
    /// Accepted: tab, line feed, a carriage return directly before a line feed, and the
    /// printable characters of YAML (no C0 or C1 controls, no DEL, no U+FFFE or U+FFFF).
    /// A byte-order mark at the very start is skipped and does not count as a column.
    ///
    /// Lines are decoded only when asked for, so reading stops at the first error
    /// without decoding the rest of the file, and only one line is held at a time.
    struct TextLines {
        let file: String
        private var text: String.UnicodeScalarView.Iterator?
        private var bytes: [UInt8] = []
        private var byteIterator: IndexingIterator<[UInt8]>
        private var decoder = Unicode.UTF8.ForwardParser()
        /// How many bytes have been decoded.
        private var offset = 0
        private var lineNumber = 0
        private var atStart = true
        private var finished = false

        init(text: String, file: String) {
            self.file = file
            self.text = text.unicodeScalars.makeIterator()
            byteIterator = bytes.makeIterator()
        }

        init(bytes: [UInt8], file: String) {
            self.file = file
            self.bytes = bytes
            byteIterator = bytes.makeIterator()
        }

        /// The next line without its line break, or nil after the last one. A file that
        /// ends with a line break ends with an empty line.
        mutating func nextLine() throws(ScenarioError) -> Line? {
            guard !finished else { return nil }
            lineNumber += 1
            var scalars: [Unicode.Scalar] = []
            var carriageReturn: Int?
            while let scalar = try nextScalar(column: scalars.count) {
                if atStart {
                    atStart = false
                    if scalar == "\u{FEFF}" { continue }
                }
                if let carriageReturn {
                    guard scalar == "\n" else { throw loneCarriageReturn(at: carriageReturn) }
                    return Line(number: lineNumber, scalars: scalars)
                }
                switch scalar.value {
                case 0x0A:
                    return Line(number: lineNumber, scalars: scalars)
                case 0x0D:
                    carriageReturn = scalars.count
                case 0x09, 0x20...0x7E, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF:
                    scalars.append(scalar)
                default:
                    throw error(controlCharacterMessage(scalar), column: scalars.count)
                }
            }
            if let carriageReturn { throw loneCarriageReturn(at: carriageReturn) }
            finished = true
            return Line(number: lineNumber, scalars: scalars)
        }

        /// The next scalar of the file; `column` places an invalid UTF-8 error.
        private mutating func nextScalar(column: Int) throws(ScenarioError) -> Unicode.Scalar? {
            if text != nil { return text?.next() }
            switch decoder.parseScalar(from: &byteIterator) {
            case .valid(let encoded):
                offset += encoded.count
                return Unicode.UTF8.decode(encoded)
            case .error:
                let byte = offset < bytes.count ? bytes[offset] : 0
                let hex = String(byte, radix: 16, uppercase: true)
                let padded = hex.count < 2 ? "0" + hex : hex
                throw error(
                    "invalid UTF-8: found the byte 0x\(padded); a scenario file must be UTF-8 text",
                    column: column)
            case .emptyInput:
                return nil
            }
        }

        private func loneCarriageReturn(at column: Int) -> ScenarioError {
            error(
                "found a carriage return (U+000D) that is not followed by a line feed; "
                    + "end lines with a line feed",
                column: column)
        }

        private func controlCharacterMessage(_ scalar: Unicode.Scalar) -> String {
            let found =
                scalar.value == 0
                ? "a NUL character (U+0000)"
                : "the control character \(ScenarioReader.codePoint(scalar))"
            return "found \(found); a scenario file must be text"
        }

        private func error(_ message: String, column: Int) -> ScenarioError {
            ScenarioError(
                message, at: Scenario.SourceLocation(file: file, line: lineNumber, column: column + 1), code: .syntax)
        }
    }

    /// `U+0007`: a scalar's code point as Unicode writes it.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
