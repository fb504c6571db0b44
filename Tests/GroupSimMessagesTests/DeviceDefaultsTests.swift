// Foundation only through GroupSimMessages, so `UserDefaults` below is GroupSim's
// (DefaultsShadowingTests checks the other imports).
import GroupSim
import GroupSimMessages
import GroupSimTesting
import Testing

@Suite struct DeviceDefaultsTests {
    /// Each device's `UserDefaults.standard` holds only what its own controller wrote,
    /// the suite holds its own value apart from it, and the reinstalled phone holds
    /// nothing: in the snapshot and, keys sorted, in the JSON report.
    @Test func eachDeviceKeepsItsOwnDefaultsAndReinstallClearsThem() async throws {
        let report = try await DefaultsFixture.scenario().run(seed: 7, apps: DefaultsFixture.apps())
        #expect(report.outcome.failures.isEmpty, "\(report.outcome.failures)")
        #expect(DefaultsFixture.mismatches(inJSONReport: JSONReport.value(report)) == [])
        for person in DefaultsFixture.people {
            let snapshot = try #require(report.outcome.device("\(person)-phone"))
            if person == DefaultsFixture.reinstalled {
                #expect(snapshot.localStorage.isEmpty && snapshot.localSuites.isEmpty, "\(snapshot.localStorage)")
            } else {
                let vote = DefaultsFixture.vote(of: person)
                #expect(snapshot.localStorage == ["activations": "1", "name": person, "vote": vote, "voted": "true"])
                #expect(snapshot.localSuites == ["group.lunch": ["vote": "group:" + vote]])
            }
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
        _ = try await DefaultsFixture.scenario().run(seed: 7, apps: DefaultsFixture.apps())
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
