import Foundation
import Testing
@testable import GroupSim
import GroupSimTesting

/// Every scenario file's digest, pinned: a change to how the simulation is built (devices,
/// queue, trace types) must not change what a run does. `golden-digests.txt` holds one line
/// per file, `PATH DIGEST`; a change that means to alter runs updates it in the same
/// commit and says why.
@Suite struct GoldenDigestTests {
    static let goldenFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("golden-digests.txt")

    static let golden: [String: String] = {
        let text = (try? String(contentsOf: goldenFile, encoding: .utf8)) ?? ""
        var pinned: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ")
            if fields.count == 2 { pinned[String(fields[0])] = String(fields[1]) }
        }
        return pinned
    }()

    static let files = ScenarioFiles.shippedNames

    @Test func everyScenarioFileIsPinned() {
        #expect(Self.golden.count > 20)
        #expect(Set(Self.files) == Set(Self.golden.keys), "golden-digests.txt lists other files than Scenarios/")
    }

    @Test(arguments: files)
    func digestIsUnchanged(_ file: String) async throws {
        let report = try await DigestTests.report(file)
        #expect(report.digest == Self.golden[file], "new line for golden-digests.txt: \(file) \(report.digest)")
    }
}
