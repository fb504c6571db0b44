import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
import GroupSimTesting

/// What no real scenario needs is capped with a located error naming
/// the limit, a scenario is checked against a memory budget before it runs, and errors
/// stay short and cheap.
@Suite struct ScenarioLimitsTests {
    // MARK: Caps on names, texts and files

    @Test func aNameOfMoreThan200CharactersIsRefusedWhereItIsWritten() {
        let long = String(repeating: "d", count: 201)
        let body = "conversations: { \(long): [alice, bob] }\nsteps: []\n"
        #expect(ParserFixture.diagnostics(afterHeader: body).hasPrefix(
            "t.yaml:6:18: error: name \"\(String(repeating: "d", count: 60))…\" is longer than the limit of 200 characters"
        ))
        // A person key is a name too; 200 characters are fine.
        let person = String(repeating: "p", count: 201)
        let text = "name: t\npeople:\n  \(person): [phone]\nsteps: []\n"
        #expect(ParserFixture.diagnostics(text).hasPrefix("t.yaml:3:3: error: name \""))
        #expect(ParserFixture.diagnostics(text).hasSuffix("is longer than the limit of 200 characters"))
        let fine = "name: t\npeople:\n  \(String(repeating: "p", count: 200)): [phone]\nsteps: []\n"
        #expect(ParserFixture.diagnostics(fine) == "valid")
    }

    @Test func aTextOrDataValueOfMoreThan1MiBIsRefused() {
        let big = String(repeating: "x", count: 1_048_577)
        let caption = "steps:\n  - { at: 0ms, device: alice-phone, send: { session: s, caption: \(big) } }\n"
        #expect(ParserFixture.diagnostics(afterHeader: caption)
            == "t.yaml:7:66: error: text of 1048577 bytes is longer than the limit of 1 MiB (1048576 bytes)")
        let data = "steps:\n  - { at: 0ms, device: alice-phone, send: { session: s, data: { k: \(big) } } }\n"
        #expect(ParserFixture.diagnostics(afterHeader: data)
            == "t.yaml:7:68: error: text of 1048577 bytes is longer than the limit of 1 MiB (1048576 bytes)")
        let exactly = String(repeating: "x", count: 1_048_576)
        #expect(ParserFixture.diagnostics(afterHeader: "steps:\n  - { at: 0ms, device: alice-phone, text: \(exactly) }\n") == "valid")
    }

    @Test func aFileOverTheSizeLimitIsRefusedWithoutReadingTheRest() throws {
        let folder = try TemporaryFolder.create("limits")
        defer { TemporaryFolder.remove(folder) }
        let path = folder.appendingPathComponent("big.yaml").path
        let text = ParserFixture.header + "steps: []\n" + String(repeating: "# padding\n", count: 100)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let limits = ScenarioLimits(maximumFileBytes: 500)
        #expect(throws: ScenarioErrors.self) { try ScenarioParser.load(path: path, limits: limits) }
        do {
            _ = try ScenarioParser.load(path: path, limits: limits)
        } catch {
            #expect(error.description == "\(path):1:1: error: the file is larger than the limit of 500 bytes (500 bytes) for a scenario")
        }
        #expect(ScenarioLimits.default.maximumFileBytes == 64 * 1_048_576)
        #expect(throws: Never.self) { try ScenarioParser.load(path: path) }
    }

    // MARK: Errors stay short

    /// 16,000 misspelt device names took minutes and printed 32,000 errors: with a limit
    /// the first errors come in full, with their suggestions, and the rest are counted.
    @Test func pastTheErrorLimitTheRestAreCounted() {
        var text = "name: t\npeople:\n"
        for index in 0..<300 { text += "  p\(index): [device-\(index)]\n" }
        text += "steps:\n"
        for index in 0..<300 { text += "  - { at: 0ms, device: devcie-\(index), text: hi }\n" }
        do {
            _ = try ScenarioParser.parse(text: text, file: "t.yaml", limits: ScenarioLimits(errorLimit: 20))
            Issue.record("expected errors")
        } catch {
            #expect(error.errors.count == 20)
            #expect(error.omittedCount == 280)
            #expect(error.errors.first?.description
                == #"t.yaml:304:24: error: unknown device "devcie-0"; did you mean "device-0"?"#)
            #expect(error.description.hasSuffix("\nand 280 more errors (--all-errors prints every one)"))
        }
        do {
            _ = try ScenarioParser.parse(text: text, file: "t.yaml")
        } catch {
            #expect(error.errors.count == 300)
            #expect(error.omittedCount == 0)
            #expect(error.errors.last?.suggestion == "device-299")
        }
    }

    /// The bounded distance agrees with the full one whenever it answers, and answers
    /// exactly when the full distance is within the bound.
    @Test func theBoundedDistanceAgreesWithTheFullOne() {
        var generator = SplitMix64(seed: 14_5)
        let alphabet = Array("abcde")
        for round in 0..<2_000 {
            let source = (0..<Int(generator.next(below: 9))).map { _ in alphabet[Int(generator.next(below: 5))] }
            let target = (0..<Int(generator.next(below: 9))).map { _ in alphabet[Int(generator.next(below: 5))] }
            let bound = Int(generator.next(below: 5))
            let full = Suggestion.distance(source, target)
            let bounded = Suggestion.boundedDistance(source, target, bound: bound)
            #expect(bounded == (full <= bound ? full : nil), "seed 145, round \(round): \(String(source)) \(String(target)) bound \(bound)")
        }
    }

    /// The prepared index answers exactly as the plain scan: the smallest distance, a tie
    /// to the first listed, across several lists in order.
    @Test func theIndexAgreesWithThePlainScan() {
        var generator = SplitMix64(seed: 14_05)
        let alphabet = Array("abcAB-")
        func word(_ length: Int) -> String { String((0..<length).map { _ in alphabet[Int(generator.next(below: 6))] }) }
        for round in 0..<300 {
            let lists = (0..<Int(1 + generator.next(below: 3))).map { _ in
                (0..<Int(generator.next(below: 30))).map { _ in word(Int(generator.next(below: 8))) }
            }
            let indices = lists.map(Suggestion.Index.init)
            for _ in 0..<10 {
                let probe = word(Int(generator.next(below: 9)))
                #expect(
                    Suggestion.nearest(to: probe, in: indices) == Suggestion.nearest(to: probe, inLists: lists),
                    "seed 1405, round \(round): \(probe) in \(lists)"
                )
            }
        }
    }

    // MARK: The memory budget

    static func group(people: Int, messages: Int) -> Scenario {
        var text = "name: g\npeople:\n"
        for index in 0..<people { text += "  p\(index): [d\(index)]\n" }
        text += messages == 0 ? "steps: []\n" : "steps:\n"
        for message in 0..<messages {
            for index in 0..<people { text += "  - { at: \(message)s, device: d\(index), text: hi }\n" }
        }
        return (try? ScenarioParser.parse(text: text, file: "g.yaml"))
            ?? Scenario(name: "", people: [], devices: [], conversations: [], timeline: [])
    }

    @Test func theEstimateCountsEveryCopyAndNamesTheLargestContributor() {
        let scenario = Self.group(people: 50, messages: 4)
        let estimate = ScenarioBudget.estimate(scenario)
        #expect(estimate.copies == 200 * 49)
        #expect(estimate.sends == 200)
        #expect(estimate.devices == 50)
        #expect(estimate.links == 2_500)
        #expect(estimate.largestContributor == "50 devices × 200 sends")
        #expect(throws: Never.self) { try ScenarioBudget().check(scenario) }
        do {
            try ScenarioBudget(maximumCopies: 9_000).check(scenario)
            Issue.record("expected the budget to refuse 9,800 copies")
        } catch {
            #expect(error.description.hasPrefix("g.yaml:1:1: error: the scenario is too large to run: about 9,800 copies to deliver to " +
                "50 devices"))
            #expect(error.description.contains("the largest contributor is 50 devices × 200 sends"))
            #expect(error.description.contains("raise the budget with --max-copies N (N at least 9,943)"))
        }
    }

    /// The issue's sizes: 20,000 people sending 5 messages each is refused; a 1,000-device
    /// group in which everyone sends 10 messages (9,990,000 copies) and every file in
    /// Scenarios/ are within the default budget.
    @Test func theDefaultBudgetAdmitsThousandDeviceGroupsAndRefusesTwentyThousand() throws {
        let thousand = Self.group(people: 1_000, messages: 10)
        #expect(ScenarioBudget.estimate(thousand).copies == 9_990_000)
        #expect(throws: Never.self) { try ScenarioBudget().check(thousand) }

        var huge = Self.group(people: 20_000, messages: 0)
        let steps = (0..<100_000).map { index in
            Scenario.TimelineItem.step(Scenario.Step(number: index + 1, time: .zero, device: "d\(index % 20_000)", action: .text("hi")))
        }
        huge.timeline = steps
        let estimate = ScenarioBudget.estimate(huge)
        #expect(estimate.copies == 100_000 * 19_999)
        #expect(estimate.largestContributor == "20,000 devices × 100,000 sends")
        #expect(throws: ScenarioErrors.self) { try ScenarioBudget().check(huge) }

        // Devices alone: 100,000 devices and no send need a 10^10-entry link table.
        var crowd = Self.group(people: 1, messages: 0)
        crowd.devices = (0..<100_000).map { Scenario.DeviceSpec(name: "d\($0)", person: "p0") }
        #expect(ScenarioBudget.estimate(crowd).largestContributor == "100,000 devices × 100,000 devices (the link table)")
        #expect(throws: ScenarioErrors.self) { try ScenarioBudget().check(crowd) }
    }
}
