import GroupSimCore

/// Prints a `Scenario` back as a scenario file (docs/scenario-format.md).
///
/// `ScenarioParser.parse(text:file:)` reads the text back into an equal scenario, apart
/// from source locations, the file name and step numbers (the parser numbers steps in
/// file order). That holds for every scenario the parser can produce; a scenario built in
/// Swift that breaks one of the parser's rules (a person with no devices, an empty text
/// message, a `reply` with a `url`) prints as a file the parser rejects, with the
/// parser's message for it: `Scenario.validate` relies on that.
///
/// The layout follows the files in `Scenarios/`: top-level sections as block mappings,
/// each step as a block mapping with an absolute `at:` time, actions and checks as
/// one-line flow mappings. Only settings that differ from their defaults are written;
/// `seed` is always written so that the file replays the same run. Strings are written
/// plain when that is unambiguous, else in double quotes with escapes (so a caption
/// holding `"`, `#`, `: ` or a newline reads back exactly); a multi-line `about` is `|`
/// block text when it can be. Durations are written exactly with a unit (`80ms`, `1.5s`).
///
/// Deterministic: the output depends only on the scenario, in its array orders.
package enum ScenarioWriter {
    /// The scenario as scenario-file text, ending with a newline.
    package static func yaml(_ scenario: Scenario) -> String {
        var lines: [String] = []
        lines.append("name: \(scalar(scenario.name))")
        if let about = scenario.about {
            if let block = blockText(about, indent: "  ") {
                lines.append("about: \(block.header)")
                lines.append(contentsOf: block.lines)
            } else {
                lines.append("about: \(scalar(about))")
            }
        }
        lines.append("seed: \(scenario.seed)")

        lines.append("")
        lines.append(contentsOf: people(scenario))
        lines.append(contentsOf: deviceSettings(scenario))
        lines.append(contentsOf: conversations(scenario))
        lines.append(contentsOf: network(scenario.network))
        lines.append(contentsOf: app(scenario.app))
        lines.append(contentsOf: options(scenario.options))

        lines.append("")
        lines.append(contentsOf: steps(scenario.timeline))
        if !scenario.checks.isEmpty {
            lines.append("")
            lines.append("expect:")
            for spec in scenario.checks { lines.append("  - \(check(spec.check))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Sections

    private static func people(_ scenario: Scenario) -> [String] {
        guard !scenario.people.isEmpty else { return ["people: {}"] }
        var lines = ["people:"]
        for person in scenario.people {
            let devices = list(person.devices.map(scalar))
            if person.contactName == Scenario.Person.defaultContactName(for: person.key) {
                lines.append("  \(scalar(person.key)): \(devices)")
            } else {
                lines.append("  \(scalar(person.key)): \(mapping([("devices", devices), ("name", scalar(person.contactName))]))")
            }
        }
        return lines
    }

    /// `devices:` for the devices whose platform or app differs from the default, in
    /// the order of the people's device lists.
    private static func deviceSettings(_ scenario: Scenario) -> [String] {
        var lines: [String] = []
        for name in scenario.people.flatMap(\.devices) {
            guard let spec = scenario.device(name) else { continue }
            var fields: [(String, String)] = []
            if spec.platform != .ios { fields.append(("platform", spec.platform.rawValue)) }
            if !spec.hasApp { fields.append(("app", "missing")) }
            guard !fields.isEmpty else { continue }
            lines.append("  \(scalar(name)): \(mapping(fields))")
        }
        return lines.isEmpty ? [] : ["devices:"] + lines
    }

    /// Nothing for the default (one conversation `group` of everyone in order),
    /// `conversation: [...]` for one `group`, else `conversations:`.
    private static func conversations(_ scenario: Scenario) -> [String] {
        let all = scenario.conversations
        if all.count == 1, all[0].name == Scenario.ConversationSpec.defaultName {
            if all[0].members == scenario.people.map(\.key) { return [] }
            return ["conversation: \(list(all[0].members.map(scalar)))"]
        }
        guard !all.isEmpty else { return [] }
        return ["conversations:"] + all.map { "  \(scalar($0.name)): \(list($0.members.map(scalar)))" }
    }

    private static func network(_ network: Scenario.NetworkSpec) -> [String] {
        let defaults = Scenario.NetworkSpec()
        var lines: [String] = []
        if network.latency != defaults.latency { lines.append("  latency: \(duration(network.latency))") }
        if network.jitter != defaults.jitter { lines.append("  jitter: \(duration(network.jitter))") }
        if network.fifo != defaults.fifo { lines.append("  fifo: \(network.fifo)") }
        if !network.links.isEmpty {
            lines.append("  links:")
            for link in network.links {
                var fields = [("from", endpoint(link.from)), ("to", endpoint(link.to))]
                if let latency = link.latency { fields.append(("latency", duration(latency))) }
                if let jitter = link.jitter { fields.append(("jitter", duration(jitter))) }
                lines.append("    - \(mapping(fields))")
            }
        }
        return lines.isEmpty ? [] : ["network:"] + lines
    }

    private static func app(_ app: Scenario.AppSpec) -> [String] {
        let defaults = Scenario.AppSpec()
        var lines: [String] = []
        if let name = app.name { lines.append("  name: \(scalar(name))") }
        if app.state != defaults.state { lines.append("  state: \(app.state.rawValue)") }
        if app.cloudLatency != defaults.cloudLatency { lines.append("  cloud-latency: \(duration(app.cloudLatency))") }
        if app.identity != defaults.identity { lines.append("  identity: \(app.identity.rawValue)") }
        if app.selection != defaults.selection { lines.append("  selection: \(app.selection.rawValue)") }
        if app.recordKey != defaults.recordKey { lines.append("  record-key: \(scalar(app.recordKey))") }
        if app.push != defaults.push { lines.append("  push: \(app.push.rawValue)") }
        return lines.isEmpty ? [] : ["app:"] + lines
    }

    private static func options(_ options: Scenario.Options) -> [String] {
        let defaults = Scenario.Options()
        var lines: [String] = []
        if options.nilSummary != defaults.nilSummary { lines.append("  nil-summary: \(options.nilSummary.rawValue)") }
        if options.identifiers != defaults.identifiers { lines.append("  identifiers: \(options.identifiers.rawValue)") }
        if options.summaryLines != defaults.summaryLines { lines.append("  summary-lines: \(options.summaryLines)") }
        if options.recentInteraction != defaults.recentInteraction {
            lines.append("  recent-interaction: \(duration(options.recentInteraction))")
        }
        return lines.isEmpty ? [] : ["options:"] + lines
    }

    // MARK: - Steps

    /// Each step with its absolute time (`at:`), a race as a `race:` block.
    private static func steps(_ timeline: [Scenario.TimelineItem]) -> [String] {
        guard !timeline.isEmpty else { return ["steps: []"] }
        var lines = ["steps:"]
        for item in timeline {
            switch item {
            case .step(let step):
                lines.append("  - at: \(time(step.time))")
                lines.append("    device: \(scalar(step.device))")
                if let conversation = step.conversation { lines.append("    conversation: \(scalar(conversation))") }
                lines.append("    \(step.action.keyword): \(action(step.action))")
            case .race(let race):
                lines.append("  - at: \(time(race.time))")
                lines.append("    race:")
                lines.append("      within: \(duration(race.within))")
                if race.steps.isEmpty {
                    lines.append("      steps: []")
                    continue
                }
                lines.append("      steps:")
                for step in race.steps {
                    var fields = [("device", scalar(step.device))]
                    if let conversation = step.conversation { fields.append(("conversation", scalar(conversation))) }
                    fields.append((step.action.keyword, action(step.action)))
                    lines.append("        - \(mapping(fields))")
                }
            }
        }
        return lines
    }

    /// The value of an action's key, on one line.
    private static func action(_ action: Scenario.Action) -> String {
        switch action {
        case .send(let compose), .insert(let compose), .reply(let compose):
            compose.fields()
        case .pressSend, .cancel, .close, .reinstall, .offline, .online:
            "true"
        case .open(let style):
            scalar(style.rawValue)
        case .tap(let session):
            scalar(session)
        case .text(let text):
            scalar(text)
        case .sticker(.file(let path, let description)):
            mapping([("file", scalar(path)), ("description", scalar(description))])
        case .sticker(.described(let format, let bytes, let pixels, let description)):
            mapping([("format", scalar(format)), ("bytes", String(bytes)), ("pixels", String(pixels)),
                     ("description", scalar(description))])
        case .join(let person), .leave(let person):
            scalar(person)
        }
    }

    // MARK: - Checks

    /// A check as one `expect:` entry on one line, such as
    /// `complete: { session: poll, data: { bob: tomatoes } }`.
    package static func check(_ check: Scenario.Check) -> String {
        switch check {
        case .latest(let device, let session, let from, let data, let caption, let layout):
            var fields = [("device", scalar(device)), ("session", scalar(session))]
            if let from { fields.append(("from", scalar(from))) }
            if !data.isEmpty { fields.append(("data", dataMapping(data))) }
            if let caption { fields.append(("caption", scalar(caption))) }
            for (field, text) in layout.expected { fields.append((field.rawValue, scalar(text))) }
            if let bar = layout.captionBar { fields.append(("caption-bar", bar ? "true" : "false")) }
            return "latest: \(mapping(fields))"
        case .plain(let device, let count, let texts):
            var fields = [("device", scalar(device))]
            if let count { fields.append(("count", String(count))) }
            if let texts { fields.append(("texts", list(texts.map(scalar)))) }
            return "plain: \(mapping(fields))"
        case .summaries(let device, let session, let count, let texts):
            var fields = [("device", scalar(device)), ("session", scalar(session))]
            if let count { fields.append(("count", String(count))) }
            if let texts { fields.append(("texts", list(texts.map(scalar)))) }
            return "summaries: \(mapping(fields))"
        case .converged(let session):
            return "converged: \(scalar(session))"
        case .diverged(let session):
            return "diverged: \(scalar(session))"
        case .complete(let session, let data):
            return "complete: \(mapping([("session", scalar(session)), ("data", dataMapping(data))]))"
        case .pitfalls(let kinds):
            return "pitfalls: \(list(kinds.map(\.descriptor.keyword)))"
        case .noPitfalls:
            return "no-pitfalls: true"
        case .noPitfallsOf(let kinds):
            return "no-pitfalls: \(list(kinds.map(\.descriptor.keyword)))"
        case .callbacks(let device, let sequence):
            return "callbacks: \(mapping([("device", scalar(device)), ("sequence", list(sequence.map { scalar($0.rawValue) }))]))"
        case .error(let step, let code):
            return "error: \(mapping([("step", String(step)), ("code", code.name)]))"
        }
    }

    // MARK: - Values

    /// `{ key: value, other: value }`, or `{}`; keys are written as scalars.
    static func mapping(_ fields: [(key: String, value: String)]) -> String {
        guard !fields.isEmpty else { return "{}" }
        return "{ " + fields.map { "\(scalar($0.key)): \($0.value)" }.joined(separator: ", ") + " }"
    }

    /// `[a, b]`, or `[]`.
    static func list(_ items: [String]) -> String {
        "[" + items.joined(separator: ", ") + "]"
    }

    static func dataMapping(_ data: [Scenario.DataEntry]) -> String {
        mapping(data.map { ($0.key, scalar($0.value)) })
    }

    static func duration(_ duration: VirtualDuration) -> String { duration.description }

    /// An instant as a duration since the start, exactly (`VirtualTime.description` rounds).
    static func time(_ time: VirtualTime) -> String { VirtualDuration(nanoseconds: time.nanoseconds).description }

    static func endpoint(_ endpoint: Scenario.LinkSpec.Endpoint) -> String {
        switch endpoint {
        case .device(let name), .person(let name): scalar(name)
        }
    }
}

extension Scenario.Compose {
    /// The flow mapping of a `send`, `insert` or `reply` (every field that is set: the
    /// parser refuses a `reply` with a url, as it should).
    fileprivate func fields() -> String {
        var fields = [("session", ScenarioWriter.scalar(session))]
        if !data.isEmpty { fields.append(("data", ScenarioWriter.dataMapping(data))) }
        for field in LayoutField.allCases { if let text = self[field] { fields.append((field.rawValue, ScenarioWriter.scalar(text))) } }
        if let summary { fields.append(("summary", ScenarioWriter.scalar(summary))) }
        if let url { fields.append(("url", ScenarioWriter.scalar(url))) }
        if direct { fields.append(("direct", "true")) }
        return ScenarioWriter.mapping(fields)
    }
}
