import GroupSimCore
import GroupSimSimulation
import GroupSimChecking

/// `--format json`: one object with `seed`, `trace`, `checks` (each with a boolean
/// `passed`), `pitfalls` (each with a `kind`) and `devices` (each with its `transcript`),
/// as docs/scenario-format.md promises, plus the timeline and step failures.
package enum JSONReport {
    /// The `version` member of the JSON reports of `run`, `explore` and `merge`
    /// (docs/json-output.md). It goes up when a member changes meaning or goes away; new
    /// members may appear without a change of version.
    package static let version = ExplorationJSONReport.version

    package static func render(_ report: RunReport) -> String { value(report).rendered() + "\n" }

    package static func value(_ report: RunReport) -> JSONValue {
        guard case .object(var members) = body(report) else { return body(report) }
        members.append(("rules", rules(citedIn: JSONValue.object(members).rendered(indent: nil))))
        return .object(members)
    }

    /// Every rule `text` cites, in rule order, with where it is written up:
    /// `[{"rule": "M12", "reference": "docs/behaviour.md#m12"}]`.
    package static func rules(citedIn text: String) -> JSONValue {
        let cited = RuleReference.rulesInOrder(in: text)
        return .array(cited.map { .object([("rule", .string($0.rawValue)), ("reference", .string($0.path))]) })
    }

    static func body(_ report: RunReport) -> JSONValue {
        let outcome = report.outcome
        return .object([
            ("version", .int(version)),
            ("scenario", .string(outcome.scenario.name)),
            ("file", .string(outcome.scenario.file)),
            ("seed", .string(String(outcome.seed))),
            ("trace", .string(report.digest)),
            ("passed", .bool(report.passed)),
            ("quiet", .bool(outcome.quiet)),
            ("endTime", .string(outcome.endTime.description)),
            ("checks", .array(report.checks.map { check in
                .object([
                    ("check", .string(check.spec.check.keyword)),
                    ("text", .string(check.text)),
                    ("passed", .bool(check.passed)),
                    ("detail", .string(check.detail)),
                    ("line", check.spec.location.map { .int($0.line) } ?? .null),
                ])
            } + report.unexpectedFailures.map { failure in
                .object([
                    ("check", .string("unexpected-failure")),
                    ("text", .string(failure.text)),
                    ("passed", .bool(false)),
                    ("detail", .string(failure.detail)),
                    ("line", failure.line.map { .int($0) } ?? .null),
                ])
            })),
            ("pitfalls", .array(report.pitfalls.map(pitfall))),
            ("failures", .array(outcome.failures.map { failure in
                .object([
                    ("step", failure.attributedStep.map { .int($0) } ?? .null),
                    ("via", failure.step == nil ? failure.origin.map { .array($0.via.map { .string($0.rawValue) }) } ?? .null : .null),
                    ("device", .string(failure.device)),
                    ("time", .string(failure.time.description)),
                    ("code", .string(failure.code.name)),
                    ("number", .int(failure.code.rawValue)),
                    ("reason", .string(failure.reason)),
                    ("rule", failure.rule.map { .string($0.rawValue) } ?? .null),
                ])
            })),
            ("devices", .array(outcome.devices.map(device))),
            ("timeline", .array(outcome.trace.events.map { event in
                .object([
                    ("time", .string(event.time.description)),
                    ("nanoseconds", .int(event.time.nanoseconds)),
                    ("subject", .string(event.subject)),
                    ("event", .string(event.printedText)),
                ])
            })),
        ])
    }

    static func pitfall(_ pitfall: Pitfall) -> JSONValue {
        .object([
            ("kind", .string(pitfall.kind.rawValue)),
            ("rule", .string(pitfall.rule.rawValue)),
            ("reference", .string(pitfall.rule.path)),
            ("devices", .array(pitfall.devices.map(JSONValue.string))),
            ("session", .string(pitfall.session)),
            ("message", pitfall.message.map { .string("m\($0)") } ?? .null),
            ("summary", .string(pitfall.summary)),
            ("explanation", .string(pitfall.explanation)),
            ("fix", .string(pitfall.fix)),
        ])
    }

    static func device(_ device: DeviceSnapshot) -> JSONValue {
        .object([
            ("name", .string(device.name)),
            ("person", .string(device.person)),
            ("platform", .string(device.platform.rawValue)),
            ("runsApp", .bool(device.runsApp)),
            ("installation", .int(device.generation)),
            ("localIdentifier", .string(device.localIdentifier?.uuidString)),
            ("identifiers", .object(device.identifiers.map { ($0.person, .string($0.id.uuidString)) })),
            ("callbacks", .array(device.callbacks.map { .string($0.rawValue) })),
            ("storage", sorted(device.localStorage)),
            ("suites", .object(device.localSuites.keys.sorted().map { ($0, sorted(device.localSuites[$0] ?? [:])) })),
            ("transcript", .array(device.transcripts.flatMap { conversation in
                conversation.entries.map { entry(entry: $0, conversation: conversation.conversation) }
            })),
        ])
    }

    /// Keys and values as an object, keys sorted, so the text is the same in every run.
    static func sorted(_ values: [String: String]) -> JSONValue {
        .object(values.keys.sorted().map { ($0, .string(values[$0])) })
    }

    static func entry(entry: DeviceSnapshot.DrawnEntry, conversation: String) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("kind", .string(entry.kind.rawValue)),
            ("conversation", .string(conversation)),
            ("message", .string("m\(entry.message)")),
            ("session", .string(entry.session)),
            ("from", .string(entry.senderPerson)),
            ("fromName", .string(entry.senderName)),
            ("text", .string(entry.text)),
        ]
        if entry.kind == .bubble {
            members.append(("subcaption", .string(entry.subcaption)))
            // The layout's other fields (M9), only on a bubble that sets one.
            if let layout = entry.layout {
                let fields: [(String, String?)] = [("trailingCaption", layout.trailingCaption), ("trailingSubcaption", layout.trailingSubcaption),
                                                   ("imageTitle", layout.imageTitle), ("imageSubtitle", layout.imageSubtitle),
                                                   ("image", layout.image)]
                let set = fields.compactMap { name, value in value.map { (name, JSONValue.string($0)) } }
                if !set.isEmpty { members.append(("layout", .object(set))) }
            }
            members.append(("senderIdentifier", .string(entry.senderIdentifier?.uuidString)))
            members.append(("url", .string(entry.url)))
            members.append(("state", .object((entry.state ?? StateMap()).entries.map { ($0.key, .string($0.value)) })))
        }
        return .object(members)
    }
}
