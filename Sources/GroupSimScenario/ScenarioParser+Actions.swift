extension ScenarioParser.Context {
    static let sendKeys = ScenarioVocabulary.send.keys
    static let replyKeys = ScenarioVocabulary.reply.keys

    /// One action and where the session or person it names is written; nil (reported)
    /// when it is wrong.
    mutating func readAction(_ entry: Node.Entry) -> (action: Scenario.Action, subject: Scenario.SourceLocation)? {
        let node = entry.value
        guard let kind = Scenario.Action.Kind(keyword: entry.key) else { return nil }
        switch kind {
        case .send:
            return readCompose(node, keyword: entry.key).map { (.send($0.compose), $0.session) }
        case .reply:
            return readCompose(node, keyword: entry.key).map { (.reply($0.compose), $0.session) }
        case .insert:
            return readCompose(node, keyword: entry.key).map { (.insert($0.compose), $0.session) }
        case .pressSend:
            return happens(node, keyword: entry.key) ? (.pressSend, node.location) : nil
        case .cancel:
            return happens(node, keyword: entry.key) ? (.cancel, node.location) : nil
        case .close:
            return happens(node, keyword: entry.key) ? (.close, node.location) : nil
        case .reinstall:
            return happens(node, keyword: entry.key) ? (.reinstall, node.location) : nil
        case .offline:
            return happens(node, keyword: entry.key) ? (.offline, node.location) : nil
        case .online:
            return happens(node, keyword: entry.key) ? (.online, node.location) : nil
        case .open:
            return readStyle(node).map { (.open($0), node.location) }
        case .tap:
            return name(node, expected: "a session name").map { (.tap(session: $0), node.location) }
        case .text:
            guard let text = text(node, expected: "the message text") else { return nil }
            guard !text.isEmpty else {
                report("an empty text message cannot be sent", at: node.location)
                return nil
            }
            return (.text(text), node.location)
        case .sticker:
            return readSticker(node).map { (.sticker($0), node.location) }
        case .join:
            return knownPerson(node).map { (.join(person: $0), node.location) }
        case .leave:
            return knownPerson(node).map { (.leave(person: $0), node.location) }
        }
    }

    /// `press-send: true` and the like: written only when it happens.
    private mutating func happens(_ node: Node, keyword: String) -> Bool {
        guard let value = flag(node, expected: "true") else { return false }
        if !value {
            report("\(keyword): false does nothing; write the step only when it happens", at: node.location)
        }
        return value
    }

    /// `open: compact` or `open: expanded`; `transcript` cannot be requested (M19).
    private mutating func readStyle(_ node: Node) -> Scenario.PresentationStyle? {
        let styles = ScenarioVocabulary.openStyles
        if case .scalar(let scalar) = node.value, scalar.text == Scenario.PresentationStyle.transcript.rawValue {
            report(
                "transcript style cannot be requested (M19): it is a per-bubble instance; open compact or expanded",
                at: node.location
            )
            return nil
        }
        return word(node, among: styles).flatMap(Scenario.PresentationStyle.init(rawValue:))
    }

    // MARK: send, reply, insert

    /// The payload of `send`, `reply` or `insert`, and where its session is written.
    ///
    /// Every session name a `send` or `insert` uses is recorded, even when the rest of the
    /// payload is wrong, so that replies to it are not reported as unknown as well.
    private mutating func readCompose(_ node: Node, keyword: String) -> (compose: Scenario.Compose, session: Scenario.SourceLocation)? {
        let createsSession = keyword != "reply"
        let misplaced = createsSession ? [:] : [
            "url": "reply takes session, data, the layout's fields, summary and direct; \"url\" is only for send and insert",
        ]
        guard let fields = fields(
            node, expected: "a mapping such as { session: poll, caption: \"Pick a topping\" }", place: keyword,
            allowed: createsSession ? Self.sendKeys : Self.replyKeys, misplaced: misplaced
        ) else {
            if createsSession { knowsAllSessions = false }
            return nil
        }
        var valid = true
        let sessionNode = required("session", in: fields, place: keyword)
        let session = sessionNode.flatMap { name($0, expected: "a session name") }
        if createsSession {
            if let session {
                if sessionNameSet.insert(session).inserted { sessionNames.append(session) }
            } else {
                knowsAllSessions = false
            }
        }

        var data: [Scenario.DataEntry] = []
        if let node = fields.optional("data") {
            if let entries = readData(node, checkingTokens: true) { data = entries } else { valid = false }
        }
        var texts: [String: String] = [:]
        for key in Scenario.Compose.LayoutField.allCases.map(\.rawValue) + ["summary", "url"] {
            guard let node = fields.optional(key) else { continue }
            guard let text = text(node, expected: "text") else {
                valid = false
                continue
            }
            if key != "url", key != Scenario.Compose.LayoutField.image.rawValue { checkTokens(in: text, at: node.location, field: key) }
            texts[key] = text
        }
        var direct = false
        if let entry = fields.optionalEntry("direct") {
            if let value = flag(entry.value) {
                direct = value
            } else {
                valid = false
            }
        }
        guard valid, let session, let sessionNode else { return nil }
        var compose = Scenario.Compose(session: session, data: data, summary: texts["summary"], url: texts["url"], direct: direct)
        for field in Scenario.Compose.LayoutField.allCases { compose[field] = texts[field.rawValue] }
        return (compose, sessionNode.location)
    }

    /// `data:` a mapping of keys to scalar values, kept as text in file order.
    mutating func readData(_ node: Node, checkingTokens: Bool) -> [Scenario.DataEntry]? {
        guard let entries = mapping(node, expected: "a mapping of keys to values such as { q: topping }") else { return nil }
        var data: [Scenario.DataEntry] = []
        var valid = true
        for entry in entries {
            if entry.key.isEmpty {
                report("a data key must not be empty", at: entry.keyLocation)
                valid = false
            } else if !withinTextLimit(entry.key, at: entry.keyLocation) {
                valid = false
            }
            guard let value = text(entry.value, expected: "a value for \(Self.quoted(entry.key)) such as topping") else {
                valid = false
                continue
            }
            if checkingTokens {
                checkTokens(in: entry.key, at: entry.keyLocation, field: "data")
                checkTokens(in: value, at: entry.value.location, field: "data")
            }
            data.append(Scenario.DataEntry(entry.key, value))
        }
        return valid ? data : nil
    }

    // MARK: $ tokens

    /// The names of the `$NAME` tokens in `text`, in order: `$` followed by an ASCII
    /// letter starts a token, which runs over ASCII letters, digits, `_` and `-`. A `$`
    /// followed by anything else (`$5`, `$ `, the end) is plain text.
    static func tokenNames(in text: String) -> [String] {
        var names: [String] = []
        var scalars = text.unicodeScalars[...]
        while let dollar = scalars.firstIndex(of: "$") {
            scalars = scalars[scalars.index(after: dollar)...]
            guard let first = scalars.first, first.isASCII, first.properties.isAlphabetic else { continue }
            let name = scalars.prefix { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }
            names.append(String(String.UnicodeScalarView(name)))
            scalars = scalars.dropFirst(name.count)
        }
        return names
    }

    /// Reports each `$NAME` token that is neither `$me` nor a person in the file.
    private mutating func checkTokens(in text: String, at location: Scenario.SourceLocation, field: String) {
        guard knowsAllPeople else { return }
        for name in Self.tokenNames(in: text) where name != "me" && personIndex[name] == nil {
            report(
                "unknown person \(Self.quoted("$" + name)) in \(field)", at: location, nearestTo: name, in: [["me"], personKeys],
                prefix: "$"
            )
        }
    }

    // MARK: sticker

    /// `sticker: {file, description}` or `{format, bytes, pixels, description}`.
    private mutating func readSticker(_ node: Node) -> Scenario.StickerSpec? {
        let place = "sticker"
        guard let fields = fields(
            node, expected: "a sticker such as { file: pickle.png, description: Pickle }", place: place,
            allowed: ScenarioVocabulary.sticker.keys
        ) else { return nil }
        let description = required("description", in: fields, place: place).flatMap { text($0, expected: "a description") }
        if let fileNode = fields["file"] {
            var valid = true
            for key in ["format", "bytes", "pixels"] {
                guard let entry = fields.entry(key) else { continue }
                report(
                    "a sticker is either a file or described by format, bytes and pixels; remove \(Self.quoted(key)) or file",
                    at: entry.keyLocation
                )
                valid = false
            }
            // A path may be longer than a name: it is text (up to the text limit), not empty.
            var path = text(fileNode, expected: "a file path such as pickle.png")
            if path?.isEmpty == true {
                expected("a file path such as pickle.png", found: fileNode)
                path = nil
            }
            guard valid, let path, let description else { return nil }
            return .file(path: path, description: description)
        }
        let format = required("format", in: fields, place: place).flatMap { name($0, expected: "an image format such as png") }
        let bytes = required("bytes", in: fields, place: place).flatMap { count($0, expected: "a size in bytes such as 120000") }
        let pixels = required("pixels", in: fields, place: place).flatMap { count($0, expected: "a side in pixels such as 408") }
        guard let format, let bytes, let pixels, let description else { return nil }
        return .described(format: format, bytes: bytes, pixels: pixels, description: description)
    }
}
