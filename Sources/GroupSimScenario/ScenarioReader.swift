/// Reads scenario files: turns text in the strict YAML subset of docs/scenario-format.md
/// into a `Node` tree in which every value remembers where it started.
///
/// The reader checks the file format only; `ScenarioParser` checks what the keys and
/// values mean. What the subset holds:
///
/// - Block mappings (`key: value`) and block sequences (`- item`), nested by indentation
///   with spaces. A sequence may sit at its key's own indentation (`steps:` then
///   `- at: 0ms`), and an item may start a mapping or another sequence on its own line
///   (`- at: 0ms`, `- - a`).
/// - Flow collections on one line: `[a, b]`, `{ key: value }`, nested, empty.
/// - Plain, `'single'` and `"double"` quoted scalars, and `|` block text (with `|-` and
///   `|+` chomping). Plain `true`/`false`, integers and decimals such as `-0.25` are
///   typed; everything else, and every quoted or block scalar, is a string. A key with
///   no value is `.null`.
/// - `#` comments outside quotes, at the start of a line or after whitespace.
///
/// Everything else is an error with a line and column: anchors, aliases, tags,
/// directives, document markers (`---`, `...`; a file is one document), `?` keys, `>`
/// folded text, duplicate keys, tabs in indentation, inconsistent indentation, an empty
/// file, and nesting deeper than 64 collections (block and flow together).
///
/// - Complexity: linear in the size of the file, which is decoded a line at a time and
///   only up to the first error. Nothing recurses on the structure of the input, so no
///   file can exhaust the stack.
package enum ScenarioReader {
    /// The deepest nesting of mappings and sequences, block and flow together, that a
    /// file may use. Scenario files need a handful of levels; the limit keeps every tree
    /// the reader returns shallow enough for recursive code downstream.
    static let maximumDepth = 64

    /// Reads `text`, the contents of a scenario file that diagnostics call `file`.
    ///
    /// Returns the root node, whatever its kind: that a scenario's root is a mapping is
    /// `ScenarioParser`'s rule. A leading byte-order mark is skipped; a control
    /// character other than tab, line feed or a carriage return before a line feed is
    /// an error.
    ///
    /// - Throws: `ScenarioError` at the first problem, with its line and column (columns
    ///   count Unicode scalars from 1).
    package static func read(_ text: String, file: String) throws(ScenarioError) -> Node {
        var parser = Parser(TextLines(text: text, file: file))
        return try parser.readDocument()
    }

    /// Reads the raw bytes of a scenario file that diagnostics call `file`.
    ///
    /// The bytes must be UTF-8 text: an invalid sequence, a NUL byte or another control
    /// character is a `ScenarioError` at the line and column of the first bad byte,
    /// never a crash. Otherwise the same as `read(_:file:)`.
    package static func read(bytes: [UInt8], file: String) throws(ScenarioError) -> Node {
        var parser = Parser(TextLines(bytes: bytes, file: file))
        return try parser.readDocument()
    }
}

extension ScenarioReader {
    /// One line of a file without its line break, held as Unicode scalars so that an
    /// index into `scalars` plus one is the line's column.
    struct Line: Sendable {
        /// The 1-based line number.
        var number: Int
        var scalars: [Unicode.Scalar]
    }
}
