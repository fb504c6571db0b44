import GroupSimCore

extension Scenario.PitfallKind {
    /// Everything the tables need to know about this pitfall: its keyword (the raw value),
    /// the rule a report cites, the rules the documentation lists and one line for the help.
    ///
    /// To add a pitfall, add a case to `PitfallKind` and follow the compiler: this switch,
    /// the explanation and the fix ask for it; the `pitfalls:` check's words, the schema
    /// and the help are derived from the descriptor.
    package var descriptor: PitfallDescriptor {
        switch self {
        case .lostUpdate: PitfallDescriptor(
            keyword: rawValue, rule: "M12", rules: ["M12", "M13"], judged: .perDevice,
            about: "a change made by a send or reply is missing from the session's final state on a device that runs the app")
        case .divergence: PitfallDescriptor(
            keyword: rawValue, rule: "M12", rules: ["M12"], judged: .acrossDevices,
            about: "devices show different states for a session at the end")
        case .foreignIdentifier: PitfallDescriptor(
            keyword: rawValue, rule: "M4", rules: ["M4"], judged: .perRun,
            about: "a device read a participant UUID it does not know")
        case .staleIdentifier: PitfallDescriptor(
            keyword: rawValue, rule: "M2", rules: ["M2"], judged: .perRun,
            about: "a device read a UUID it minted before its reinstall")
        case .staleSelection: PitfallDescriptor(
            keyword: rawValue, rule: "M15", rules: ["M15"], judged: .perRun,
            about: "a reply was built on a selectedMessage older than the session's live bubble")
        case .droppedURL: PitfallDescriptor(
            keyword: rawValue, rule: "M8", rules: ["M8"], judged: .perRun,
            about: "a URL with a custom scheme was silently discarded")
        case .unattributed: PitfallDescriptor(
            keyword: rawValue, rule: "M4", rules: ["M4"], judged: .perDevice,
            about: "a device holds a choice keyed by an identifier that is none of its participants'")
        case .doubleCount: PitfallDescriptor(
            keyword: rawValue, rule: "M1", rules: ["M1"], judged: .perDevice,
            about: "the same person's choice is counted twice, through two of their devices' identifiers")
        case .joinedLate: PitfallDescriptor(
            keyword: rawValue, rule: "M6", rules: ["M6"], judged: .perDevice,
            about: "a device that runs the app has no bubble of a session because its person joined after the session began")
        case .cancelledWrite: PitfallDescriptor(
            keyword: rawValue, rule: "M17", rules: ["M17", "M13"], judged: .perRun,
            about: "the user removed a draft whose change the app had already written to the shared cloud record")
        case .sharedState: PitfallDescriptor(
            keyword: rawValue, rule: "M22", rules: ["M22"], judged: .perRun,
            about: "two devices' controllers hold the same object, which their own processes on iOS would not share")
        }
    }

    /// The docs/behaviour.md rule a report of it cites.
    public var rule: Rule { descriptor.rule }

    /// The kind whose keyword is `keyword` (`lost-update`), if any.
    public init?(keyword: String) {
        guard let kind = Self.allCases.first(where: { $0.descriptor.keyword == keyword }) else { return nil }
        self = kind
    }

    /// Every kind's descriptor, in `allCases` order.
    package static let descriptors = allCases.map(\.descriptor)

    /// Every pitfall keyword, in `allCases` order (the words of a `pitfalls:` check).
    public static let keywords = descriptors.map(\.keyword)
}

/// Everything the tables need to know about one pitfall (`PitfallKind.descriptor`).
package struct PitfallDescriptor: Sendable, Equatable {
    /// The word in `pitfalls:` checks and reports (`lost-update`): the kind's raw value.
    package var keyword: String
    /// The rule a report of it cites (`lost-update` cites M13 instead when the app keeps
    /// its state in the cloud store).
    package var rule: Rule
    /// Every rule behind it, as the documentation lists them.
    package var rules: [Rule]
    /// Where it is found: factored exploration folds `perDevice` pitfalls device by
    /// device, judges `divergence` across devices and reads the others from the run.
    package var judged: Judgement
    /// One line for the help: when it is reported.
    package var about: String
}
