extension Scenario {
    /// A place in a scenario file: the file name as given, a 1-based line and a 1-based column.
    ///
    /// Columns count Unicode scalars from the start of the line, so a caret drawn under
    /// the line lines up in a terminal for ordinary text.
    public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var column: Int

        public init(file: String, line: Int, column: Int) {
            self.file = file
            self.line = line
            self.column = column
        }

        /// `FILE:LINE:COLUMN`, the form compilers and editors understand.
        public var description: String { "\(file):\(line):\(column)" }
    }
}
