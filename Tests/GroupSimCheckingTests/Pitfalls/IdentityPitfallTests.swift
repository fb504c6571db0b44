import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
import GroupSimTesting

/// Who voted? The `unattributed` and `double-count` pitfalls in every state
/// mode, and the `app.identity` remedies (M1, M3, M4).
@Suite struct IdentityPitfallTests {
    /// The pickles group (Bob with a phone and an iPad) voting with `$me` keys. With
    /// `ipad`, Bob changes his mind on his iPad after the race.
    /// The votes race (1ms apart) unless `calm` (500ms apart, each built on the last).
    static func poll(state: Scenario.AppSpec.StateMode, identity: Scenario.AppSpec.Identity, ipad: Bool, calm: Bool = false, checks: String = "") -> String {
        let gap = calm ? 500 : 1
        var text = Fixture.group + """
        app: { state: \(state.rawValue), identity: \(identity.rawValue) }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
          - { at: 500ms, device: bob-phone, reply: { session: poll, data: { $me: tomatoes } } }
          - { at: \(500 + gap)ms, device: alice-phone, reply: { session: poll, data: { $me: olives } } }
          - { at: \(500 + 2 * gap)ms, device: carol-phone, reply: { session: poll, data: { $me: pickles } } }

        """
        if ipad { text += "  - { at: 3s, device: bob-ipad, reply: { session: poll, data: { $me: pickles } } }\n" }
        return text + checks
    }

    static let allModes = Scenario.AppSpec.StateMode.allCases

    /// Acceptance: the cloud-merge pickles race keyed by participant identifiers reports
    /// `unattributed` for each vote on every device but the voter's; with install ids, none.
    @Test func cloudMergeRaceIsUnattributedEverywhereButOnTheVotersDevice() async throws {
        let report = try await Fixture.run(Self.poll(state: .cloudMerge, identity: .participantID, ipad: false))
        let unattributed = report.pitfalls.filter { $0.kind == .unattributed }
        let everyDevice = ["alice-phone", "bob-phone", "bob-ipad", "carol-phone"]
        let voters = ["Alice's": "alice-phone", "Bob's": "bob-phone", "Carol's": "carol-phone"]
        #expect(unattributed.count == 3)
        for (who, device) in voters {
            let pitfall = try #require(unattributed.first { $0.summary.hasPrefix(who) }, "\(who) vote")
            #expect(pitfall.devices == everyDevice.filter { $0 != device }, "\(pitfall.summary)")
            #expect(pitfall.rule == "M4")
            #expect(pitfall.explanation.contains("(M1)") && pitfall.explanation.contains("store's poll record"))
            #expect(pitfall.fix.contains("`app.identity: install-id`") && pitfall.fix.contains("UserDefaults"))
        }
        let installs = try await Fixture.run(Self.poll(state: .cloudMerge, identity: .installID, ipad: false))
        #expect(installs.pitfalls.isEmpty, "\(installs.pitfalls.map(\.summary))")
    }

    /// `unattributed` is found wherever the state lives: the URL or any cloud mode.
    @Test(arguments: allModes)
    func unattributedInEveryStateMode(mode: Scenario.AppSpec.StateMode) async throws {
        let report = try await Fixture.run(Self.poll(state: mode, identity: .participantID, ipad: false))
        #expect(report.pitfallKinds.contains(.unattributed), "\(mode): \(report.pitfallKinds)")
        let installs = try await Fixture.run(Self.poll(state: mode, identity: .installID, ipad: false))
        #expect(!installs.pitfallKinds.contains(.unattributed), "\(mode): \(installs.pitfalls.map(\.summary))")
    }

    /// Acceptance: Bob votes on his phone, then on his iPad: with participant identifiers
    /// (and with install ids) he is counted twice, in every state mode; with an account, once.
    @Test(arguments: allModes)
    func bobOnTwoDevicesIsCountedTwiceUnlessKeyedByAccount(mode: Scenario.AppSpec.StateMode) async throws {
        // Calm votes: in the message and overwrite modes a race would lose the phone's vote
        // before the iPad's arrives (M12, M13), and nothing would be counted twice.
        let raw = try await Fixture.run(Self.poll(state: mode, identity: .participantID, ipad: true, calm: true))
        let double = try #require(raw.pitfalls.first { $0.kind == .doubleCount }, "\(mode): \(raw.pitfallKinds)")
        #expect(double.summary.hasPrefix("Bob's choice is counted twice in poll"))
        #expect(double.summary.contains("bob-phone's identifier") && double.summary.contains("bob-ipad's identifier"))
        #expect(double.rule == "M1" && double.fix.contains("`app.identity: account`"))
        let installs = try await Fixture.run(Self.poll(state: mode, identity: .installID, ipad: true, calm: true))
        #expect(installs.pitfallKinds == [.doubleCount], "\(mode): \(installs.pitfalls.map(\.summary))")
        let checks = "expect:\n  - complete: { session: poll, data: { q: topping, $alice: olives, $bob: pickles, $carol: pickles } }\n" +
            "  - no-pitfalls: true\n"
        let account = try await Fixture.run(Self.poll(state: mode, identity: .account, ipad: true, calm: true, checks: checks))
        #expect(account.pitfalls.isEmpty, "\(mode): \(account.pitfalls.map(\.summary))")
        #expect(account.passed, "\(mode): \(account.checks.map(\.detail))")
    }

    /// `$me` in data becomes the key the mode gives: the raw identifier, the install id,
    /// or the account id, the same for both of Bob's devices only in the last mode.
    @Test func dataKeysFollowTheIdentityMode() async throws {
        func keys(_ identity: Scenario.AppSpec.Identity) async throws -> [String] {
            let report = try await Fixture.run(Self.poll(state: .cloudMerge, identity: identity, ipad: true))
            return report.outcome.cloud.first?.state.entries.map(\.key).filter { $0 != "q" } ?? []
        }
        let raw = try await keys(.participantID)
        #expect(raw.count == 4 && raw.allSatisfy { ParticipantID(uuidString: $0) != nil })
        let installs = try await keys(.installID)
        #expect(installs.count == 4 && installs.allSatisfy(AppIdentity.isInstallID))
        let accounts = try await keys(.account)
        #expect(accounts.count == 3 && accounts.allSatisfy(AppIdentity.isAccountID))
    }

    /// The install id lives in the device's local storage: created once, sent with every
    /// message, learned by receivers through senderParticipantIdentifier (M3), and wiped
    /// by a reinstall (M2), after which the old install's vote is unattributed there.
    @Test func installIDIsKeptInLocalStorageUntilAReinstall() async throws {
        let text = Fixture.group + """
        app: { state: cloud-merge, identity: install-id }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
          - { at: 500ms, device: bob-phone, reply: { session: poll, data: { $me: tomatoes } } }
          - { at: 2s, device: bob-phone, reinstall: true }
          - { at: 3s, device: bob-phone, tap: poll }

        """
        let report = try await Fixture.run(text)
        let bob = try #require(report.outcome.device("bob-phone"))
        #expect(bob.installIDs.count == 1)
        #expect(bob.localStorage.isEmpty, "a reinstall wipes the storage: \(bob.localStorage.keys.sorted())")
        let alice = try #require(report.outcome.device("alice-phone"))
        let bobInstall = try #require(bob.installIDs.first)
        #expect(alice.localStorage[AppIdentity.learnedPrefix + bobInstall] == alice.identifiers.first { $0.person == "bob" }?.id.uuidString)
        let unattributed = try #require(report.pitfalls.first { $0.kind == .unattributed })
        #expect(unattributed.devices == ["bob-phone"], "\(unattributed.summary)")
        #expect(unattributed.explanation.contains("a reinstall wipes what it had learned (M2)"))
    }

    @Test func localStorageIsASortedKeyValueStore() {
        let storage = LocalStorage()
        storage["b"] = "2"
        storage["a"] = "1"
        #expect(storage.keys == ["a", "b"] && storage["a"] == "1")
        storage["a"] = nil
        #expect(storage.keys == ["b"])
        storage.set("3", forKey: "c")
        #expect(storage.string(forKey: "c") == "3" && storage.contents == [Scenario.DataEntry("b", "2"), Scenario.DataEntry("c", "3")])
        storage.removeObject(forKey: "b")
        #expect(storage.keys == ["c"])
        storage.removeAll()
        #expect(storage.isEmpty)
    }

    /// Every `Scenarios/identity-*.yaml` holds its checks: the pitfalls each mode still has.
    @Test(arguments: [("participant-id", [Scenario.PitfallKind.unattributed, .doubleCount]), ("install-id", [.doubleCount]), ("account", [])])
    func identityScenariosShowWhatEachModeStillHas(mode: String, kinds: [Scenario.PitfallKind]) async throws {
        let path = ScenarioFiles.root.appendingPathComponent("Scenarios/identity-\(mode).yaml").path
        let report = try await (try ScenarioParser.load(path: path)).run()
        #expect(report.passed, "\(report.checks.map(\.detail))")
        #expect(Set(report.pitfallKinds) == Set(kinds))
    }

    /// The new kinds are in the parser's table: a typo is located and gets a suggestion.
    @Test func pitfallKindTyposAreLocatedWithSuggestions() {
        let diagnostics = ParserFixture.diagnostics(afterHeader: "steps: []\nexpect:\n  - pitfalls: [double-cont, unatributed]\n")
        #expect(diagnostics.contains(#"t.yaml:8:16: error: "#)
            && diagnostics.contains(#"found "double-cont"; did you mean "double-count"?"#), "\(diagnostics)")
        #expect(diagnostics.contains(#"t.yaml:8:29: error: "#)
            && diagnostics.contains(#"found "unatributed"; did you mean "unattributed"?"#), "\(diagnostics)")
    }

    /// The writer prints the new app settings, and they read back unchanged.
    @Test func writerKeepsIdentityStateAndSelection() throws {
        let text = Self.poll(state: .cloudCAS, identity: .installID, ipad: true)
        var scenario = try Fixture.scenario(text)
        scenario.app.selection = .newest
        let written = ScenarioWriter.yaml(scenario)
        #expect(written.contains("app:\n  state: cloud-cas\n  identity: install-id\n  selection: newest\n"), "\(written)")
        #expect(try ScenarioParser.parse(text: written, file: "w.yaml").app == scenario.app)
    }

    /// Under install-id, `$bob` in data is the install id this device learned for Bob's
    /// identifier (the raw identifier while it has learned none).
    @Test func otherPeoplesKeysAreTheInstallIDsLearned() async throws {
        let text = Fixture.group + """
        app: { state: cloud-merge, identity: install-id }
        steps:
          - { at: 0ms, device: carol-phone, send: { session: poll, data: { $bob: early } } }
          - { at: 500ms, device: bob-phone, reply: { session: poll, data: { $me: tomatoes } } }
          - { at: 1s, device: carol-phone, reply: { session: poll, data: { $bob: seen } } }

        """
        let report = try await Fixture.run(text)
        let bobInstall = try #require(report.outcome.device("bob-phone")?.installIDs.first)
        let record = try #require(report.outcome.cloud.first?.state)
        #expect(record[bobInstall] == "seen")
        #expect(record.entries.contains { ParticipantID(uuidString: $0.key) != nil && $0.value == "early" })
    }

    /// Install ids and account ids are minted from each run's seed: explore names them by
    /// device or person, so runs that agree count as one outcome.
    @Test(arguments: [Scenario.AppSpec.Identity.installID, .account])
    func exploreNamesMintedKeys(identity: Scenario.AppSpec.Identity) async throws {
        let scenario = try Fixture.scenario(Self.poll(state: .cloudMerge, identity: identity, ipad: true, calm: true))
        let report = try await Explorer(scenario: scenario, workers: 2).explore(runs: 20, seed: 5)
        #expect(report.distinctOutcomes == 1)
        let shown = try #require(report.outcomes(of: "poll", on: "alice-phone").first?.shown.state.description)
        #expect(shown.contains(identity == .account ? "<account:bob>: pickles" : "<install:bob-ipad>: pickles"), "\(shown)")
    }
}
