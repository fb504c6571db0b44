import GroupSimCore

extension Scenario.Check {
    /// The kind of a check without its payload: one case per check keyword, in the order
    /// docs/scenario-format.md lists them (the order of the keyword tables, the schema and
    /// "did you mean" suggestions).
    ///
    /// To add a check kind, add a case here and to `Check`, then follow the compiler: the
    /// switches of `kind` and `descriptor`, the parser, the writer and `CheckEvaluator` ask
    /// for it; the keyword tables, the schema, the help and how factored exploration counts
    /// it (`judged`) are derived from the descriptor.
    public enum Kind: Int, Sendable, Hashable, CaseIterable {
        case latest, summaries, plain, converged, diverged, complete, pitfalls, noPitfalls, callbacks, error

        /// Everything the tables need to know about this kind of check.
        package var descriptor: CheckDescriptor {
            typealias Field = ScenarioVocabulary.Field
            typealias ObjectShape = ScenarioVocabulary.ObjectShape
            return switch self {
            case .latest:
                CheckDescriptor(keyword: "latest", value: .object(ObjectShape("latest", [
                    Field("device", .name, "the device"),
                    Field("session", .name, "the session"),
                    Field("from", .name, "the person who sent the live bubble"),
                    Field("data", .map(.text), "entries the live bubble's state contains"),
                ] + ScenarioVocabulary.drawnLayoutFields + [
                    Field("caption-bar", .flag, "whether the bubble has a caption bar (some caption field is set, M9)"),
                ], required: ["device", "session"])), about: "what a device's live bubble of a session is", rules: ["M10", "M5", "M9"],
                judged: .perDevice)
            case .summaries:
                CheckDescriptor(keyword: "summaries", value: .object(ObjectShape("summaries", [
                    Field("device", .name, "the device"),
                    Field("session", .name, "the session"),
                    Field("count", .integer(minimum: 0), "how many summary lines"),
                    Field("texts", .list(.text, minimum: 0), "the summary lines as drawn"),
                ], required: ["device", "session"])), about: "the summary lines a device shows for a session", rules: ["M10", "M14"],
                judged: .perDevice)
            case .plain:
                CheckDescriptor(keyword: "plain", value: .object(ObjectShape("plain", [
                    Field("device", .name, "the device"),
                    Field("count", .integer(minimum: 0), "how many plain messages"),
                    Field("texts", .list(.text, minimum: 0), "the plain messages, in order"),
                ], required: ["device"])), about: "the plain messages a device received instead of bubbles (an old system)",
                rules: ["M26"], judged: .perDevice)
            case .converged:
                CheckDescriptor(keyword: "converged", value: .name,
                                about: "every device with the app shows the same state for this session", rules: ["M12"],
                                judged: .acrossDevices)
            case .diverged:
                CheckDescriptor(keyword: "diverged", value: .name, about: "devices show different states for this session", rules: ["M12"],
                                judged: .acrossDevices)
            case .complete:
                CheckDescriptor(keyword: "complete", value: .object(ObjectShape("complete", [
                    Field("session", .name, "the session"),
                    Field("data", .map(.text), "entries every device's state contains"),
                ], required: ["session", "data"])), about: "no update was lost", rules: ["M12", "M13"], judged: .perDevice)
            case .pitfalls:
                CheckDescriptor(keyword: "pitfalls", value: .list(.choice(Scenario.PitfallKind.keywords), minimum: 1),
                                about: "the run reported at least these pitfalls", rules: [], judged: .acrossDevices)
            case .noPitfalls:
                CheckDescriptor(keyword: "no-pitfalls", value: .either([.onlyTrue, .list(.choice(Scenario.PitfallKind.keywords), minimum: 1)]),
                                about: "the run reported none (true), or none of the kinds listed", rules: [],
                                judged: .acrossDevices)
            case .callbacks:
                CheckDescriptor(keyword: "callbacks", value: .object(ObjectShape("callbacks", [
                    Field("device", .name, "the device"),
                    Field("sequence", .list(.choice(AppCallback.names), minimum: 0), "the callbacks, in order"),
                ], required: ["device", "sequence"])), about: "the app on a device received exactly these callbacks",
                rules: ["M17", "M20", "M21", "M22", "M23", "M24"], judged: .perDevice)
            case .error:
                CheckDescriptor(keyword: "error", value: .object(ObjectShape("error", [
                    Field("step", .integer(minimum: 1), "the step number, 1-based, counting a race's steps and not the race"),
                    Field("code", ScenarioVocabulary.errorCode, "the error name or number"),
                ], required: ["step", "code"])), about: "a step failed with this error", rules: [], judged: .perRun)
            }
        }

        /// The kind whose keyword is `keyword` (`no-pitfalls`), if any.
        public init?(keyword: String) {
            guard let kind = Self.byKeyword[keyword] else { return nil }
            self = kind
        }

        /// Every kind's descriptor, in `allCases` order (a kind's raw value is its index).
        package static let descriptors = allCases.map(\.descriptor)

        /// Every check keyword, in `allCases` order.
        public static let keywords = descriptors.map(\.keyword)

        private static let byKeyword = Dictionary(allCases.map { ($0.descriptor.keyword, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The check's kind.
    public var kind: Kind {
        switch self {
        case .latest: .latest
        case .summaries: .summaries
        case .plain: .plain
        case .converged: .converged
        case .diverged: .diverged
        case .complete: .complete
        case .pitfalls: .pitfalls
        case .noPitfalls, .noPitfallsOf: .noPitfalls
        case .callbacks: .callbacks
        case .error: .error
        }
    }

    /// The check's key in a scenario file.
    public var keyword: String { Kind.keywords[kind.rawValue] }
}

/// Everything the tables need to know about one kind of check (`Check.Kind.descriptor`):
/// the parser's keyword tables and suggestions, the writer's key, the JSON schema and the
/// help text are read from here.
package struct CheckDescriptor: Sendable, Equatable {
    /// The key in a scenario file (`no-pitfalls`).
    package var keyword: String
    /// What its value must look like (for a mapping: its keys, which the parser accepts).
    package var value: ScenarioVocabulary.ValueShape
    /// One line for the schema and the help: what it checks.
    package var about: String
    /// The rules of docs/behaviour.md whose behaviour it checks.
    package var rules: [Rule]
    /// Where it is judged: `perDevice` checks are judged by `CheckEvaluator.fails(_:on:)`
    /// device by device, in `run` and in factored exploration alike.
    package var judged: Judgement

    /// The schema and parser field of this check kind.
    package var field: ScenarioVocabulary.Field { ScenarioVocabulary.Field(keyword, value, about) }
}

/// Where a check or a pitfall is judged: how factored exhaustive exploration counts it
/// over the combinations of the devices' local orders without running them.
package enum Judgement: Sendable, Equatable {
    /// On each device alone (its live bubble, its callbacks, its own state of a session):
    /// it fails, or is found, in an order when it is on some device.
    case perDevice
    /// By comparing devices, or the pitfalls found on all of them.
    case acrossDevices
    /// On the run as a whole (a step's failure, a pitfall seen while the app read
    /// something), which must be the same in every order a device's arrivals make.
    case perRun
}
