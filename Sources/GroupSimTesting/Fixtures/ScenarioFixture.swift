import GroupSim

/// Builds scenarios from scenario-file text in tests and runs them.
package enum Fixture {
    /// Parses `text` as a scenario file named `test.yaml`.
    package static func scenario(_ text: String, apps: [String] = []) throws -> Scenario {
        try ScenarioParser.parse(text: text, file: "test.yaml", registeredApps: apps)
    }

    /// Parses and runs once.
    package static func run(_ text: String, seed: UInt64? = nil, apps: AppRegistry = AppRegistry()) async throws -> RunReport {
        try await scenario(text, apps: apps.names).run(seed: seed, apps: apps)
    }

    /// Three people, Bob with a phone and an iPad, 50ms links: the pickles group.
    package static let group = """
    name: test
    people:
      alice: [alice-phone]
      bob: [bob-phone, bob-ipad]
      carol: [carol-phone]

    """
}

extension RunReport {
    /// The drawn transcript of a device's first conversation.
    package func transcript(_ device: String) -> [DeviceSnapshot.DrawnEntry] {
        outcome.device(device)?.transcripts.first?.entries ?? []
    }

    /// `kind message` per line, e.g. `["summary m1", "bubble m3"]`.
    package func lines(_ device: String) -> [String] {
        transcript(device).map { "\($0.kind.rawValue) m\($0.message)" }
    }

    package func live(_ device: String, _ session: String) -> DeviceSnapshot.SessionView? {
        outcome.device(device)?.session(session)
    }

    package var pitfallKinds: [Scenario.PitfallKind] { pitfalls.map(\.kind) }
}
