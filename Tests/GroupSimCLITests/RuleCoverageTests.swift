import Foundation
import Testing

/// Every rule of docs/behaviour.md is named by at least one test, so a rule without a
/// test shows up here instead of going unnoticed.
@Suite struct RuleCoverageTests {
    @Test func everyRuleHasATestThatNamesIt() throws {
        let tests = CLI.root.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && $0.lastPathComponent != "RuleCoverageTests.swift" } ?? []
        var named = Set<Int>()
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let characters = Array(text.utf8)
            var index = 0
            while index < characters.count {
                defer { index += 1 }
                guard characters[index] == UInt8(ascii: "M"),
                      index == 0 || !Self.isWordCharacter(characters[index - 1]) else { continue }
                var end = index + 1
                var number = 0
                while end < characters.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(characters[end]) {
                    number = number * 10 + Int(characters[end] - UInt8(ascii: "0"))
                    end += 1
                }
                if end > index + 1, end == characters.count || !Self.isWordCharacter(characters[end]) { named.insert(number) }
            }
        }
        let missing = (1...30).filter { !named.contains($0) }
        #expect(missing.isEmpty, "rules with no test naming them: \(missing.map { "M\($0)" })")
    }

    private static func isWordCharacter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }
}
