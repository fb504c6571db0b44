import Foundation
import Testing
import GroupSimCLI
import GroupSim
import GroupSimTesting

/// What the tool says to a user besides its reports: help on help, counts in the singular,
/// a Mac's failed reply, the JSON reports' version, rule numbers that name the document
/// they are written up in, and the platforms the package declares.
@Suite struct UserFacingTextTests {
    @Test func helpOnHelp() async {
        for arguments in [["help", "--help"], ["help", "help"], ["--help", "--help"]] {
            let result = await CLI.run(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.output.hasPrefix("Usage: groupsim help [COMMAND | format | steps | checks | pitfalls | callbacks | terms | rules | " +
                "M1...M30]"), "\(arguments)")
        }
        #expect(await CLI.run(["help"]).output.contains("groupsim help [COMMAND | format | steps | checks | pitfalls | callbacks | " +
            "terms | rules | M1...M30]"))
    }

    @Test func oneCopyIsOneCopy() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let file = try CLI.temporaryFile(in: scratch, "one-copy.yaml", """
            name: one-copy
            people: { alice: [alice-phone], bob: [bob-phone] }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll } }
            expect:
              - no-pitfalls: true
            """)
        let result = await CLI.run(["run", file])
        #expect(result.output.contains("1 of 1 checks held; 0 pitfalls; 1 copy delivered; quiet at 50ms"))
        let page = await CLI.run(["run", file, "--format", "html"])
        #expect(page.output.contains("1 copy delivered"))
        #expect(!page.output.contains("pitfall(s)"))
    }

    @Test func aReplyFromAMacSaysAMacDoesNotRunTheExtension() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let file = try CLI.temporaryFile(in: scratch, "mac-reply.yaml", """
            name: mac-reply
            people: { alice: [alice-phone], bob: [bob-phone, bob-mac] }
            devices: { bob-mac: { platform: macos } }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, url: "https://example.com/poll" } }
              - { at: 1s, device: bob-mac, reply: { session: poll, data: { bob: yes } } }
            expect:
              - error: { step: 2, code: unknown }
            """)
        let result = await CLI.run(["run", file])
        #expect(result.status == 0)
        #expect(result.output.contains("step 2 on bob-mac at 1s: unknown (-1): a Mac does not run the iMessage extension, so it cannot " +
            "reply in session poll (M25)"))
        #expect(result.output.contains("rules: M25 docs/behaviour.md#m25"))
        let behaviour = try String(contentsOfFile: CLI.path("docs/behaviour.md"), encoding: .utf8)
        #expect(behaviour.contains("Mac fails with `unknown` (-1) and says that a Mac does not run the extension"))
    }

    @Test func packageDeclaresItsPlatforms() throws {
        let manifest = try String(contentsOfFile: CLI.path("Package.swift"), encoding: .utf8)
        #expect(manifest.contains("platforms: [.macOS(.v13), .iOS(.v16)]"))
        let xcode = try String(contentsOfFile: CLI.path("docs/xcode.md"), encoding: .utf8)
        #expect(xcode.contains("macOS 13") && xcode.contains("iOS 16"))
    }

    @Test func jsonReportsCarryAVersion() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let run = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml"), "--format", "json"])
        #expect(run.output.hasPrefix("{\n  \"version\": 1,\n  \"scenario\": \"pickles-race\""))
        #expect(run.output.contains("\"reference\": \"docs/behaviour.md#m12\""))
        let explore = await CLI.run(["explore", CLI.path("Scenarios/pickles-race-window.yaml"), "--runs", "10", "--format", "json",
            "--quiet"])
        #expect(explore.output.hasPrefix("{\n  \"format\": \"groupsim-exploration-3\",\n  \"version\": 1,"))
        let newer = explore.output.replacingOccurrences(of: "\"version\": 1,", with: "\"version\": 2,")
        let file = try CLI.temporaryFile(in: scratch, "newer.json", newer)
        let merge = await CLI.run(["merge", file])
        #expect(merge.status == 2)
        #expect(merge.error.contains("written by a newer groupsim (report version 2; this one reads up to 1)"))
        let same = try CLI.temporaryFile(in: scratch, "same.json", explore.output)
        let merged = await CLI.run(["merge", same, "--format", "json"])
        #expect(merged.output.contains("\"version\": 1,"))
    }

    /// Every rule a report, lesson, error or help cites is named with its document.
    @Test func ruleNumbersNameTheirDocument() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let run = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml")])
        #expect(run.output.contains("rules: M11 docs/behaviour.md#m11, M12 docs/behaviour.md#m12, M13 docs/behaviour.md#m13\n"))
        let sides = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml"), "--format", "sides"])
        #expect(sides.output.contains("docs/behaviour.md#m12"))
        let html = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml"), "--format", "html"])
        #expect(html.output.contains("M12 docs/behaviour.md#m12"))
        let explore = await CLI.run(["explore", CLI.path("Scenarios/pickles-race-window.yaml"), "--runs", "20", "--quiet"])
        #expect(explore.output.contains("  rules: M12 docs/behaviour.md#m12"))
        let lesson = await CLI.run(["lessons", "simultaneous-replies"])
        // A lesson names each rule by the command that prints it (groupsim help M11), to fit one screen.
        #expect(lesson.output.contains("rules: groupsim help M11 (and M12, M13)"))
        let file = try CLI.temporaryFile(in: scratch, "transcript.yaml", """
            name: transcript
            people: { alice: [alice-phone] }
            steps:
              - { at: 0ms, device: alice-phone, open: transcript }
            """)
        let error = await CLI.run(["check", file])
        #expect(error.status == 2)
        #expect(error.error.contains("(M19)"))
        #expect(error.error.hasSuffix("rules: M19 docs/behaviour.md#m19\n"))
    }

    @Test func ruleReferencesAreFoundOnlyAsRuleNumbers() {
        #expect(RuleReference.rules(in: "(M11, M12) and M13; not M31, XM4, M4x or M100") == ["M11", "M12", "M13"])
        #expect(RuleReference.footnote(for: "nothing here") == nil)
        #expect(RuleReference.path("M7") == "docs/behaviour.md#m7")
    }
}
