import Foundation
import Testing
import GroupSimCLI
import GroupSimTesting

/// From the command line: bounded reads of the files a
/// scenario names, the memory budget and `--max-copies`, short error lists and
/// `--all-errors`, and the sticker size and format codes.
@Suite struct InputLimitsTests {
    /// A fresh folder for one test, removed afterwards.
    static func withFolder(_ label: String, _ body: (URL) async throws -> Void) async throws {
        let folder = try TemporaryFolder.create("input-limits-\(label)")
        defer { TemporaryFolder.remove(folder) }
        try await body(folder)
    }

    static func sticker(_ file: String, code: String) -> String {
        """
        name: sticker
        people:
          alice: [alice-phone]
          bob: [bob-phone]
        steps:
          - at: 0ms
            device: alice-phone
            sticker: { file: \(file), description: "a sticker" }
        expect:
          - error: { step: 1, code: \(code) }

        """
    }

    /// A sticker that names a FIFO (nobody writes to it) or a folder fails at
    /// once with the code Messages gives, and the run ends.
    @Test func aStickerNamingAFIFOOrAFolderFailsAtOnce() async throws {
        try await Self.withFolder("fifo") { folder in
            let fifo = folder.appendingPathComponent("pipe.png").path
            try #require(mkfifo(fifo, 0o600) == 0)
            let subfolder = folder.appendingPathComponent("folder.png")
            try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: false)
            for (file, code) in [("pipe.png", "improperFileType"), ("folder.png", "fileUnreadable")] {
                let path = folder.appendingPathComponent("\(code).yaml").path
                try Data(Self.sticker(file, code: code).utf8).write(to: URL(fileURLWithPath: path))
                let result = await CLI.run(["run", path])
                #expect(result.status == 0, "\(result.output)\(result.error)")
                #expect(result.output.contains("step 1") || result.output.contains(code))
            }
        }
    }

    /// From a file: 512,000 bytes is refused with code 6; a format other than
    /// PNG, APNG, GIF or JPEG is code 7.
    @Test func stickerSizeAndFormatCodesInAScenario() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let text = """
            name: sizes
            people:
              alice: [alice-phone]
              bob: [bob-phone]
            steps:
              - { at: 0ms, device: alice-phone, sticker: { format: png, bytes: 511999, pixels: 408, description: fits } }
              - { at: 1ms, device: alice-phone, sticker: { format: png, bytes: 512000, pixels: 408, description: 500 KiB } }
              - { at: 2ms, device: alice-phone, sticker: { format: webp, bytes: 100, pixels: 408, description: webp } }
            expect:
              - error: { step: 2, code: stickerFileImproperFileSize }
              - error: { step: 3, code: stickerFileImproperFileFormat }

            """
        let path = try CLI.temporaryFile(in: scratch, "sticker-codes.yaml", text)
        let result = await CLI.run(["run", path])
        #expect(result.status == 0, "\(result.output)\(result.error)")
    }

    /// Refused before running, exit 2, with the estimate, the largest
    /// contributor and how to raise the budget; `--max-copies` raises it.
    @Test func aScenarioOverTheBudgetIsRefusedUntilMaxCopiesRaisesIt() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        var text = "name: crowd\npeople:\n"
        for index in 0..<40 { text += "  p\(index): [d\(index)]\n" }
        text += "steps:\n"
        for index in 0..<40 { text += "  - { at: \(index)ms, device: d\(index), text: hi }\n" }
        let path = try CLI.temporaryFile(in: scratch, "crowd.yaml", text)
        for command in ["run", "check", "explore", "shrink"] {
            let refused = await CLI.run([command, path, "--max-copies", "1000"])
            #expect(refused.status == 2, "\(command)")
            #expect(refused.error.hasPrefix("\(path):1:1: error: the scenario is too large to run: about 1,560 copies"), "\(command)")
            #expect(refused.error.contains("the largest contributor is 40 devices × 40 sends"), "\(command)")
            #expect(refused.error.contains("raise the budget with --max-copies N"), "\(command)")
        }
        let allowed = await CLI.run(["run", path, "--max-copies", "2000"])
        #expect(allowed.status == 0, "\(allowed.error)")
        let bad = await CLI.run(["run", path, "--max-copies", "-1"])
        #expect(bad.status == 2)
        #expect(bad.error.contains("--max-copies takes a whole number from 0 to"))
        // Every file in Scenarios/ is within the default budget.
        let check = await CLI.run(["check"] + CLI.scenarioFiles.map(CLI.path))
        #expect(check.status == 0, "\(check.error)")
    }

    /// 20 errors, then "and N more errors"; `--all-errors` prints every one.
    @Test func errorsStopAfterTwentyUnlessAllErrorsIsGiven() async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        var text = "name: typos\npeople:\n"
        for index in 0..<100 { text += "  p\(index): [phone-\(index)]\n" }
        text += "steps:\n"
        for index in 0..<100 { text += "  - { at: 0ms, device: phnoe-\(index), text: hi }\n" }
        let path = try CLI.temporaryFile(in: scratch, "typos.yaml", text)
        for command in ["run", "check", "explore", "shrink"] {
            let short = await CLI.run([command, path])
            #expect(short.status == 2)
            let lines = short.error.split(separator: "\n")
            #expect(lines.count == 21, "\(command)")
            #expect(lines.first == "\(path):104:24: error: unknown device \"phnoe-0\"; did you mean \"phone-0\"?")
            #expect(lines.last == "and 80 more errors (--all-errors prints every one)", "\(command)")
        }
        let all = await CLI.run(["check", path, "--all-errors"])
        #expect(all.status == 2)
        #expect(all.error.split(separator: "\n").count == 100)
        #expect(all.error.hasSuffix("unknown device \"phnoe-99\"; did you mean \"phone-99\"?\n"))
    }
}
