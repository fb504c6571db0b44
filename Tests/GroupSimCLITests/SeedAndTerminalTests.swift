import Foundation
import GroupSimTesting
import Testing
import GroupSim
import GroupSimCLI

/// Every seed the tool prints is accepted by every command, and user strings reach the
/// terminal without their control characters.
@Suite struct SeedAndTerminalTests {
    static let pickles = CLI.path("Scenarios/pickles-race.yaml")
    static let largest = "18446744073709551615"

    /// The file's `seed:` takes the whole unsigned 64-bit range; one more is too large.
    @Test func scenarioFilesTakeEveryUnsignedSeed() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let text = try String(contentsOfFile: Self.pickles, encoding: .utf8)
        let path = try CLI.temporaryFile(in: scratch, "largest-seed.yaml",
            text.replacingOccurrences(of: "\nseed: 7\n", with: "\nseed: \(Self.largest)\n"))
        let check = await CLI.run(["check", path])
        #expect(check.status == 0, "\(check.error)")
        let run = await CLI.run(["run", path])
        #expect(run.output.hasPrefix("pickles-race (seed \(Self.largest))"), "\(run.output.prefix(80))")
        let tooLarge = try CLI.temporaryFile(in: scratch, "too-large-seed.yaml",
            text.replacingOccurrences(of: "\nseed: 7\n", with: "\nseed: 18446744073709551616\n"))
        let refused = await CLI.run(["check", tooLarge])
        #expect(refused.status == 2)
        #expect(refused.error.contains("number too large"), "\(refused.error)")
        // A count above Int64 is still "too large", not taken as text.
        let count = try CLI.temporaryFile(in: scratch, "large-count.yaml",
            text.replacingOccurrences(of: "\nseed: 7\n", with: "\nseed: 7\n")
                .replacingOccurrences(of: "latency: ", with: "latency: 9223372036854775808ms #"))
        #expect(await CLI.run(["check", count]).status == 2)
    }

    /// Every command takes the seeds explore prints: all of UInt64, on the command line.
    @Test func everyCommandTakesEverySeed() async throws {
        for command in [["run", Self.pickles], ["shrink", Self.pickles, "--attempts", "5"], ["explore", Self.pickles, "--runs", "2"]] {
            let result = await CLI.run(command + ["--seed", Self.largest])
            #expect(result.status != 2, "\(command): \(result.error)")
        }
        // The seeds explore derives and prints replay with run and shrink.
        let seed = Explorer.seed(forRun: 0, base: 1)
        #expect(await CLI.run(["shrink", Self.pickles, "--seed", String(seed), "--attempts", "5"]).status != 2)
    }

    /// A shrunk scenario carries a seed above Int64.max and reads back.
    @Test func aShrunkFileWithALargeSeedReadsBack() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let result = await CLI.run(["shrink", CLI.path("Scenarios/pickles-race-window.yaml"), "--seed", Self.largest, "--attempts", "20"])
        guard result.status == 0 else { return }  // this seed's run may hold every check
        #expect(result.output.contains("seed: \(Self.largest)"))
        let path = try CLI.temporaryFile(in: scratch, "shrunk.yaml", result.output)
        #expect(await CLI.run(["check", path]).status == 0)
    }

    @Test func terminalEscapesControlCharacters() {
        #expect(Markup.terminal("plain\ttext\n") == "plain\ttext\n")
        #expect(Markup.terminal("\u{1B}]0;owned\u{07}") == "\\u{1B}]0;owned\\u{7}")
        #expect(Markup.terminal("a\rb\u{7F}c\u{9B}d") == "a\\u{D}b\\u{7F}c\\u{9B}d")
        #expect(Markup.terminal("abc\u{202E}cba") == "abc\\u{202E}cba")
        #expect(Markup.terminal("Zoë 🍕") == "Zoë 🍕")
    }

    static let hostile = """
    name: "hostile\\u001B]0;owned\\u0007"
    people:
      alice: [alice-phone]
      bob: [bob-phone]
    steps:
      - at: 0ms
        device: alice-phone
        send: { session: "poll\\u001B[2J", caption: "Pick\\u001B[31m red" }

    """

    /// Names, sessions and captions echoed in the text report carry no raw ESC.
    @Test func textOutputEscapesUserStrings() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let path = try CLI.temporaryFile(in: scratch, "hostile.yaml", Self.hostile)
        for command in [["run", path], ["run", path, "--format", "sides"], ["explore", path, "--runs", "3"]] {
            let result = await CLI.run(command)
            #expect(result.status == 0, "\(command): \(result.error)")
            #expect(!result.output.contains("\u{1B}"), "\(command)")
            #expect(result.output.contains("\\u{1B}"), "\(command)")
        }
        // --output files too.
        let folder = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(folder) }
        let output = folder.appendingPathComponent("report.txt").path
        #expect(await CLI.run(["run", path, "--output", output]).status == 0)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(!written.contains("\u{1B}") && written.contains("\\u{1B}[2J"))
    }

    /// Error messages that echo a user string, and paths given on the command line.
    @Test func errorMessagesEscapeUserStrings() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let path = try CLI.temporaryFile(in: scratch, "hostile-error.yaml",
            Self.hostile.replacingOccurrences(of: "device: alice-phone", with: "device: \"alice\\u001B[2J\""))
        let result = await CLI.run(["run", path])
        #expect(result.status == 2)
        #expect(!result.error.contains("\u{1B}"))
        #expect(result.error.contains("\\u{1B}[2J"), "\(result.error)")
        let missing = await CLI.run(["run", "no\u{1B}]0;owned\u{07}.yaml"])
        #expect(missing.status == 2)
        #expect(!missing.error.contains("\u{1B}") && !missing.error.contains("\u{07}"))
    }
}

/// `merge` refuses the report of an interrupted shard: it does not cover its runs.
@Suite struct InterruptedMergeTests {
    @Test func mergeRefusesAnInterruptedShard() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let path = CLI.path("Scenarios/pickles-race.yaml")
        let first = await CLI.run(["explore", path, "--runs", "6", "--shard", "0/2", "--format", "json"])
        let second = await CLI.run(["explore", path, "--runs", "6", "--shard", "1/2", "--format", "json"])
        let interrupted = second.output.replacingOccurrences(of: "\"shard\": {", with: "\"interrupted\": true,\n  \"shard\": {")
        #expect(interrupted != second.output)
        let a = try CLI.temporaryFile(in: scratch, "shard-0.json", first.output)
        let b = try CLI.temporaryFile(in: scratch, "shard-1-interrupted.json", interrupted)
        let result = await CLI.run(["merge", a, b])
        #expect(result.status == 2)
        #expect(result.error.contains("an interrupted exploration"), "\(result.error)")
    }
}
