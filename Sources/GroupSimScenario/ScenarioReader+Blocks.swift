extension ScenarioReader {
    /// Reads the lines of one file into a `Node` tree: the block structure here, flow
    /// collections and scalars in `ScenarioReader+Flow.swift` and
    /// `ScenarioReader+Scalars.swift`.
    ///
    /// The open block mappings and sequences are an explicit stack, deepest last, under
    /// a document frame that receives the root. A block stays open while lines are
    /// indented at least as deep as it; a dedent closes blocks and hands each one to its
    /// parent's open slot (the key or `-` waiting for a value).
    struct Parser {
        let file: String
        /// The lines not read yet.
        private var source: TextLines
        /// A line looked at but not taken (block text stops at the first line not its own).
        private var peeked: Line?
        /// The open blocks; `stack[0]` is the document frame, which is never closed.
        private var stack: [Block]
        private var root: Node?
        /// A plain scalar that filled a slot from a line of its own: if the next line is
        /// indented like it, it was almost surely a key missing its `:`.
        private var looseScalar: LooseScalar?
        /// Whether the last content line ended with a plain scalar value, so that a deeper
        /// next line reads as text continued on several lines.
        private var lastLineEndedInPlainValue = false

        init(_ source: TextLines) {
            file = source.file
            self.source = source
            let start = Scenario.SourceLocation(file: file, line: 1, column: 1)
            stack = [Block(kind: .document, indent: -1, location: start)]
            stack[0].slot = Slot(key: "", keyLocation: start, emptyLocation: start)
        }

        /// Reads the whole file and returns its root node.
        mutating func readDocument() throws(ScenarioError) -> Node {
            while let line = try takeLine() {
                try rejectDocumentMarker(line)
                guard let indent = try contentIndent(of: line) else { continue }
                try readLine(line, indent: indent)
            }
            while stack.count > 1 {
                closeTop()
            }
            guard let root else {
                throw ScenarioError(
                    "the file is empty: a scenario needs at least name, people and steps",
                    at: Scenario.SourceLocation(file: file, line: 1, column: 1), code: .syntax)
            }
            return root
        }

        /// The next line, without taking it.
        mutating func peekLine() throws(ScenarioError) -> Line? {
            if peeked == nil { peeked = try source.nextLine() }
            return peeked
        }

        /// Takes the next line.
        mutating func takeLine() throws(ScenarioError) -> Line? {
            let line = try peekLine()
            peeked = nil
            return line
        }

        /// The depth of block nesting: how many block collections are open.
        var blockDepth: Int { stack.count - 1 }

        /// The indentation of the block that owns the open slot; -1 for the document.
        var slotOwnerIndent: Int { stack[stack.count - 1].indent }
    }
}

// MARK: - Blocks and slots

extension ScenarioReader.Parser {
    /// An open block collection, or the document frame.
    struct Block {
        enum Kind { case document, mapping, sequence }

        var kind: Kind
        /// The column index (0-based) of its keys or dashes.
        var indent: Int
        /// Its first key or first `-`.
        var location: Scenario.SourceLocation
        var entries: [Node.Entry] = []
        var items: [Node] = []
        /// Each key's line, to report a duplicate.
        var keyLines: [String: Int] = [:]
        /// The key or `-` waiting for its value, if any.
        var slot: Slot?
    }

    /// A key or `-` (or the document) waiting for its value.
    struct Slot {
        var key: String
        var keyLocation: Scenario.SourceLocation
        /// Where an empty value is reported: just after the `:` or `-`.
        var emptyLocation: Scenario.SourceLocation
    }

    struct LooseScalar {
        var indent: Int
        var text: String
        var end: Scenario.SourceLocation
    }

    /// What a line holds from a given column on.
    enum Content {
        /// A block sequence item: `-` followed by a blank or the end of the line.
        case dash
        /// A block mapping key; the value starts after `afterColon`.
        case key(text: String, location: Scenario.SourceLocation, afterColon: Int)
        /// A value: a scalar, a flow collection or `|` block text.
        case value

        var isValue: Bool {
            if case .value = self { true } else { false }
        }
    }
}

// MARK: - Lines

extension ScenarioReader.Parser {
    /// The number of spaces before the line's content, or nil for a blank or comment
    /// line.
    private func contentIndent(of line: ScenarioReader.Line) throws(ScenarioError) -> Int? {
        let scalars = line.scalars
        var index = 0
        while index < scalars.count, scalars[index] == " " {
            index += 1
        }
        guard index < scalars.count, scalars[index] != "#" else { return nil }
        if scalars[index] == "\t" {
            let content = ScenarioReader.skipBlanks(scalars, from: index)
            guard content < scalars.count, scalars[content] != "#" else { return nil }
            throw error("tab in indentation; indent with spaces", line, index)
        }
        return index
    }

    /// Rejects `---` and `...` lines: the subset holds exactly one document.
    func rejectDocumentMarker(_ line: ScenarioReader.Line) throws(ScenarioError) {
        let scalars = line.scalars
        guard scalars.count >= 3 else { return }
        let marker = scalars[0]
        guard marker == "-" || marker == ".", scalars[1] == marker, scalars[2] == marker,
            scalars.count == 3 || ScenarioReader.isBlank(scalars[3])
        else { return }
        let text = String(repeating: String(marker), count: 3)
        throw error(
            "document markers (\"\(text)\") are not supported: a scenario file holds exactly one document",
            line, 0)
    }

    /// Places one content line, indented `indent` spaces, in the open blocks.
    private mutating func readLine(_ line: ScenarioReader.Line, indent: Int) throws(ScenarioError) {
        let loose = looseScalar
        looseScalar = nil
        let continuesPlainValue = lastLineEndedInPlainValue
        lastLineEndedInPlainValue = false
        if let loose, loose.indent == indent {
            throw missingColon(after: loose.text, at: loose.end)
        }

        let top = stack.count - 1
        if stack[top].slot != nil {
            // A slot takes a deeper line, and a mapping key also takes a sequence
            // at its own indentation.
            let sequenceAtKey =
                stack[top].kind == .mapping && stack[top].indent == indent
                && ScenarioReader.isDash(line.scalars, at: indent)
            if indent > stack[top].indent || sequenceAtKey {
                try readContent(line, from: indent, intoSlot: true)
                return
            }
            fillEmptySlot()
        }

        var closedIndent: Int?
        while stack[stack.count - 1].indent > indent {
            closedIndent = stack[stack.count - 1].indent
            closeTop()
        }
        if !ScenarioReader.isDash(line.scalars, at: indent), stack.count > 2 {
            // A sequence at its key's indentation ends at the next key.
            let sequence = stack.count - 1
            let parent = stack.count - 2
            if stack[sequence].kind == .sequence, stack[sequence].indent == indent,
                stack[parent].kind == .mapping, stack[parent].indent == indent
            {
                closeTop()
            }
        }

        let kind = stack[stack.count - 1].kind
        let blockIndent = stack[stack.count - 1].indent
        if kind == .document {
            if let loose { throw missingColon(after: loose.text, at: loose.end) }
            if let closedIndent {
                throw error(
                    "inconsistent indentation: expected \(closedIndent) spaces, found \(indent)",
                    line, indent)
            }
            let start = root.map { " (it starts on line \($0.location.line))" } ?? ""
            throw error(
                "expected the end of the file after the top-level value\(start), found more content",
                line, indent)
        }
        if blockIndent != indent {
            if let closedIndent {
                throw error(
                    "inconsistent indentation: expected \(blockIndent) or \(closedIndent) spaces, found \(indent)",
                    line, indent)
            }
            let continuesText =
                continuesPlainValue && (try? classify(line, at: indent)).map(\.isValue) == true
            let hint = continuesText ? "; text on several lines needs \"|\" block text" : ""
            throw error(
                "unexpected indentation: expected \(blockIndent) spaces, found \(indent)\(hint)",
                line, indent)
        }
        try readContent(line, from: indent, intoSlot: false)
    }

    /// Reads `line` from `start` on: into the top block's open slot (`intoSlot`), or as a
    /// new entry or item of the top block. A `- ` or `key: ` may be followed on the same
    /// line by more content, which goes into the slot it opened.
    private mutating func readContent(
        _ line: ScenarioReader.Line, from start: Int, intoSlot startsInSlot: Bool
    ) throws(ScenarioError) {
        let scalars = line.scalars
        var column = start
        var intoSlot = startsInSlot
        while true {
            let content = try classify(line, at: column)
            if intoSlot {
                switch content {
                case .dash:
                    try open(.sequence, indent: column, at: location(line, column))
                case .key(_, let keyLocation, _):
                    try open(.mapping, indent: column, at: keyLocation)
                case .value:
                    try readValue(line, at: column, ownLine: startsInSlot && column == start)
                    return
                }
            }
            let kind = stack[stack.count - 1].kind
            switch (kind, content) {
            case (.sequence, .dash):
                stack[stack.count - 1].slot = Slot(
                    key: "", keyLocation: location(line, column),
                    emptyLocation: location(line, column + 1))
                let rest = ScenarioReader.skipBlanks(scalars, from: column + 1)
                if ScenarioReader.isLineEnd(scalars, at: rest) { return }
                column = rest
                intoSlot = true
            case (.mapping, .key(let key, let keyLocation, let afterColon)):
                try addKey(key, at: keyLocation, emptyLocation: location(line, afterColon))
                let rest = ScenarioReader.skipBlanks(scalars, from: afterColon)
                if ScenarioReader.isLineEnd(scalars, at: rest) { return }
                try readValueAfterKey(key, line, at: rest)
                return
            case (.sequence, .key(let key, _, _)):
                throw error(
                    "expected a sequence item \"- \" at this indentation, found the key \"\(ScenarioReader.escaped(key))\"",
                    line, column)
            case (.sequence, .value):
                throw error(
                    "expected a sequence item \"- \" at this indentation, found \(ScenarioReader.describe(scalars, at: column))",
                    line, column)
            case (.mapping, .dash):
                throw error(
                    "expected \"key: value\" at this indentation, found a sequence item \"-\"", line,
                    column)
            case (.mapping, .value):
                throw try missingKeySeparator(line, at: column)
            case (.document, _):
                throw error(
                    "expected the end of the file after the top-level value, found more content",
                    line, column)
            }
        }
    }

    /// Reads the value written on a key's own line.
    private mutating func readValueAfterKey(
        _ key: String, _ line: ScenarioReader.Line, at column: Int
    ) throws(ScenarioError) {
        switch try classify(line, at: column) {
        case .value:
            try readValue(line, at: column, ownLine: false)
        case .dash:
            throw error(
                "a sequence cannot start on the line of its key \"\(ScenarioReader.escaped(key))\"; "
                    + "put each \"- \" item on a line of its own below the key",
                line, column)
        case .key(let inner, _, let afterColon):
            throw error(
                "unexpected \":\" after \"\(ScenarioReader.escaped(inner))\": a mapping in the value of \"\(ScenarioReader.escaped(key))\" "
                    + "goes on the lines below, indented; quote a value that contains \": \"",
                line, afterColon - 1)
        }
    }

    /// What `line` holds at `column`; rejects anchors, tags and other unsupported starts.
    private func classify(_ line: ScenarioReader.Line, at column: Int) throws(ScenarioError)
        -> Content
    {
        let scalars = line.scalars
        let first = scalars[column]
        if ScenarioReader.isDash(scalars, at: column) { return .dash }
        switch first {
        case "\"", "'":
            let quoted = try readQuoted(line, at: column)
            let after = ScenarioReader.skipBlanks(scalars, from: quoted.end)
            if after < scalars.count, scalars[after] == ":",
                after + 1 == scalars.count || ScenarioReader.isBlank(scalars[after + 1])
            {
                return .key(
                    text: quoted.scalar.text, location: location(line, column),
                    afterColon: after + 1)
            }
            return .value
        case "[", "{", "|":
            return .value
        default:
            guard ScenarioReader.canStartPlain(scalars, at: column, inFlow: false) else {
                throw unsupportedStart(line, at: column, inFlow: false)
            }
            let plain = ScenarioReader.scanPlain(scalars, from: column, inFlow: false)
            guard plain.stop < scalars.count, scalars[plain.stop] == ":" else { return .value }
            return .key(
                text: plain.text, location: location(line, column), afterColon: plain.stop + 1)
        }
    }

    /// Reads a scalar, flow collection or block text at `column` into the open slot.
    private mutating func readValue(
        _ line: ScenarioReader.Line, at column: Int, ownLine: Bool
    ) throws(ScenarioError) {
        let scalars = line.scalars
        switch scalars[column] {
        case "[", "{":
            let flow = try readFlow(line, at: column)
            try expectLineEnd(line, at: flow.end, after: "the flow collection")
            fill(flow.node)
        case "\"", "'":
            let quoted = try readQuoted(line, at: column)
            try expectLineEnd(line, at: quoted.end, after: "the quoted value")
            fill(Node(.scalar(quoted.scalar), at: location(line, column)))
        case "|":
            let text = try readBlockText(line, at: column)
            fill(text)
        default:
            let plain = ScenarioReader.scanPlain(scalars, from: column, inFlow: false)
            try expectLineEnd(line, at: plain.stop, after: "the value \"\(ScenarioReader.escaped(plain.text))\"")
            let scalar = try typedPlain(plain.text, at: location(line, column))
            fill(Node(.scalar(scalar), at: location(line, column)))
            lastLineEndedInPlainValue = true
            if ownLine {
                looseScalar = LooseScalar(
                    indent: column, text: plain.text,
                    end: location(line, column + plain.text.unicodeScalars.count))
            }
        }
    }

    /// Opens a block collection for the top block's slot.
    private mutating func open(
        _ kind: Block.Kind, indent: Int, at location: Scenario.SourceLocation
    ) throws(ScenarioError) {
        guard blockDepth < ScenarioReader.maximumDepth else {
            throw ScenarioError(
                "nesting deeper than \(ScenarioReader.maximumDepth) levels", at: location, code: .syntax)
        }
        stack.append(Block(kind: kind, indent: indent, location: location))
    }

    /// Adds a key to the top block, a mapping, and opens its slot.
    private mutating func addKey(
        _ key: String, at keyLocation: Scenario.SourceLocation, emptyLocation: Scenario.SourceLocation
    ) throws(ScenarioError) {
        let top = stack.count - 1
        if let firstLine = stack[top].keyLines[key] {
            throw ScenarioError(
                "duplicate key \"\(ScenarioReader.escaped(key))\": it is already defined on line \(firstLine)",
                at: keyLocation, code: .syntax)
        }
        stack[top].keyLines[key] = keyLocation.line
        stack[top].slot = Slot(key: key, keyLocation: keyLocation, emptyLocation: emptyLocation)
    }

    /// Gives the top block's open slot its value.
    private mutating func fill(_ node: Node) {
        let top = stack.count - 1
        guard let slot = stack[top].slot else { return }
        stack[top].slot = nil
        switch stack[top].kind {
        case .document:
            root = node
        case .mapping:
            stack[top].entries.append(
                Node.Entry(key: slot.key, keyLocation: slot.keyLocation, value: node))
        case .sequence:
            stack[top].items.append(node)
        }
    }

    /// Gives the top block's open slot, if any, the empty value.
    private mutating func fillEmptySlot() {
        guard let slot = stack[stack.count - 1].slot else { return }
        fill(Node(.scalar(Scalar(text: "", kind: .null, style: .plain)), at: slot.emptyLocation))
    }

    /// Closes the deepest open block and hands it to its parent's slot.
    private mutating func closeTop() {
        guard stack.count > 1 else { return }
        fillEmptySlot()
        let block = stack.removeLast()
        switch block.kind {
        case .mapping:
            fill(Node(.mapping(block.entries), at: block.location))
        case .sequence:
            fill(Node(.sequence(block.items), at: block.location))
        case .document:
            break
        }
    }

    // MARK: Errors

    /// The error for a value where a `key: value` was expected.
    private func missingKeySeparator(
        _ line: ScenarioReader.Line, at column: Int
    ) throws(ScenarioError) -> ScenarioError {
        let scalars = line.scalars
        switch scalars[column] {
        case "\"", "'":
            let quoted = try readQuoted(line, at: column)
            return missingColon(after: quoted.scalar.text, at: location(line, quoted.end))
        case "[", "{", "|":
            return error(
                "expected \"key: value\" at this indentation, found \(ScenarioReader.describe(scalars, at: column))",
                line, column)
        default:
            let plain = ScenarioReader.scanPlain(scalars, from: column, inFlow: false)
            let end = column + plain.text.unicodeScalars.count
            if let colon = plain.text.unicodeScalars.firstIndex(of: ":") {
                let offset = plain.text.unicodeScalars.distance(
                    from: plain.text.unicodeScalars.startIndex, to: colon)
                return error(
                    "expected a space after \":\" in \"\(ScenarioReader.escaped(plain.text))\" to separate the key from its value",
                    line, column + offset + 1)
            }
            return missingColon(after: plain.text, at: location(line, end))
        }
    }

    func missingColon(after key: String, at location: Scenario.SourceLocation) -> ScenarioError {
        ScenarioError("expected \":\" after the key \"\(ScenarioReader.escaped(key))\"", at: location, code: .syntax)
    }

    func location(_ line: ScenarioReader.Line, _ index: Int) -> Scenario.SourceLocation {
        Scenario.SourceLocation(file: file, line: line.number, column: index + 1)
    }

    func error(_ message: String, _ line: ScenarioReader.Line, _ index: Int) -> ScenarioError {
        ScenarioError(message, at: location(line, index), code: .syntax)
    }
}
