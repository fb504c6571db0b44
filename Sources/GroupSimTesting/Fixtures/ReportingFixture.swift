import Foundation
import GroupSim

/// Scenario files and runs shared by the reporting tests.
package enum ReportingFixture {
    /// The package root, found from this file's path.
    package static let root = ScenarioFiles.root

    /// Runs a scenario file of the repository (`Scenarios/pickles-race.yaml`).
    package static func run(file relative: String) async throws -> RunReport {
        let scenario = try ScenarioParser.load(path: root.appendingPathComponent(relative).path)
        return try await scenario.run()
    }

    package static func picklesRace() async throws -> RunReport { try await run(file: "Scenarios/pickles-race.yaml") }

    /// A scenario whose every user-supplied string is markup: person, device, session,
    /// caption, subcaption, summary, data and about.
    package static let hostile = """
    name: "<b>hostile</b>"
    about: |
      An about with <script>alert(1)</script> & friends; # not a comment %% either
    people:
      alice: [alice-phone]
      "bob<i>": ["bob<img src=x onerror=alert(1)>"]
    steps:
      - at: 0ms
        device: "bob<img src=x onerror=alert(1)>"
        reply: { session: "<svg onload=alert(1)>", data: { x: y } }
      - at: 10ms
        device: alice-phone
        send: { session: "<svg onload=alert(1)>", caption: "<script>alert(1)</script>", \
    subcaption: "a \\"quoted\\" line\\nand a second; line", summary: "<script>alert(2)</script>", data: { "<k>": "<v>" } }
      - at: 500ms
        device: "bob<img src=x onerror=alert(1)>"
        reply: { session: "<svg onload=alert(1)>", caption: "<script>alert(3)</script>", data: { "bob": "</text><script>" } }
    """
}
