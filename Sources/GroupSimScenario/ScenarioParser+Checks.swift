import GroupSimCore

extension ScenarioParser.Context {
    /// Every check keyword, in the order docs/scenario-format.md lists them.
    static let checkKeywords = Scenario.Check.Kind.keywords

    /// The names a `callbacks:` check accepts: every callback the timeline prints.
    static let callbackNames = AppCallback.names

    /// The keys a check's mapping takes, from its kind's descriptor.
    static func checkKeys(_ kind: Scenario.Check.Kind) -> [String] {
        guard case .object(let shape) = kind.descriptor.value else { return [] }
        return shape.keys
    }

    /// `expect:` a list of single-key mappings.
    mutating func readChecks(_ node: Node) -> [Scenario.CheckSpec] {
        guard let items = list(node, expected: "a list of checks such as [{ converged: poll }]") else { return [] }
        return items.compactMap { readCheck($0) }
    }

    private mutating func readCheck(_ node: Node) -> Scenario.CheckSpec? {
        guard let entries = mapping(node, expected: "a check such as { converged: poll }") else { return nil }
        guard let entry = entries.first else {
            report("a check needs one of \(Self.alternatives(Self.checkKeywords))", at: node.location)
            return nil
        }
        for extra in entries.dropFirst() {
            report(
                "a check has one key, but this one has both \(Self.quoted(entry.key)) and \(Self.quoted(extra.key)); write two checks",
                at: extra.keyLocation
            )
        }
        guard Self.checkKeywords.contains(entry.key) else {
            reportUnknown("check", entry.key, at: entry.keyLocation, candidates: Self.checkKeywords)
            return nil
        }
        guard let check = readCheck(entry), entries.count == 1 else { return nil }
        return Scenario.CheckSpec(check, location: node.location)
    }

    private mutating func readCheck(_ entry: Node.Entry) -> Scenario.Check? {
        let node = entry.value
        let place = entry.key
        guard let kind = Scenario.Check.Kind(keyword: entry.key) else { return nil }
        switch kind {
        case .latest:
            guard let fields = fields(
                node, expected: "a mapping such as { device: alice-phone, session: poll }", place: place,
                allowed: Self.checkKeys(.latest)
            ) else { return nil }
            let device = required("device", in: fields, place: place).flatMap { knownDevice($0) }
            let session = required("session", in: fields, place: place).flatMap { knownSession($0) }
            var valid = true
            var from: String?
            if let node = fields.optional("from") {
                from = knownPerson(node)
                valid = valid && from != nil
            }
            var data: [Scenario.DataEntry] = []
            if let node = fields.optional("data") {
                if let entries = readData(node, checkingTokens: false) { data = entries } else { valid = false }
            }
            var caption: String?
            if let node = fields.optional("caption") {
                caption = text(node, expected: "the caption as drawn")
                valid = valid && caption != nil
            }
            var layout = Scenario.LayoutExpectation()
            for field in Scenario.Compose.LayoutField.allCases where field != .caption {
                guard let node = fields.optional(field.rawValue) else { continue }
                layout.fields[field] = text(node, expected: "the \(field.rawValue) as drawn")
                valid = valid && layout.fields[field] != nil
            }
            if let entry = fields.optionalEntry("caption-bar") {
                layout.captionBar = flag(entry.value)
                valid = valid && layout.captionBar != nil
            }
            guard valid, let device, let session else { return nil }
            return .latest(device: device, session: session, from: from, data: data, caption: caption, layout: layout)

        case .plain:
            guard let fields = fields(
                node, expected: "a mapping such as { device: bob-old, count: 2 }", place: place, allowed: Self.checkKeys(.plain)
            ) else { return nil }
            let device = required("device", in: fields, place: place).flatMap { knownDevice($0) }
            let (count, texts, valid) = countAndTexts(fields, expected: "a number of plain messages such as 2", unit: "message")
            guard valid, let device else { return nil }
            return .plain(device: device, count: count, texts: texts)

        case .summaries:
            guard let fields = fields(
                node, expected: "a mapping such as { device: alice-phone, session: poll, count: 2 }", place: place,
                allowed: Self.checkKeys(.summaries)
            ) else { return nil }
            let device = required("device", in: fields, place: place).flatMap { knownDevice($0) }
            let session = required("session", in: fields, place: place).flatMap { knownSession($0) }
            let (count, texts, valid) = countAndTexts(fields, expected: "a number of summary lines such as 2", unit: "line")
            guard valid, let device, let session else { return nil }
            return .summaries(device: device, session: session, count: count, texts: texts)

        case .converged:
            return knownSession(node).map { .converged(session: $0) }

        case .diverged:
            return knownSession(node).map { .diverged(session: $0) }

        case .complete:
            guard let fields = fields(
                node, expected: "a mapping such as { session: poll, data: { bob: tomatoes } }", place: place,
                allowed: Self.checkKeys(.complete)
            ) else { return nil }
            let session = required("session", in: fields, place: place).flatMap { knownSession($0) }
            let data = required("data", in: fields, place: place).flatMap { readData($0, checkingTokens: false) }
            guard let session, let data else { return nil }
            return .complete(session: session, data: data)

        case .pitfalls:
            guard let items = list(node, expected: "a list of pitfall kinds such as [lost-update, divergence]") else { return nil }
            if items.isEmpty {
                report("pitfalls lists none; to expect no pitfalls, write no-pitfalls: true", at: node.location)
                return nil
            }
            return pitfallKinds(items).map { .pitfalls($0) }

        case .noPitfalls:
            if case .sequence(let items) = node.value {
                if items.isEmpty {
                    report("no-pitfalls lists none; to expect no pitfalls at all, write no-pitfalls: true", at: node.location)
                    return nil
                }
                return pitfallKinds(items).map { .noPitfallsOf($0) }
            }
            guard let value = flag(node, expected: "true or a list of pitfall kinds such as [lost-update]") else { return nil }
            guard value else {
                report("no-pitfalls takes true or a list of pitfall kinds; to expect pitfalls, write pitfalls: [...]", at: node.location)
                return nil
            }
            return .noPitfalls

        case .callbacks:
            guard let fields = fields(
                node, expected: "a mapping such as { device: alice-phone, sequence: [willBecomeActive, didBecomeActive] }",
                place: place, allowed: Self.checkKeys(.callbacks)
            ) else { return nil }
            let device = required("device", in: fields, place: place).flatMap { knownDevice($0) }
            let sequence = required("sequence", in: fields, place: place).flatMap { readCallbacks($0) }
            guard let device, let sequence else { return nil }
            return .callbacks(device: device, sequence: sequence)

        case .error:
            guard let fields = fields(
                node, expected: "a mapping such as { step: 2, code: noBubble }", place: place, allowed: Self.checkKeys(.error)
            ) else { return nil }
            let step = required("step", in: fields, place: place).flatMap { readStepNumber($0) }
            let code = required("code", in: fields, place: place).flatMap { readErrorCode($0) }
            guard let step, let code else { return nil }
            return .error(step: step, code: code)
        }
    }

    /// Pitfall kinds by keyword, each checked; nil when any is unknown.
    private mutating func pitfallKinds(_ items: [Node]) -> [Scenario.PitfallKind]? {
        let kinds = items.compactMap { item in word(item, among: Scenario.PitfallKind.keywords).flatMap(Scenario.PitfallKind.init(keyword:)) }
        return kinds.count == items.count ? kinds : nil
    }

    /// A session some `send` or `insert` creates.
    private mutating func knownSession(_ node: Node) -> String? {
        guard let session = name(node, expected: "a session name") else { return nil }
        if sessionNameSet.contains(session) { return session }
        reportUnknownSession(session, at: node.location)
        return nil
    }

    /// `texts:` the summary lines as drawn.
    /// The optional `count` and `texts` of a check that counts what a device shows
    /// (`summaries`, `plain`), and whether both read; a count that disagrees with the
    /// texts listed is reported at the count, in `unit`s.
    private mutating func countAndTexts(_ fields: ScenarioParser.Fields, expected: String, unit: String)
        -> (count: Int?, texts: [String]?, valid: Bool) {
        var valid = true
        var count: Int?
        if let node = fields.optional("count") {
            count = self.count(node, expected: expected)
            valid = valid && count != nil
        }
        var texts: [String]?
        if let node = fields.optional("texts") {
            texts = readTexts(node)
            valid = valid && texts != nil
        }
        if let count, let texts, count != texts.count, let node = fields["count"] {
            report("count is \(count) but texts lists \(texts.count == 1 ? "1 \(unit)" : "\(texts.count) \(unit)s")", at: node.location)
            valid = false
        }
        return (count, texts, valid)
    }

    private mutating func readTexts(_ node: Node) -> [String]? {
        guard let items = list(node, expected: "a list of summary lines such as [\"Alice asked\"]") else { return nil }
        let texts = items.compactMap { text($0, expected: "a summary line") }
        return texts.count == items.count ? texts : nil
    }

    /// `sequence:` callback names (docs/behaviour.md), in order.
    private mutating func readCallbacks(_ node: Node) -> [AppCallback]? {
        guard let items = list(node, expected: "a list of callbacks such as [willBecomeActive, didBecomeActive]") else { return nil }
        var callbacks: [AppCallback] = []
        for item in items {
            guard let name = name(item, expected: "a callback name") else { continue }
            guard let callback = AppCallback(rawValue: name) else {
                reportUnknown("callback", name, at: item.location, candidates: Self.callbackNames)
                continue
            }
            callbacks.append(callback)
        }
        return callbacks.count == items.count ? callbacks : nil
    }

    /// A step number: 1 to the number of steps, counting a race's steps and not the race.
    private mutating func readStepNumber(_ node: Node) -> Int? {
        guard let number = count(node, expected: "a step number such as 2") else { return nil }
        guard knowsStepCount else { return number }
        guard (1...max(stepCount, 1)).contains(number), stepCount > 0 else {
            let steps = switch stepCount {
            case 0: "the file has no steps"
            case 1: "the file has 1 step"
            default: "the file has \(stepCount) steps (1 to \(stepCount), counting each step of a race)"
            }
            report("step \(number) is out of range; \(steps)", at: node.location)
            return nil
        }
        return number
    }

    /// An error code by name (`noBubble`) or number (`8`).
    private mutating func readErrorCode(_ node: Node) -> MessageErrorCode? {
        let names = MessageErrorCode.allCases.map(\.name)
        guard case .scalar(let scalar) = node.value, scalar.kind != .null else {
            expected("an error code such as noBubble or 8", found: node)
            return nil
        }
        let code: MessageErrorCode?
        if case .integer(let number) = scalar.kind {
            code = Int(exactly: number).flatMap(MessageErrorCode.init(rawValue:))
        } else {
            code = MessageErrorCode(name: scalar.text)
        }
        if let code { return code }
        let suggestion = Suggestion.nearest(to: scalar.text, in: names)
        let known = MessageErrorCode.allCases.map(\.description).joined(separator: ", ")
        report(
            "unknown error code \(Self.quoted(scalar.text))" + (suggestion == nil ? "; codes: \(known)" : ""),
            at: node.location, suggestion: suggestion
        )
        return nil
    }
}
