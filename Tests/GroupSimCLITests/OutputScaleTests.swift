import Foundation
import Testing
import GroupSimCLI
import GroupSimTesting

/// The text report of a real group's run fits on a screen or two, and `run --summary`
/// groups the pitfalls by kind and session.
@Suite struct OutputScaleTests {
    /// Five people answer a poll in eight near-simultaneous rounds: dozens of lost updates.
    static var bigGroup: String {
        let people = ["alice", "bob", "carol", "dave", "erin"]
        var lines = ["name: big-group", "seed: 3", "people:"]
        lines += people.map { "  \($0): [\($0)-phone]" }
        lines += ["network: { latency: 40ms, jitter: 30ms }", "steps:",
                  "  - { at: 0ms, device: alice-phone, send: { session: poll, caption: \"Vote\", summary: \"$me asked\", " +
                      "data: { q: lunch } } }"]
        for round in 1...8 {
            lines += ["  - at: \(round)s", "    race:", "      within: 5ms", "      steps:"]
            lines += people.map { "        - { device: \($0)-phone, reply: { session: poll, data: { \($0)\(round): yes }, summary: " +
                "\"$me voted\" } }" }
        }
        lines += ["expect:", "  - diverged: poll", "  - pitfalls: [lost-update]",
            "  - complete: { session: poll, data: { alice1: yes, bob1: yes } }"]
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func fivePeopleWithThirtyPitfallsFitInEightyLines() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let file = try CLI.temporaryFile(in: scratch, "big-group.yaml", Self.bigGroup)
        let full = await CLI.run(["run", file, "--full"])
        let pitfalls = full.output.split(separator: "\n").filter { $0.hasPrefix("  lost-update (M12)")
            || $0.hasPrefix("  divergence (M12)") }
        #expect(pitfalls.count >= 30, "the scenario must give at least 30 pitfalls")
        #expect(full.output.split(separator: "\n", omittingEmptySubsequences: false).count > 300)

        let text = await CLI.run(["run", file])
        #expect(text.status == 1)
        let lines = text.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 80, "\(lines.count) lines")
        #expect(text.output.contains("  lost-update ×38 in poll (M12), first: Alice's change alice1=yes (step 2 on alice-phone, sent " +
            "in m2)"))
        #expect(text.output.contains("  divergence ×1 in poll (M12), first: devices show 4 different states for poll"))
        #expect(text.output.contains("more events (`groupsim run FILE --full` prints every one) ..."))
        #expect(text.output.contains("  FAIL  complete poll {alice1: yes, bob1: yes}"))
        #expect(text.output.hasSuffix("2 of 3 checks held; 39 pitfalls; 164 copies delivered; quiet at 8072.249ms\ntrace: " +
            "faea14b02006b4e768ec255c2c16478c64b93f77c69b9af4303748849decadf7\n"))
        #expect(full.output.hasSuffix("trace: faea14b02006b4e768ec255c2c16478c64b93f77c69b9af4303748849decadf7\n"))
    }

    @Test func summaryIsOneScreen() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let file = try CLI.temporaryFile(in: scratch, "big-group.yaml", Self.bigGroup)
        let summary = await CLI.run(["run", file, "--summary"])
        let lines = summary.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count <= 40, "\(lines.count) lines")
        #expect(lines[1] == "  5 people, 5 devices, 1 conversation; 41 steps, 0 failed; 963 events in the trace")
        #expect(lines.contains("What each device shows (live bubble per session)"))
        #expect(lines.contains { $0.hasPrefix("    poll: m41 from Dave  {alice4: yes") && $0.hasSuffix("(3 summary lines above)") })
        #expect(lines.contains("  PASS  diverged poll  (line 85)"))
        #expect(lines.contains { $0.hasPrefix("  lost-update ×38 in poll (M12), first: ") })
        #expect(!summary.output.contains("Timeline"))
        #expect(await CLI.run(["run", file, "--summary", "--full"]).status == 2)
    }

    /// A small scenario prints as before: every event, entry and pitfall.
    @Test func smallScenariosPrintInFull() async {
        let race = CLI.path("Scenarios/pickles-race.yaml")
        let scaled = await CLI.run(["run", race])
        let full = await CLI.run(["run", race, "--full"])
        #expect(scaled.output == full.output)
        #expect(scaled.output.contains("  lost-update (M12): Bob's change bob=tomatoes"))
    }
}
