// Imports as an extension's file does on Linux: Foundation only through GroupSimMessages,
// so `UserDefaults` below is GroupSim's, the current device's storage.
import GroupSim
import GroupSimMessages

/// A shipping controller's settings code, unchanged: the user's name and last vote in
/// `UserDefaults.standard`, a copy in an app-group suite held in a `static let`, an
/// activation count over a registered default, and a flag written by a `Task`.
package final class DefaultsVoteController: MSMessagesAppViewController, ComposeRequestHandling {
    package nonisolated static let group = UserDefaults(suiteName: "group.lunch")

    override package func willBecomeActive(with conversation: MSConversation) {
        let defaults = UserDefaults.standard
        defaults.register(defaults: ["activations": 0])
        defaults.set(defaults.integer(forKey: "activations") + 1, forKey: "activations")
    }

    package func handle(_ request: ComposeRequest) {
        guard let conversation = activeConversation else { return }
        for entry in request.data { UserDefaults.standard.set(entry.value, forKey: entry.key) }
        let vote = UserDefaults.standard.string(forKey: "vote") ?? "none"
        Self.group?.set("group:" + vote, forKey: "vote")
        // A task started in a call: it runs inside the call (SequencedJobs) and writes the
        // device's own defaults, which the tests read back; no seed-free timing is involved.
        Task { UserDefaults.standard.set(true, forKey: "voted") }
        let message = MSMessage(session: MSSession())
        message.url = URL(string: "?vote=\(vote)")
        conversation.insert(message)
    }
}

/// 8 people, one phone each, running `DefaultsVoteController`: each sends its own name
/// and vote, then p3's phone is reinstalled.
package enum DefaultsFixture {
    package static let app = "defaults-vote"
    package static let people = (1...8).map { "p\($0)" }
    package static let reinstalled = "p3"

    package static func vote(of person: String) -> String {
        let votes = ["pizza", "sushi", "tacos"]
        return votes[(people.firstIndex(of: person) ?? 0) % votes.count]
    }

    package static var text: String {
        let sends = people.enumerated().map { index, person in
            "  - { at: \(index * 10)ms, device: \(person)-phone, send: { session: poll-\(person), "
                + "data: { name: \(person), vote: \(vote(of: person)) } } }"
        }
        return """
            name: defaults
            people: { \(people.map { "\($0): [\($0)-phone]" }.joined(separator: ", ")) }
            app: { name: \(app) }
            steps:
            \(sends.joined(separator: "\n"))
              - { at: 500ms, device: \(reinstalled)-phone, reinstall: true }
            """
    }

    package static func scenario() throws -> Scenario {
        try ScenarioParser.parse(text: text, file: "defaults.yaml", registeredApps: [app])
    }

    package static func apps() -> AppRegistry {
        var apps = AppRegistry()
        apps.register(app) { DefaultsVoteController() }
        return apps
    }

    /// What `person`'s phone should hold at the end, as the JSON report writes its
    /// `storage` and `suites` (compact, keys sorted): only its own values, nothing after
    /// the reinstall.
    package static func expected(for person: String) -> (storage: String, suites: String) {
        guard person != reinstalled else { return ("{}", "{}") }
        let vote = vote(of: person)
        return (#"{"activations":"1","name":"\#(person)","vote":"\#(vote)","voted":"true"}"#,
                #"{"group.lunch":{"vote":"group:\#(vote)"}}"#)
    }

    /// Every way the `devices` of a JSON report of the scenario differ from `expected`,
    /// one line each: none when each phone lists only its own defaults.
    package static func mismatches(inJSONReport report: JSONValue) -> [String] {
        guard case .array(let devices)? = report["devices"], devices.count == people.count else {
            return ["not \(people.count) devices in \(report.rendered(indent: nil).prefix(200))"]
        }
        return people.flatMap { person -> [String] in
            let device = devices.first { $0["name"] == .string("\(person)-phone") }
            let found = (device?["storage"]?.rendered(indent: nil), device?["suites"]?.rendered(indent: nil))
            let expected = expected(for: person)
            return found == (expected.storage, expected.suites) ? []
                : ["\(person)-phone: storage \(found.0 ?? "none"), suites \(found.1 ?? "none"); expected \(expected)"]
        }
    }
}
