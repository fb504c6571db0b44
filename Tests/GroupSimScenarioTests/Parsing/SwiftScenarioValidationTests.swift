import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
import GroupSimTesting

/// A scenario built in Swift is checked exactly as a file is (one validation path): every
/// invalid input that a file test covers and Swift can express is refused here with the
/// file's message, citing the key's path instead of a line and column. `Simulation`,
/// `Explorer` and `Shrinker` refuse it before running anything.
@Suite struct SwiftScenarioValidationTests {
    /// The parser tests' three people (`ParserFixture.header`), built in Swift, with one send.
    static func base() -> Scenario {
        let people = [
            Scenario.Person(key: "alice", devices: ["alice-phone"]),
            Scenario.Person(key: "bob", devices: ["bob-phone", "bob-ipad"]),
            Scenario.Person(key: "carol", devices: ["carol-phone"]),
        ]
        return Scenario(
            name: "t", people: people,
            devices: people.flatMap { person in person.devices.map { Scenario.DeviceSpec(name: $0, person: person.key) } },
            conversations: [Scenario.ConversationSpec(members: ["alice", "bob", "carol"])],
            timeline: [.step(step(1, "alice-phone", .send(Scenario.Compose(session: "poll"))))])
    }

    static func step(_ number: Int, _ device: String, _ action: Scenario.Action, at milliseconds: Int64 = 0, conversation: String? = nil) -> Scenario.Step {
        Scenario.Step(number: number, time: VirtualTime(nanoseconds: milliseconds * 1_000_000), device: device, conversation: conversation,
            action: action)
    }

    /// Each case: what is wrong, and the exact diagnostic (the file's message for the same
    /// mistake, as the parser tests give it, with a path for its place).
    enum Case: String, CaseIterable, Sendable {
        case unknownDeviceInStep, deviceNamesAsPeople, unknownPersonInConversation, personListedTwiceInConversation
        case emptyConversation, stepNeedsConversation, notAMember, unknownConversation, unknownSession, unknownToken
        case unknownTokenInData, transcriptStyle, unknownApp, unknownLinkEndpoint, linkToItself, negativeJitter
        case raceWithinZero, emptyRace, deviceActionWithConversation, emptyText, replyWithURL, joinUnknownPerson
        case leaveNonMember, sessionOfAnotherConversation, emptyPitfalls, summariesDisagree, stepOutOfRange
        case unknownSessionInCheck, personNamedAsDevice, deviceListedTwice, personWithoutDevices
        case noPeople, deviceNobodyLists, stepNumbers

        var scenario: Scenario {
            var scenario = SwiftScenarioValidationTests.base()
            let step = SwiftScenarioValidationTests.step
            let send = Scenario.TimelineItem.step(step(1, "alice-phone", .send(Scenario.Compose(session: "poll")), 0, nil))
            switch self {
            case .unknownDeviceInStep:
                scenario.timeline.append(.step(step(2, "bob-phon", .text("hi"), 1, nil)))
            case .deviceNamesAsPeople:
                scenario.conversations = [Scenario.ConversationSpec(members: ["alice-phone", "bob-phone"])]
            case .unknownPersonInConversation:
                scenario.conversations = [Scenario.ConversationSpec(members: ["alice", "carl"])]
            case .personListedTwiceInConversation:
                scenario.conversations = [Scenario.ConversationSpec(members: ["alice", "alice"])]
                scenario.timeline = []
            case .emptyConversation:
                scenario.conversations = [Scenario.ConversationSpec(members: [])]
                scenario.timeline = []
            case .stepNeedsConversation:
                scenario.conversations = [Scenario.ConversationSpec(name: "family", members: ["alice", "bob"]),
                                          Scenario.ConversationSpec(name: "team", members: ["alice", "carol"])]
                scenario.timeline = [.step(step(1, "alice-phone", .text("hi"), 0, nil))]
            case .notAMember:
                scenario.conversations = [Scenario.ConversationSpec(name: "family", members: ["alice", "bob"]),
                                          Scenario.ConversationSpec(name: "team", members: ["alice", "carol"])]
                scenario.timeline = [.step(step(1, "carol-phone", .text("hi"), 0, "family"))]
            case .unknownConversation:
                scenario.conversations = [Scenario.ConversationSpec(name: "family", members: ["alice", "bob"]),
                                          Scenario.ConversationSpec(name: "team", members: ["alice", "carol"])]
                scenario.timeline = [.step(step(1, "bob-phone", .text("hi"), 0, "tema"))]
            case .unknownSession:
                scenario.timeline.append(.step(step(2, "bob-phone", .reply(Scenario.Compose(session: "pol")), 1000, nil)))
            case .unknownToken:
                scenario.timeline = [.step(step(1, "alice-phone", .send(Scenario.Compose(session: "poll", caption: "$carl picks")), 0, nil))]
            case .unknownTokenInData:
                scenario.timeline.append(.step(step(2, "bob-phone",
                    .reply(Scenario.Compose(session: "poll", data: [Scenario.DataEntry("$bobb", "$5")])), 1000, nil)))
            case .transcriptStyle:
                scenario.timeline = [.step(step(1, "alice-phone", .open(.transcript), 0, nil))]
            case .unknownApp:
                scenario.app = Scenario.AppSpec(name: "my-pol")
            case .unknownLinkEndpoint:
                scenario.network.links = [Scenario.LinkSpec(from: .person("bob"), to: .person("alise"))]
            case .linkToItself:
                scenario.network.links = [Scenario.LinkSpec(from: .device("bob-phone"), to: .device("bob-phone"))]
            case .negativeJitter:
                scenario.network.jitter = VirtualDuration(nanoseconds: -5_000_000)
            case .raceWithinZero:
                scenario.timeline.append(.race(Scenario.Race(time: VirtualTime(nanoseconds: 1_000_000), within: .zero,
                                                    steps: [step(2, "bob-phone", .text("a"), 1, nil)])))
            case .emptyRace:
                scenario.timeline.append(.race(Scenario.Race(time: VirtualTime(nanoseconds: 1_000_000), within: .milliseconds(5), steps: [])))
            case .deviceActionWithConversation:
                scenario.timeline.append(.step(step(2, "alice-phone", .offline, 1, "group")))
            case .emptyText:
                scenario.timeline = [.step(step(1, "alice-phone", .text(""), 0, nil))]
            case .replyWithURL:
                scenario.timeline.append(.step(step(2, "bob-phone", .reply(Scenario.Compose(session: "poll", url: "x")), 1000, nil)))
            case .joinUnknownPerson:
                scenario.timeline = [.step(step(1, "alice-phone", .join(person: "dave"), 0, nil))]
            case .leaveNonMember:
                scenario.timeline = [.step(step(1, "alice-phone", .leave(person: "bob"), 0, nil)),
                                     .step(step(2, "alice-phone", .leave(person: "bob"), 1, nil))]
            case .sessionOfAnotherConversation:
                scenario.conversations = [Scenario.ConversationSpec(name: "family", members: ["alice", "bob"]),
                                          Scenario.ConversationSpec(name: "team", members: ["alice", "bob"])]
                scenario.timeline = [.step(step(1, "alice-phone", .send(Scenario.Compose(session: "poll")), 0, "team")),
                                     .step(step(2, "bob-phone", .reply(Scenario.Compose(session: "poll")), 1000, "family"))]
            case .emptyPitfalls:
                scenario.checks = [Scenario.CheckSpec(.pitfalls([]))]
            case .summariesDisagree:
                scenario.checks = [Scenario.CheckSpec(.summaries(device: "alice-phone", session: "poll", count: 2, texts: ["a"]))]
            case .stepOutOfRange:
                scenario.checks = [Scenario.CheckSpec(.error(step: 2, code: .noBubble))]
            case .unknownSessionInCheck:
                scenario.checks = [Scenario.CheckSpec(.converged(session: "pol"))]
            case .personNamedAsDevice:
                scenario.people = [Scenario.Person(key: "alice", devices: ["bob"]), Scenario.Person(key: "bob", devices: ["bob-phone"])]
                scenario.devices = [Scenario.DeviceSpec(name: "bob", person: "alice"), Scenario.DeviceSpec(name: "bob-phone", person: "bob")]
                scenario.conversations = [Scenario.ConversationSpec(members: ["alice", "bob"])]
                scenario.timeline = []
            case .deviceListedTwice:
                scenario.people[1].devices = ["bob-phone", "alice-phone"]
                scenario.devices[2] = Scenario.DeviceSpec(name: "alice-phone", person: "bob")
                scenario.timeline = []
            case .personWithoutDevices:
                scenario.people[0].devices = []
                scenario.devices.removeFirst()
                scenario.timeline = []
            case .noPeople:
                scenario.people = []
                scenario.devices = []
                scenario.conversations = []
                scenario.timeline = []
            case .deviceNobodyLists:
                scenario.devices.append(Scenario.DeviceSpec(name: "dave-phone", person: "carol"))
            case .stepNumbers:
                scenario.timeline = [send, .step(step(5, "bob-phone", .text("hi"), 1, nil))]
            }
            return scenario
        }

        /// The file's message for the same mistake, at the key's path.
        var expected: String {
            switch self {
            case .unknownDeviceInStep: #"<swift>:steps[1].device: error: unknown device "bob-phon"; did you mean "bob-phone"?"#
            case .deviceNamesAsPeople:
                #"""
                <swift>:conversation[0]: error: unknown person "alice-phone"; expected alice, bob or carol
                <swift>:conversation[1]: error: unknown person "bob-phone"; expected alice, bob or carol
                """#
            case .unknownPersonInConversation: #"<swift>:conversation[1]: error: unknown person "carl"; did you mean "carol"?"#
            case .personListedTwiceInConversation: "<swift>:conversation[1]: error: alice is listed twice in conversation"
            case .emptyConversation: "<swift>:conversation: error: conversation has no members; list at least one person"
            case .stepNeedsConversation: "<swift>:steps[0]: error: a text step needs conversation: when there are several (family or team)"
            case .notAMember: #"<swift>:steps[0].device: error: carol-phone belongs to carol, who is not a member of conversation "family""#
            case .unknownConversation: #"<swift>:steps[0].conversation: error: unknown conversation "tema"; did you mean "team"?"#
            case .unknownSession: #"<swift>:steps[1].reply.session: error: unknown session "pol"; did you mean "poll"?"#
            case .unknownToken: #"<swift>:steps[0].send.caption: error: unknown person "$carl" in caption; did you mean "$carol"?"#
            case .unknownTokenInData: #"<swift>:steps[1].reply.data.$bobb: error: unknown person "$bobb" in data; did you mean "$bob"?"#
            case .transcriptStyle:
                "<swift>:steps[0].open: error: transcript style cannot be requested (M19): it is a per-bubble instance; open compact " +
                    "or expanded"
            case .unknownApp: #"<swift>:app.name: error: unknown app "my-pol"; registered apps: none (leave out app.name to use the "# +
                #"built-in app)"#
            case .unknownLinkEndpoint: #"<swift>:network.links[0].to: error: unknown person or device "alise"; did you mean "alice"?"#
            case .linkToItself:
                "<swift>:network.links[0].to: error: a link from bob-phone to itself carries nothing: a device never receives its own " +
                    "copies"
            case .negativeJitter: #"<swift>:network.jitter: error: expected a duration such as 80ms, found "-5ms", which is negative; "# +
                #"the allowed range is 0ms to 525600m (365 days)"#
            case .raceWithinZero:
                "<swift>:steps[1].race.within: error: a race's within must be longer than 0ms: each step starts at an offset drawn " +
                    "from [0, within)"
            case .emptyRace: "<swift>:steps[1].race.steps: error: a race needs at least one step"
            case .deviceActionWithConversation:
                #"<swift>:steps[1].conversation: error: offline acts on the whole device, not on one conversation; remove "conversation""#
            case .emptyText: "<swift>:steps[0].text: error: an empty text message cannot be sent"
            case .replyWithURL:
                #"<swift>:steps[1].reply.url: error: reply takes session, data, the layout's fields, summary and direct; "url" is "# +
                    #"only for send and insert"#
            case .joinUnknownPerson: #"<swift>:steps[0].join: error: unknown person "dave"; expected alice, bob or carol"#
            case .leaveNonMember: #"<swift>:steps[1].leave: error: bob is not a member of conversation "group""#
            case .sessionOfAnotherConversation:
                #"<swift>:steps[1].reply.session: error: session "poll" belongs to conversation "team" (created at "# +
                    #"steps[0].send.session), not "family""#
            case .emptyPitfalls: "<swift>:expect[0].pitfalls: error: pitfalls lists none; to expect no pitfalls, write no-pitfalls: true"
            case .summariesDisagree: "<swift>:expect[0].summaries.count: error: count is 2 but texts lists 1 line"
            case .stepOutOfRange: "<swift>:expect[0].error.step: error: step 2 is out of range; the file has 1 step"
            case .unknownSessionInCheck: #"<swift>:expect[0].converged: error: unknown session "pol"; did you mean "poll"?"#
            case .personNamedAsDevice: #"<swift>:people.bob: error: person "bob" has the same name as a device (people.alice[0])"#
            case .deviceListedTwice: #"<swift>:people.bob[1]: error: device "alice-phone" is listed twice (people.alice[0])"#
            case .personWithoutDevices: "<swift>:people.alice: error: alice has no devices; list at least one, such as [alice-phone]"
            case .noPeople: "<swift>:people: error: people is empty; list at least one person and their devices"
            case .deviceNobodyLists:
                #"<swift>:people.carol: error: device "dave-phone" (devices[4]) belongs to carol, who does not list it among their devices"#
            case .stepNumbers:
                "<swift>:steps[1]: error: step number 5 should be 2: steps are numbered 1, 2, ... in file order, a race's steps included"
            }
        }
    }

    @Test(arguments: Case.allCases)
    func swiftBuiltScenarioIsRefusedWithTheFilesMessage(_ which: Case) {
        do {
            try which.scenario.validate()
            Issue.record("\(which.rawValue): accepted")
        } catch {
            #expect(error.description == which.expected, "\(which.rawValue)")
        }
    }

    /// The issue's two silent cases: device names where people are expected, and a step on
    /// a misspelt device. Every entry point refuses them before running anything.
    @Test func simulationExplorerAndShrinkerRefuseAnInvalidScenario() async {
        for which in [Case.deviceNamesAsPeople, .unknownDeviceInStep] {
            let scenario = which.scenario
            await #expect(throws: ScenarioErrors.self) { try await Simulation(scenario: scenario).run() }
            await #expect(throws: ScenarioErrors.self) { try await scenario.run() }
            do {
                _ = try await Explorer(scenario: scenario).explore(runs: 3)
                Issue.record("explore ran \(which.rawValue)")
            } catch {
                #expect(error.description == which.expected)
            }
            await #expect(throws: ExplorationError.self) { try await Explorer(scenario: scenario).exhaustive() }
            await #expect(throws: ScenarioErrors.self) { try await Shrinker().shrink(scenario, seed: 1) }
        }
    }

    /// A valid scenario from a file or from Swift passes, and the file's form of every
    /// scenario in Scenarios/ is valid as it stands.
    @Test func validScenariosPass() throws {
        try Self.base().validate()
        for file in ScenarioFiles.shipped {
            let scenario = try ScenarioParser.load(path: file)
            try scenario.validate()
        }
    }
}
