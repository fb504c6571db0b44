import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
import GroupSimTesting

/// One descriptor per kind: every step, check, pitfall and callback has a
/// descriptor whose keyword the parser reads back as that kind and the writer writes; the
/// schema lists exactly the descriptors' keywords; the device's classifiers and exhaustive
/// exploration's independence relation come from the descriptors and keep their old tables.
@Suite struct KindDescriptorTests {
    /// alice and bob in the conversation, carol outside it (for `join`); step 1 sends `poll`.
    static let base = """
        name: kinds
        people: { alice: [alice-phone], bob: [bob-phone], carol: [carol-phone] }
        conversation: [alice, bob]
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll } }

        """

    /// An action of each kind. The switch has no `default:`: a new kind must be added here.
    static func sample(_ kind: Scenario.Action.Kind) -> Scenario.Action {
        switch kind {
        case .send: .send(Scenario.Compose(session: "poll", data: [Scenario.DataEntry("alice", "pickles")], caption: "Pick"))
        case .reply: .reply(Scenario.Compose(session: "poll", data: [Scenario.DataEntry("bob", "tomatoes")], direct: true))
        case .insert: .insert(Scenario.Compose(session: "draft", subcaption: "sub", url: "https://example.com/x"))
        case .pressSend: .pressSend
        case .cancel: .cancel
        case .open: .open(.expanded)
        case .tap: .tap(session: "poll")
        case .close: .close
        case .text: .text("hello")
        case .sticker: .sticker(.described(format: "png", bytes: 1000, pixels: 408, description: "Pickle"))
        case .reinstall: .reinstall
        case .offline: .offline
        case .online: .online
        case .join: .join(person: "carol")
        case .leave: .leave(person: "bob")
        }
    }

    /// A check of each kind. The switch has no `default:`: a new kind must be added here.
    static func sample(_ kind: Scenario.Check.Kind) -> Scenario.Check {
        switch kind {
        case .latest: .latest(device: "bob-phone", session: "poll", from: "alice", data: [Scenario.DataEntry("a", "b")], caption: "Pick",
                              layout: Scenario.LayoutExpectation(fields: [.imageTitle: "Lunch", .trailingCaption: "$bob"], captionBar: true))
        case .summaries: .summaries(device: "bob-phone", session: "poll", count: 1, texts: ["one"])
        case .plain: .plain(device: "bob-phone", count: 2, texts: ["[picture of pizza]", "?q=lunch"])
        case .converged: .converged(session: "poll")
        case .diverged: .diverged(session: "poll")
        case .complete: .complete(session: "poll", data: [Scenario.DataEntry("alice", "pickles")])
        case .pitfalls: .pitfalls([.lostUpdate, .divergence])
        case .noPitfalls: .noPitfalls
        case .callbacks: .callbacks(device: "alice-phone", sequence: [.willBecomeActive, .didBecomeActive])
        case .error: .error(step: 1, code: .noBubble)
        }
    }

    static func parsed(_ text: String) throws -> Scenario { try ScenarioParser.parse(text: text, file: "kinds.yaml") }

    // MARK: steps

    @Test(arguments: Scenario.Action.Kind.allCases)
    func everyStepKindRoundTripsThroughWriterAndParser(_ kind: Scenario.Action.Kind) throws {
        let descriptor = kind.descriptor
        #expect(Scenario.Action.Kind(keyword: descriptor.keyword) == kind)
        let action = Self.sample(kind)
        #expect(action.kind == kind)
        #expect(action.keyword == descriptor.keyword)

        var scenario = try Self.parsed(Self.base)
        scenario.timeline.append(.step(Scenario.Step(number: 2, time: .zero + .milliseconds(10), device: "alice-phone", action: action)))
        let text = ScenarioWriter.yaml(scenario)
        #expect(text.contains("\n    \(descriptor.keyword): "), "written as:\n\(text)")
        let reread = try Self.parsed(text)
        #expect(reread.steps.last?.action == action, "written as:\n\(text)")
        #expect(reread.steps.last?.summary.hasPrefix(descriptor.keyword) == true)
    }

    @Test func theParserAndSchemaTakeTheStepKeywordsFromTheDescriptors() {
        #expect(ScenarioVocabulary.actions.map(\.key) == Scenario.Action.Kind.keywords)
        #expect(ScenarioParser.Context.actionKeywords == Scenario.Action.Kind.keywords)
        #expect(ScenarioVocabulary.step.exactlyOne == Scenario.Action.Kind.keywords + ["race"])
        #expect(ScenarioVocabulary.raceStep.exactlyOne == Scenario.Action.Kind.keywords)
        #expect(Set(Scenario.Action.Kind.keywords).count == Scenario.Action.Kind.allCases.count)
    }

    @Test func aMisspeltStepKeywordIsSuggestedFromTheDescriptors() {
        let diagnostics = ParserFixture.diagnostics("""
            name: t
            people: { alice: [alice-phone] }
            steps:
              - { at: 0ms, device: alice-phone, press-sned: true }
            """)
        #expect(diagnostics.contains("did you mean \"press-send\"?"), "\(diagnostics)")
    }

    /// The classifiers keep the tables they had as switches before the descriptors.
    @Test func theClassifiersComeFromTheDescriptors() {
        let kinds = Scenario.Action.Kind.allCases
        #expect(kinds.filter { Device.postsTo(Self.sample($0)) }
            == [.send, .reply, .insert, .pressSend, .cancel, .open, .tap, .text, .sticker])
        #expect(kinds.filter { Device.interactsWithExtension(Self.sample($0)) } == [.send, .reply, .insert])
        #expect(ScenarioVocabulary.deviceActions == ["reinstall", "offline", "online"])
        #expect(kinds.filter { $0.descriptor.sends } == [.send, .reply, .pressSend, .text, .sticker])
        #expect(kinds.filter { Self.sample($0).delivers } == [.send, .reply, .pressSend, .text, .sticker])
        #expect(kinds.filter { $0.descriptor.composesWithoutSelection } == [.send, .insert, .text, .sticker])
        #expect(kinds.filter { $0.descriptor.independence == .everyDevice } == [.join, .leave])
        #expect(kinds.filter { $0.descriptor.independence == .connectivity(goesOffline: true) } == [.offline])
        #expect(kinds.filter { $0.descriptor.independence == .connectivity(goesOffline: false) } == [.online])
        for kind in kinds {
            let action = Self.sample(kind)
            #expect((action.compose != nil) == [.send, .reply, .insert].contains(kind), "\(kind)")
            #expect((action.session != nil) == [.send, .reply, .insert, .tap].contains(kind), "\(kind)")
            #expect((action.member != nil) == [.join, .leave].contains(kind), "\(kind)")
            #expect(kind.descriptor.rules.allSatisfy { $0.number.map { (1...30).contains($0) } == true }, "\(kind)")
        }
    }

    /// The independence relation is defined for every pair of step kinds, on the same and
    /// on different devices: symmetric, nothing commutes on one device, a membership change
    /// commutes with nothing, everything else commutes across devices (M11).
    @Test func theIndependenceRelationCoversEveryPairOfStepKinds() {
        for first in Scenario.Action.Kind.allCases {
            for second in Scenario.Action.Kind.allCases {
                let a = first.descriptor.independence
                let b = second.descriptor.independence
                for sameDevice in [true, false] {
                    #expect(a.commutes(with: b, sameDevice: sameDevice) == b.commutes(with: a, sameDevice: sameDevice))
                }
                #expect(!a.commutes(with: b, sameDevice: true), "\(first) \(second)")
                let membership: Set<Scenario.Action.Kind> = [.join, .leave]
                let expected = !membership.contains(first) && !membership.contains(second)
                #expect(a.commutes(with: b, sameDevice: false) == expected, "\(first) \(second)")
            }
        }
    }

    /// Exhaustive exploration reads the independence class: a `join` belongs to every
    /// device, so the steps on either side of it keep their order relative to it, while two
    /// sends on different devices commute. Counted as distinct orders of a race.
    @Test func exhaustiveExplorationOrdersAMembershipStepAgainstEveryDevice() async throws {
        func orders(_ second: String) async throws -> Int {
            let scenario = try Self.parsed("""
                name: race
                people: { alice: [alice-phone], bob: [bob-phone], carol: [carol-phone] }
                conversation: [alice, bob]
                steps:
                  - at: 0ms
                    race:
                      within: 5ms
                      steps:
                        - { device: alice-phone, send: { session: poll } }
                        - { device: bob-phone, \(second) }
                """)
            return try await Explorer(scenario: scenario).exhaustive().runs.clampedInt
        }
        let withText = try await orders("text: hi")
        let withJoin = try await orders("join: carol")
        // A join changes who receives alice's copy: it does not commute with her send.
        #expect(withJoin > withText, "join: \(withJoin) orders, text: \(withText) orders")
    }

    // MARK: checks

    @Test(arguments: Scenario.Check.Kind.allCases)
    func everyCheckKindRoundTripsThroughWriterAndParser(_ kind: Scenario.Check.Kind) throws {
        let descriptor = kind.descriptor
        #expect(Scenario.Check.Kind(keyword: descriptor.keyword) == kind)
        let check = Self.sample(kind)
        #expect(check.kind == kind)
        let line = ScenarioWriter.check(check)
        #expect(line.hasPrefix(descriptor.keyword + ": "))
        var scenario = try Self.parsed(Self.base)
        scenario.checks = [Scenario.CheckSpec(check)]
        let text = ScenarioWriter.yaml(scenario)
        let reread = try Self.parsed(text)
        #expect(reread.checks.map(\.check) == [check], "written as:\n\(text)")
    }

    @Test func theParserAndSchemaTakeTheCheckKeywordsFromTheDescriptors() {
        #expect(ScenarioVocabulary.checks.map(\.key) == Scenario.Check.Kind.keywords)
        #expect(ScenarioVocabulary.check.exactlyOne == Scenario.Check.Kind.keywords)
        #expect(ScenarioParser.Context.checkKeywords == Scenario.Check.Kind.keywords)
        #expect(Set(Scenario.Check.Kind.keywords).count == Scenario.Check.Kind.allCases.count)
        let diagnostics = ParserFixture.diagnostics("""
            name: t
            people: { alice: [alice-phone] }
            steps: []
            expect:
              - { no-pitfall: true }
            """)
        #expect(diagnostics.contains("did you mean \"no-pitfalls\"?"), "\(diagnostics)")
    }

    // MARK: pitfalls and callbacks

    @Test(arguments: Scenario.PitfallKind.allCases)
    func everyPitfallKindRoundTripsThroughAPitfallsCheck(_ kind: Scenario.PitfallKind) throws {
        let descriptor = kind.descriptor
        #expect(descriptor.keyword == kind.rawValue)
        #expect(Scenario.PitfallKind(keyword: descriptor.keyword) == kind)
        #expect(descriptor.rules.contains(descriptor.rule))
        #expect(kind.rule == descriptor.rule)
        var scenario = try Self.parsed(Self.base)
        scenario.checks = [Scenario.CheckSpec(.pitfalls([kind]))]
        let text = ScenarioWriter.yaml(scenario)
        #expect(text.contains("pitfalls: [\(descriptor.keyword)]"))
        #expect(try Self.parsed(text).checks.map(\.check) == [.pitfalls([kind])])
    }

    @Test func everyCallbackNameIsCheckedFromTheDescriptors() throws {
        #expect(AppCallback.names == AppCallback.allCases.map(\.descriptor.name))
        #expect(AppCallback.allCases.allSatisfy { $0.descriptor.name == $0.rawValue })
        #expect(ScenarioVocabulary.callbackNames == AppCallback.names)
        #expect(ScenarioParser.Context.callbackNames == AppCallback.names)
        var scenario = try Self.parsed(Self.base)
        scenario.checks = [Scenario.CheckSpec(.callbacks(device: "alice-phone", sequence: AppCallback.allCases))]
        #expect(try Self.parsed(ScenarioWriter.yaml(scenario)).checks.map(\.check) == scenario.checks.map(\.check))
    }

    // MARK: the schema

    /// The schema's lists are exactly the descriptors' keywords, in order.
    @Test func theSchemaListsExactlyTheDescriptorsKeywords() throws {
        let schema = try JSONValue.parse(ScenarioSchema.render())
        func definition(_ name: String) -> JSONValue? { schema["$defs"]?[name] }
        func oneOf(_ name: String) -> [String] {
            guard case .array(let items)? = definition(name)?["oneOf"] else { return [] }
            return items.compactMap { item in
                guard case .array(let keys)? = item["required"], case .string(let key)? = keys.first else { return nil }
                return key
            }
        }
        func words(_ value: JSONValue?) -> [String] {
            guard case .array(let items)? = value?["items"]?["enum"] else { return [] }
            return items.compactMap { if case .string(let word) = $0 { word } else { nil } }
        }
        #expect(oneOf("step") == Scenario.Action.Kind.keywords + ["race"])
        #expect(oneOf("race-step") == Scenario.Action.Kind.keywords)
        #expect(oneOf("check") == Scenario.Check.Kind.keywords)
        #expect(words(definition("check")?["properties"]?["pitfalls"]) == Scenario.PitfallKind.keywords)
        #expect(words(definition("callbacks")?["properties"]?["sequence"]) == AppCallback.names)
    }
}

private extension JSONValue {
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }
}
