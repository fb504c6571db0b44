import Foundation
import Testing

/// `swift test` draws the default samples (`TestSampling` in GroupSimTesting), and
/// `.ci/run` runs the sampled suites again after it with `GROUPSIM_FULL_TESTS=1`: a suite
/// that samples but is missing from that second pass would run its full sample nowhere.
@Suite struct TestSamplingTests {
    @Test func ciRunsEverySampledSuiteInFullAfterTheREADMEsCommand() throws {
        let script = try String(contentsOf: CLI.root.appendingPathComponent(".ci/run"), encoding: .utf8)
        let assignment = try #require(script.split(separator: "\n").first { $0.hasPrefix("sampled=") })
        let named = Set(assignment.dropFirst("sampled=".count).trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
            .split(separator: "|").map(String.init))
        var sampling: [String] = []
        let tests = CLI.root.appendingPathComponent("Tests")
        let files = (FileManager.default.enumerator(atPath: tests.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }
        for file in files.sorted() where !file.hasSuffix("/TestSamplingTests.swift") {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            guard text.contains("TestSampling.") else { continue }
            let suites = text.matches(of: /@Suite(?:\([^)]*\))? struct (\w+)/).map { String($0.output.1) }
            #expect(!suites.isEmpty, "\(file) samples outside a suite")
            sampling += suites
        }
        #expect(sampling.count >= 5, "\(sampling)")
        for suite in sampling {
            #expect(named.contains(suite), "\(suite) samples but .ci/run does not run it with GROUPSIM_FULL_TESTS=1")
        }
        // The full pass comes after the README's command, whose status fails CI first.
        let plain = try #require(script.range(of: "\nswift test 2>&1"))
        let full = try #require(script.range(of: "\nGROUPSIM_FULL_TESTS=1 swift test --skip-build --filter \"$sampled\""))
        #expect(plain.lowerBound < full.lowerBound)
    }
}
