import GroupSimCore

extension ScenarioParser.Context {
    // MARK: network

    /// `network: {latency, jitter, links, fifo}`; every key optional, defaults as `NetworkSpec`.
    mutating func readNetwork(_ node: Node) -> Scenario.NetworkSpec {
        var network = Scenario.NetworkSpec()
        guard let fields = fields(
            node, expected: "network settings such as { latency: 80ms }", place: "network", allowed: ScenarioVocabulary.network.keys
        ) else { return network }
        if let node = fields.optional("latency"), let latency = duration(node) { network.latency = latency }
        if let node = fields.optional("jitter"), let jitter = duration(node) { network.jitter = jitter }
        if let node = fields.optional("fifo"), let fifo = flag(node) { network.fifo = fifo }
        if let node = fields.optional("links"),
           let items = list(node, expected: "a list of links such as [{ from: bob, to: alice, latency: 10ms }]") {
            network.links = items.compactMap { readLink($0) }
        }
        return network
    }

    /// One `links:` entry: `{from, to, latency?, jitter?}`.
    private mutating func readLink(_ node: Node) -> Scenario.LinkSpec? {
        let place = "a link"
        guard let fields = fields(
            node, expected: "a link such as { from: bob, to: alice, latency: 10ms }", place: place,
            allowed: ScenarioVocabulary.link.keys
        ) else { return nil }
        let from = required("from", in: fields, place: place).flatMap { endpoint($0) }
        let to = required("to", in: fields, place: place).flatMap { endpoint($0) }
        var latency: VirtualDuration?
        var jitter: VirtualDuration?
        var valid = true
        if let node = fields.optional("latency") {
            latency = duration(node)
            valid = valid && latency != nil
        }
        if let node = fields.optional("jitter") {
            jitter = duration(node)
            valid = valid && jitter != nil
        }
        guard let from, let to, valid else { return nil }
        if case .device(let name) = from, from == to, let toNode = fields["to"] {
            report("a link from \(name) to itself carries nothing: a device never receives its own copies", at: toNode.location)
            return nil
        }
        return Scenario.LinkSpec(from: from, to: to, latency: latency, jitter: jitter)
    }

    /// A link end: a person key (all their devices) or a device name.
    private mutating func endpoint(_ node: Node) -> Scenario.LinkSpec.Endpoint? {
        guard let name = name(node, expected: "a person or device") else { return nil }
        if personIndex[name] != nil { return .person(name) }
        if deviceIndex[name] != nil { return .device(name) }
        if knowsAllPeople, knowsAllDevices {
            reportUnknown("person or device", name, at: node.location, in: [personKeys, deviceNames])
        }
        return nil
    }

    // MARK: app

    /// `app: {name, state, cloud-latency, identity, selection, record-key, push}`. `name` must be one of the
    /// registered apps.
    mutating func readApp(_ node: Node) -> Scenario.AppSpec {
        var app = Scenario.AppSpec()
        guard let fields = fields(
            node, expected: "app settings such as { state: cloud-merge }", place: "app", allowed: ScenarioVocabulary.app.keys
        ) else { return app }
        if let node = fields.optional("name"), let name = name(node, expected: "an app name") {
            if registeredApps.contains(name) {
                app.name = name
            } else {
                let registered = registeredApps.isEmpty
                    ? "none (leave out app.name to use the built-in app)"
                    : registeredApps.joined(separator: ", ")
                report(
                    "unknown app \(Self.quoted(name)); registered apps: \(registered)", at: node.location,
                    suggestion: Suggestion.nearest(to: name, in: registeredApps)
                )
            }
        }
        if let node = fields.optional("state"), let state = choice(node, of: Scenario.AppSpec.StateMode.self) { app.state = state }
        if let node = fields.optional("cloud-latency"), let latency = duration(node) { app.cloudLatency = latency }
        if let node = fields.optional("identity"), let identity = choice(node, of: Scenario.AppSpec.Identity.self) { app.identity = identity }
        if let node = fields.optional("selection"), let selection = choice(node, of: Scenario.AppSpec.Selection.self) { app.selection = selection }
        if let node = fields.optional("push"), let push = choice(node, of: Scenario.AppSpec.Push.self) { app.push = push }
        if let node = fields.optional("record-key"), let key = recordKey(node) {
            if app.state.usesCloud {
                app.recordKey = key
            } else {
                report(
                    "record-key names the query item that carries the cloud record's name, but app.state is message "
                        + "(the state travels in the URL); set app.state to cloud-overwrite, cloud-merge or cloud-cas, "
                        + "or leave out record-key",
                    at: node.location
                )
            }
        }
        return app
    }

    /// `app.record-key`: a query item name of unreserved URL characters (letters, digits,
    /// `-`, `_`, `.`, `~`), so that it reads the same encoded and decoded.
    private mutating func recordKey(_ node: Node) -> String? {
        let what = "a URL query item name such as poll"
        guard let key = name(node, expected: what) else { return nil }
        let unreserved = key.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.~".unicodeScalars.contains(scalar))
        }
        guard unreserved else {
            report(
                "expected \(what), of letters, digits, -, _, . or ~ (the name before = in ?poll=lunch), found \(Self.quoted(key))",
                at: node.location
            )
            return nil
        }
        return key
    }

    // MARK: options

    /// `options: {nil-summary, identifiers, summary-lines, recent-interaction}` (M10, M6,
    /// M14, M18).
    mutating func readOptions(_ node: Node) -> Scenario.Options {
        var options = Scenario.Options()
        guard let fields = fields(
            node, expected: "options such as { nil-summary: default-text }", place: "options",
            allowed: ScenarioVocabulary.options.keys
        ) else { return options }
        if let node = fields.optional("nil-summary"), let value = choice(node, of: Scenario.Options.NilSummary.self) {
            options.nilSummary = value
        }
        if let node = fields.optional("identifiers"), let value = choice(node, of: Scenario.Options.Identifiers.self) {
            options.identifiers = value
        }
        if let node = fields.optional("summary-lines"), let value = count(node, expected: "a non-negative integer such as 3") {
            options.summaryLines = value
        }
        if let node = fields.optional("recent-interaction"), let value = duration(node) {
            options.recentInteraction = value
        }
        return options
    }
}
