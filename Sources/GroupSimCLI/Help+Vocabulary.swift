import GroupSim

extension Help {
    /// The help topics listed from the descriptors of each kind (`groupsim help steps`):
    /// a new step, check, pitfall or callback appears in them with nothing else to edit.
    static let vocabularyTopics = ["steps", "checks", "pitfalls", "callbacks"]

    /// The text of one vocabulary topic, or nil when `topic` is none of them.
    static func vocabulary(_ topic: String) -> String? {
        switch topic.lowercased() {
        case "steps", "step", "actions": stepsHelp
        case "checks", "expect": checksHelp
        case "pitfalls", "pitfall": pitfallsHelp
        case "callbacks", "callback": callbacksHelp
        default: nil
        }
    }

    /// Every step keyword with its value and what it does, from `Action.Kind.descriptors`.
    static var stepsHelp: String {
        var lines = [
            "Steps (docs/scenario-format.md, \"Steps\"): each entry of steps: has a time (at: or after:),",
            "a device, and exactly one of these actions.",
            "",
        ]
        for step in Scenario.Action.Kind.descriptors {
            let scope = step.scope == .device ? "; on the whole device, no conversation:" : ""
            lines += entry(step.keyword, value: step.value, about: step.about + scope, rules: step.rules)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every check keyword with its value and when it holds, from `Check.Kind.descriptors`.
    static var checksHelp: String {
        var lines = [
            "Checks (docs/scenario-format.md, \"Checks\"): each entry of expect: is one of these,",
            "evaluated when nothing is in flight.",
            "",
        ]
        for check in Scenario.Check.Kind.descriptors {
            lines += entry(check.keyword, value: check.value, about: check.about, rules: check.rules)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every pitfall kind with its rule and when it is reported, from `PitfallKind.descriptors`.
    static var pitfallsHelp: String {
        var lines = [
            "Pitfalls GroupSim reports (a pitfalls: check names them; `groupsim help M12` prints a rule):",
            "",
        ]
        for pitfall in Scenario.PitfallKind.descriptors {
            lines.append("  \(pitfall.keyword) (\(pitfall.rules.map(\.rawValue).joined(separator: ", ")))")
            lines.append("      \(pitfall.about)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every callback name with what it means, from `AppCallback.descriptors`.
    static var callbacksHelp: String {
        var lines = [
            "Callbacks the simulated extension receives: the names `run --callbacks` prints and a",
            "callbacks: check takes.",
            "",
        ]
        for origin in [AppCallbackDescriptor.Origin.viewController, .groupSim] {
            lines.append(origin == .viewController ? "MSMessagesAppViewController's:" : "GroupSim's own entry points:")
            for callback in AppCallback.descriptors where callback.origin == origin {
                lines.append("  \(callback.name) (\(callback.rules.map(\.rawValue).joined(separator: ", ")))")
                lines.append("      \(callback.about)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `  keyword: value`, then what it does and the rules behind it, indented.
    private static func entry(_ keyword: String, value: ScenarioVocabulary.ValueShape, about: String, rules: [Rule]) -> [String] {
        var lines = ["  \(keyword): \(described(value))", "      \(about)"]
        if !rules.isEmpty { lines.append("      rules: \(rules.map(\.rawValue).joined(separator: ", "))") }
        return lines
    }

    /// A value's shape in a few words: `{ session, data, ... }`, `true`, `compact | expanded`.
    static func described(_ shape: ScenarioVocabulary.ValueShape) -> String {
        switch shape {
        case .text: "text"
        case .name: "a name"
        case .duration: "a duration such as 250ms"
        case .integer(let minimum): "a whole number of at least \(minimum)"
        case .flag: "true or false"
        case .onlyTrue: "true"
        case .choice(let words): words.joined(separator: " | ")
        case .numbers(let numbers): numbers.map(String.init).joined(separator: " | ")
        case .object(let object): "{ " + object.keys.joined(separator: ", ") + " }"
        case .list(let item, let minimum): "[\(described(item)), ...]" + (minimum > 0 ? " (at least \(minimum))" : "")
        case .map(let item): "{ key: \(described(item)), ... }"
        case .either(let shapes): shapes.map(described).joined(separator: " or ")
        }
    }
}
