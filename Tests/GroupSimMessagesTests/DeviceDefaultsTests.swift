// Imports as an extension's file does on Linux: Foundation only through GroupSimMessages,
// so `UserDefaults` below is GroupSim's (DefaultsShadowingTests checks the other imports).
import GroupSim
import GroupSimMessages
import Testing

/// A shipping controller's settings code, unchanged: the user's name and last vote in
/// `UserDefaults.standard`, a copy in an app-group suite held in a `static let`, an
/// activation count over a registered default, and a flag written by a `Task`.
final class DefaultsVoteController: MSMessagesAppViewController, ComposeRequestHandling {
    nonisolated static let group = UserDefaults(suiteName: "group.lunch")

    override func willBecomeActive(with conversation: MSConversation) {
        let defaults = UserDefaults.standard
        defaults.register(defaults: ["activations": 0])
        defaults.set(defaults.integer(forKey: "activations") + 1, forKey: "activations")
    }

    func handle(_ request: ComposeRequest) {
        guard let conversation = activeConversation else { return }
        for entry in request.data { UserDefaults.standard.set(entry.value, forKey: entry.key) }
        let vote = UserDefaults.standard.string(forKey: "vote") ?? "none"
        Self.group?.set("group:" + vote, forKey: "vote")
        Task { UserDefaults.standard.set(true, forKey: "voted") }
        let message = MSMessage(session: MSSession())
        message.url = URL(string: "?vote=\(vote)")
        conversation.insert(message)
    }
}

@Suite struct DeviceDefaultsTests {
    static let people = (1...8).map { "p\($0)" }
    static let votes = ["pizza", "sushi", "tacos"]

    static func vote(_ index: Int) -> String { votes[index % votes.count] }

    /// 8 people, one phone each; each sends its own name and vote; p3's phone is
    /// reinstalled after its send.
    static func scenario() throws -> Scenario {
        let people = Self.people.map { "\($0): [\($0)-phone]" }.joined(separator: ", ")
        let sends = Self.people.enumerated().map { index, person in
            "  - { at: \(index * 10)ms, device: \(person)-phone, send: { session: poll-\(person), data: { name: \(person), vote: \(vote(index)) } } }"
        }
        return try ScenarioParser.parse(text: """
            name: defaults
            people: { \(people) }
            app: { name: defaults-vote }
            steps:
            \(sends.joined(separator: "\n"))
              - { at: 500ms, device: p3-phone, reinstall: true }
            """, file: "defaults.yaml", registeredApps: ["defaults-vote"])
    }

    static func apps() -> AppRegistry {
        var apps = AppRegistry()
        apps.register("defaults-vote") { DefaultsVoteController() }
        return apps
    }

    /// The member `name` of a JSON object, or null.
    static func member(_ name: String, of value: JSONValue?) -> JSONValue? {
        guard case .object(let members)? = value else { return nil }
        return members.first { $0.0 == name }?.1
    }

    /// Each device's `UserDefaults.standard` holds only what its own controller wrote,
    /// the suite holds its own value apart from it, and the reinstalled phone holds
    /// nothing: in the snapshot and, keys sorted, in the JSON report.
    @Test func eachDeviceKeepsItsOwnDefaultsAndReinstallClearsThem() async throws {
        let report = try await Self.scenario().run(seed: 7, apps: Self.apps())
        #expect(report.outcome.failures.isEmpty, "\(report.outcome.failures)")
        let json = JSONReport.value(report)
        guard case .array(let devices)? = Self.member("devices", of: json) else {
            Issue.record("no devices in \(json.rendered())")
            return
        }
        #expect(devices.count == 8)
        for (index, person) in Self.people.enumerated() {
            let name = "\(person)-phone"
            let snapshot = try #require(report.outcome.device(name))
            let device = devices.first { Self.member("name", of: $0) == .string(name) }
            let storage = Self.member("storage", of: device)?.rendered(indent: nil)
            let suites = Self.member("suites", of: device)?.rendered(indent: nil)
            if person == "p3" {
                #expect(snapshot.localStorage.isEmpty && snapshot.localSuites.isEmpty, "\(snapshot.localStorage)")
                #expect(storage == "{}" && suites == "{}", "\(String(describing: storage))")
                continue
            }
            let vote = Self.vote(index)
            #expect(snapshot.localStorage == ["activations": "1", "name": person, "vote": vote, "voted": "true"])
            #expect(snapshot.localSuites == ["group.lunch": ["vote": "group:" + vote]])
            #expect(storage == #"{"activations":"1","name":"\#(person)","vote":"\#(vote)","voted":"true"}"#)
            #expect(suites == #"{"group.lunch":{"vote":"group:\#(vote)"}}"#)
        }
    }

    /// Outside a simulated call the same objects are one in-memory store of the process,
    /// with a suite apart from the standard store, and a run leaves that store untouched.
    @Test func outsideARunTheDefaultsAreTheProcesssOwn() async throws {
        let key = "outside-\(#line)"
        let suite = try #require(UserDefaults(suiteName: "groupsim.outside.\(#line)"))
        UserDefaults.standard.set(42, forKey: key)
        suite.set("in the suite", forKey: key)
        #expect(UserDefaults.standard.integer(forKey: key) == 42)
        #expect(suite.string(forKey: key) == "in the suite")
        #expect(UserDefaults().integer(forKey: key) == 42)
        _ = try await Self.scenario().run(seed: 7, apps: Self.apps())
        #expect(UserDefaults.standard.string(forKey: "vote") == nil)
        #expect(DefaultsVoteController.group?.string(forKey: "vote") == nil)
        UserDefaults.standard.removeObject(forKey: key)
        #expect(UserDefaults.standard.object(forKey: key) == nil)
        #expect(UserDefaults.standard.synchronize())
    }

    /// The typed API answers through the device's store: values in, conversions out.
    @Test func typedSettersAndGettersReachTheStore() throws {
        let defaults = try #require(UserDefaults(suiteName: "groupsim.typed.\(#line)"))
        let link = URL(string: "https://example.com/poll?id=1")
        defaults.set(3, forKey: "int")
        defaults.set(true, forKey: "bool")
        defaults.set(2.5, forKey: "double")
        defaults.set(Float(1.5), forKey: "float")
        defaults.set(link, forKey: "url")
        defaults.set(["a", "b"], forKey: "array")
        defaults.set(["k": "v"], forKey: "map")
        defaults.set(Data([0x0a, 0xff]), forKey: "data")
        defaults.register(defaults: ["registered": "yes"])
        #expect(defaults.integer(forKey: "int") == 3 && defaults.string(forKey: "int") == "3")
        #expect(defaults.bool(forKey: "bool") && defaults.integer(forKey: "bool") == 1)
        #expect(defaults.double(forKey: "double") == 2.5 && defaults.float(forKey: "float") == 1.5)
        #expect(defaults.url(forKey: "url") == link)
        #expect(defaults.stringArray(forKey: "array") == ["a", "b"] && defaults.array(forKey: "array")?.count == 2)
        #expect(defaults.dictionary(forKey: "map")?["k"] as? String == "v")
        #expect(defaults.data(forKey: "data") == Data([0x0a, 0xff]))
        #expect(defaults.object(forKey: "registered") as? String == "yes")
        #expect(defaults.dictionaryRepresentation().keys.sorted()
            == ["array", "bool", "data", "double", "float", "int", "map", "registered", "url"])
        defaults.set(nil, forKey: "int")
        #expect(defaults.object(forKey: "int") == nil)
        // Reports write data in hex, so two runs that stored different bytes differ.
        let storage = LocalStorage()
        storage.set(Data([0x0a, 0xff]), forKey: "data")
        #expect(storage.dictionary == ["data": "<0aff>"])
    }

    /// `environment.random` draws the same numbers for the same seed, device and
    /// installation, goes on across activations, differs between devices, and leaves the
    /// tokens as they were.
    @Test func seededRandomIsPerDeviceAndReplays() async throws {
        let scenario = try ScenarioParser.parse(text: """
            name: random
            people: { alice: [alice-phone], bob: [bob-phone] }
            app: { name: dice }
            steps:
              - { at: 0ms, device: alice-phone, open: compact }
              - { at: 10ms, device: alice-phone, close: true }
              - { at: 20ms, device: alice-phone, open: compact }
              - { at: 30ms, device: bob-phone, open: compact }
            """, file: "random.yaml", registeredApps: ["dice"])
        func draws(seed: UInt64, rolling: Bool) async throws -> [String: [String: String]] {
            var apps = AppRegistry()
            apps.register("dice", environment: { environment in
                var random = environment.random
                let storage = environment.storage
                if rolling {
                    let roll = (0..<4).map { _ in String(Int.random(in: 1...1_000_000, using: &random)) }
                    storage.set((storage.stringArray(forKey: "rolls") ?? []) + [roll.joined(separator: " ")], forKey: "rolls")
                }
                storage.set(environment.makeToken(), forKey: "token")
                return MSMessagesAppViewController()
            })
            let report = try await scenario.run(seed: seed, apps: apps)
            return Dictionary(uniqueKeysWithValues: report.outcome.devices.map { ($0.name, $0.localStorage) })
        }
        let first = try await draws(seed: 11, rolling: true)
        #expect(try await draws(seed: 11, rolling: true) == first)
        #expect(try await draws(seed: 12, rolling: true) != first)
        let alice = try #require(first["alice-phone"]?["rolls"]), bob = try #require(first["bob-phone"]?["rolls"])
        let activations = alice.dropFirst().dropLast().components(separatedBy: ", ")
        #expect(activations.count == 2 && activations[0] != activations[1], "\(alice)")
        #expect(alice != bob)
        let tokensAlone = try await draws(seed: 11, rolling: false)
        #expect(tokensAlone.mapValues { $0["token"] } == first.mapValues { $0["token"] })
    }
}
