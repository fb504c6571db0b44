extension ScenarioReader {
    /// Splits a file's Unicode scalars into lines, rejecting what a text file must not
    /// hold.
    ///
    /// Accepted: tab, line feed, a carriage return directly before a line feed, and the
    /// printable characters of YAML (no C0 or C1 controls, no DEL, no U+FFFE or U+FFFF).
    /// A byte-order mark at the very start is skipped and does not count as a column.
    struct TextLines {
        let file: String
        private var lines: [Line] = []
        private var current: [Unicode.Scalar] = []
        /// The index in `current` of a carriage return still waiting for its line feed.
        private var carriageReturn: Int?
        private var atStart = true

        init(file: String) {
            self.file = file
        }

        /// Adds the next scalar of the file.
        mutating func append(_ scalar: Unicode.Scalar) throws(ScenarioError) {
            if atStart {
                atStart = false
                if scalar == "\u{FEFF}" { return }
            }
            if let carriageReturn {
                guard scalar == "\n" else { throw loneCarriageReturn(at: carriageReturn) }
                self.carriageReturn = nil
                endLine()
                return
            }
            switch scalar.value {
            case 0x0A:
                endLine()
            case 0x0D:
                carriageReturn = current.count
            case 0x09, 0x20...0x7E, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF:
                current.append(scalar)
            default:
                throw error(controlCharacterMessage(scalar), column: current.count)
            }
        }

        /// Ends the file and returns its lines; the last line may be empty.
        mutating func finish() throws(ScenarioError) -> [Line] {
            if let carriageReturn { throw loneCarriageReturn(at: carriageReturn) }
            endLine()
            return lines
        }

        /// The error for an invalid UTF-8 sequence starting with `byte`, placed where the
        /// next scalar would have gone.
        func invalidUTF8(byte: UInt8) -> ScenarioError {
            let hex = String(byte, radix: 16, uppercase: true)
            let padded = hex.count < 2 ? "0" + hex : hex
            return error(
                "invalid UTF-8: found the byte 0x\(padded); a scenario file must be UTF-8 text",
                column: current.count)
        }

        private mutating func endLine() {
            lines.append(Line(number: lines.count + 1, scalars: current))
            current = []
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
                message, at: SourceLocation(file: file, line: lines.count + 1, column: column + 1))
        }
    }

    /// `U+0007`: a scalar's code point as Unicode writes it.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
