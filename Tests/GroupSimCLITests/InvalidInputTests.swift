import Testing
import GroupSimCLI
import GroupSimTesting

/// Bad input exits 2 with a message that says where and what to fix, and never starts a
/// simulation (docs/scenario-format.md).
@Suite struct InvalidInputTests {
    static let valid = """
    name: t
    people:
      alice: [alice-phone]
      bob: [bob-phone]
    network:
      latency: 80ms
    steps:
      - at: 0ms
        device: alice-phone
        send: { session: poll, caption: "Pick" }

    """

    static func edit(_ from: String, _ to: String) -> String {
        valid.split(separator: from, omittingEmptySubsequences: false).joined(separator: to)
    }

    @Test(arguments: [
        ("misspelt-key", edit("latency: 80ms", "latncy: 80ms"),
         #"misspelt-key.yaml:6:3: error: unknown key "latncy" in network; did you mean "latency"?"#),
        ("tab", edit("  latency: 80ms", "\tlatency: 80ms"), "tab.yaml:6:1: error: tab in indentation"),
        ("unknown-device", edit("device: alice-phone", "device: alice-phon"),
         #"unknown-device.yaml:9:13: error: unknown device "alice-phon"; did you mean "alice-phone"?"#),
        ("no-unit", edit("latency: 80ms", "latency: 80"),
         #"no-unit.yaml:6:12: error: expected a duration such as 80ms, found "80""#),
        ("unclosed", edit("caption: \"Pick\" }", "caption: \"Pick\""), #"unclosed.yaml:10:11: error: unclosed "{""#),
        ("duplicate", edit("network:\n  latency: 80ms", "network:\n  latency: 80ms\n  latency: 90ms"),
         #"duplicate.yaml:7:3: error: duplicate key "latency""#),
        ("anchor", edit("latency: 80ms", "latency: &l 80ms"), "anchor.yaml:6:12: error: anchors"),
        ("empty", "", "empty.yaml:1:1: error: the file is empty"),
        ("comments-only", "# nothing here\n\n", "comments-only.yaml:1:1: error: the file is empty"),
    ])
    func invalidFileExitsTwo(name: String, text: String, expected: String) async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let path = try CLI.temporaryFile(in: scratch, "\(name).yaml", text)
        for command in [["run", path], ["check", path]] {
            let result = await CLI.run(command)
            #expect(result.status == 2, "\(command)")
            #expect(result.output.isEmpty, "an invalid file never starts a simulation")
            let firstLine = result.error.split(separator: "\n").first.map(String.init) ?? ""
            #expect(firstLine.hasPrefix(path.replacingSuffix(name + ".yaml") + expected), "\(firstLine)")
        }
    }

    /// Random bytes: an error with a place, never a crash or a hang.
    @Test(arguments: 0..<40)
    func randomBytesExitTwo(seed: Int) async throws {
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        var bytes: [UInt8] = []
        for _ in 0..<(64 + seed * 13) {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        let path = try CLI.temporaryFile(in: scratch, "random-\(seed).yaml", bytes)
        let result = await CLI.run(["run", path])
        #expect(result.status == 2)
        #expect(result.error.contains("random-\(seed).yaml:"))
        #expect(result.error.contains("error: "))
    }

    @Test func missingFile() async {
        let result = await CLI.run(["run", "/nonexistent/x.yaml"])
        #expect(result.status == 2)
        #expect(result.error.contains("cannot read /nonexistent/x.yaml"))
    }

    @Test(arguments: [
        (["run"], "run needs a scenario file"),
        (["run", "a.yaml", "--seed", "-3"], "--seed takes a whole number"),
        (["run", "a.yaml", "--format", "jsn"], "did you mean \"json\"?"),
        (["run", "a.yaml", "--sed", "3"], "did you mean \"--seed\"?"),
        (["rn", "a.yaml"], "did you mean \"run\"?"),
        (["check"], "check needs at least one scenario file"),
    ])
    func usageErrors(arguments: [String], message: String) async {
        let result = await CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.error.contains(message), "\(result.error)")
    }
}

extension String {
    /// The directory part of a path ending in `suffix`, with a trailing slash.
    func replacingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
