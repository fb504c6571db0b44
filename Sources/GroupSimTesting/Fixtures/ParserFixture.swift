import GroupSim

/// Scenario text for parser tests: a header with three people, and the outcome of parsing.
package enum ParserFixture {
    /// Five lines (1 to 5): the file name, then alice, bob (two devices) and carol, so a
    /// test's own text starts on line 6.
    package static let header = """
        name: t
        people:
          alice: [alice-phone]
          bob: [bob-phone, bob-ipad]
          carol: [carol-phone]

        """

    /// Every rendered diagnostic, one per line, or "valid" when the text parses.
    package static func diagnostics(_ text: String, registeredApps: [String] = []) -> String {
        do {
            _ = try ScenarioParser.parse(text: text, file: "t.yaml", registeredApps: registeredApps)
            return "valid"
        } catch {
            return error.description
        }
    }

    /// The diagnostics of `header` followed by `body`.
    package static func diagnostics(afterHeader body: String, registeredApps: [String] = []) -> String {
        diagnostics(header + body, registeredApps: registeredApps)
    }

    /// The scenario `header` followed by `body` parses into, or nil.
    package static func scenario(afterHeader body: String) -> Scenario? {
        try? ScenarioParser.parse(text: header + body, file: "t.yaml")
    }
}
