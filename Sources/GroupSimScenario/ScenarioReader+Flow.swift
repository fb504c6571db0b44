extension ScenarioReader.Parser {
    /// A flow collection still open on the line: its contents so far and what may come
    /// next.
    private struct FlowCollection {
        enum State {
            /// Just after the opening bracket.
            case start
            /// After a value: `,` or the closing bracket.
            case afterValue
            /// After a `,`: a value (or key), or the closing bracket.
            case afterComma
            /// In a mapping, after a key: `:`.
            case afterKey
            /// In a mapping, after the `:`: a value, or `,` or `}` for an empty one.
            case afterColon
        }

        struct Key {
            var text: String
            var location: Scenario.SourceLocation
            var emptyLocation: Scenario.SourceLocation
        }

        let isMapping: Bool
        let location: Scenario.SourceLocation
        var state = State.start
        var items: [Node] = []
        var entries: [Node.Entry] = []
        var keyLines: [String: Int] = [:]
        var key: Key?

        init(isMapping: Bool, location: Scenario.SourceLocation) {
            self.isMapping = isMapping
            self.location = location
        }

        var opener: String { isMapping ? "{" : "[" }
        var closer: Unicode.Scalar { isMapping ? "}" : "]" }

        mutating func add(_ node: Node) {
            if isMapping, let key {
                entries.append(Node.Entry(key: key.text, keyLocation: key.location, value: node))
                self.key = nil
            } else {
                items.append(node)
            }
            state = .afterValue
        }

        var node: Node {
            Node(isMapping ? .mapping(entries) : .sequence(items), at: location)
        }
    }

    /// Reads the flow collection whose `[` or `{` is at `column`; it must close on the
    /// same line.
    ///
    /// Open collections are an explicit stack, so nesting costs no stack frames; with
    /// the open blocks it may not go deeper than `ScenarioReader.maximumDepth`.
    ///
    /// - Returns: the collection and the index just after its closing bracket.
    func readFlow(
        _ line: ScenarioReader.Line, at column: Int
    ) throws(ScenarioError) -> (node: Node, end: Int) {
        let scalars = line.scalars
        var open: [FlowCollection] = []
        var index = column
        try push(&open, line, at: index)
        index += 1
        while var collection = open.popLast() {
            index = ScenarioReader.skipBlanks(scalars, from: index)
            if ScenarioReader.isLineEnd(scalars, at: index) {
                throw ScenarioError(
                    "unclosed \"\(collection.opener)\": expected \"\(collection.closer)\" before the end of the line",
                    at: collection.location, code: .syntax)
            }
            let scalar = scalars[index]
            if scalar == collection.closer, collection.state != .afterKey {
                if collection.state == .afterColon, let key = collection.key {
                    collection.add(empty(at: key.emptyLocation))
                }
                index += 1
                let node = collection.node
                guard var parent = open.popLast() else { return (node, index) }
                parent.add(node)
                open.append(parent)
                continue
            }
            switch collection.state {
            case .afterValue:
                guard scalar == "," else {
                    throw expected(
                        "\",\" or \"\(collection.closer)\"", found: scalars, at: index, line,
                        hint: !collection.isMapping && scalar == ":"
                            ? "; a mapping inside a sequence needs braces: [{ key: value }]" : "")
                }
                collection.state = .afterComma
                index += 1
                open.append(collection)
            case .afterKey:
                guard scalar == ":" else {
                    let key = ScenarioReader.escaped(collection.key?.text ?? "")
                    throw expected("\":\" after the key \"\(key)\"", found: scalars, at: index, line)
                }
                collection.key?.emptyLocation = location(line, index + 1)
                collection.state = .afterColon
                index += 1
                open.append(collection)
            case .start, .afterComma, .afterColon:
                if collection.state == .afterColon, scalar == "," {
                    if let key = collection.key {
                        collection.add(empty(at: key.emptyLocation))
                    }
                    collection.state = .afterComma
                    index += 1
                } else if collection.isMapping, collection.state != .afterColon {
                    index = try readFlowKey(into: &collection, line, at: index)
                } else if scalar == "[" || scalar == "{" {
                    open.append(collection)
                    try push(&open, line, at: index)
                    index += 1
                    continue
                } else {
                    let value = try readFlowScalar(line, at: index, expecting: collection)
                    collection.add(value.node)
                    index = value.end
                }
                open.append(collection)
            }
        }
        // Unreachable: the loop returns when the outermost collection closes.
        throw ScenarioError("unclosed flow collection", at: location(line, column), code: .syntax)
    }

    /// Opens the flow collection whose bracket is at `index`.
    private func push(
        _ open: inout [FlowCollection], _ line: ScenarioReader.Line, at index: Int
    ) throws(ScenarioError) {
        let location = location(line, index)
        guard blockDepth + open.count < ScenarioReader.maximumDepth else {
            throw ScenarioError(
                "nesting deeper than \(ScenarioReader.maximumDepth) levels", at: location, code: .syntax)
        }
        open.append(FlowCollection(isMapping: line.scalars[index] == "{", location: location))
    }

    /// Reads a key of a flow mapping at `index`, checking it is not a duplicate.
    ///
    /// - Returns: the index just after the key.
    private func readFlowKey(
        into collection: inout FlowCollection, _ line: ScenarioReader.Line, at index: Int
    ) throws(ScenarioError) -> Int {
        let scalars = line.scalars
        let text: String
        let end: Int
        switch scalars[index] {
        case "\"", "'":
            let quoted = try readQuoted(line, at: index)
            (text, end) = (quoted.scalar.text, quoted.end)
        case "[", "{":
            throw error(
                "a flow collection cannot be a key: expected a key or \"}\", found \"\(scalars[index])\"",
                line, index)
        case ",":
            throw expected("a key or \"}\"", found: scalars, at: index, line)
        default:
            guard ScenarioReader.canStartPlain(scalars, at: index, inFlow: true) else {
                throw unsupportedStart(line, at: index, inFlow: true)
            }
            let plain = ScenarioReader.scanPlain(scalars, from: index, inFlow: true)
            (text, end) = (plain.text, plain.stop)
        }
        let keyLocation = location(line, index)
        if let firstLine = collection.keyLines[text] {
            throw ScenarioError(
                "duplicate key \"\(ScenarioReader.escaped(text))\": it is already defined on line \(firstLine)",
                at: keyLocation, code: .syntax)
        }
        collection.keyLines[text] = line.number
        collection.key = FlowCollection.Key(
            text: text, location: keyLocation, emptyLocation: location(line, end))
        collection.state = .afterKey
        return end
    }

    /// Reads a quoted or plain scalar value inside a flow collection.
    private func readFlowScalar(
        _ line: ScenarioReader.Line, at index: Int, expecting collection: FlowCollection
    ) throws(ScenarioError) -> (node: Node, end: Int) {
        let scalars = line.scalars
        let start = location(line, index)
        switch scalars[index] {
        case "\"", "'":
            let quoted = try readQuoted(line, at: index)
            return (Node(.scalar(quoted.scalar), at: start), quoted.end)
        case ",", "]", "}":
            throw expected("a value or \"\(collection.closer)\"", found: scalars, at: index, line)
        default:
            guard ScenarioReader.canStartPlain(scalars, at: index, inFlow: true) else {
                throw unsupportedStart(line, at: index, inFlow: true)
            }
            let plain = ScenarioReader.scanPlain(scalars, from: index, inFlow: true)
            let scalar = try typedPlain(plain.text, at: start)
            return (Node(.scalar(scalar), at: start), plain.stop)
        }
    }

    private func empty(at location: Scenario.SourceLocation) -> Node {
        Node(.scalar(Scalar(text: "", kind: .null, style: .plain)), at: location)
    }

    private func expected(
        _ what: String, found scalars: [Unicode.Scalar], at index: Int,
        _ line: ScenarioReader.Line, hint: String = ""
    ) -> ScenarioError {
        error("expected \(what), found \(ScenarioReader.describe(scalars, at: index))\(hint)", line, index)
    }
}
