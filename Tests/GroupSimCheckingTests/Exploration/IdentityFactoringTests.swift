import Foundation
import Testing
@testable import GroupSimChecking
import GroupSim
import GroupSimTesting

/// The three `identity-*.yaml` scenarios (M1, M3: who a vote belongs to depends on
/// `app.identity`) explored factored and by plain enumeration must agree on every count.
/// The shipped files, with three racers, have more than a million orders, past what a
/// test can enumerate; with Carol's racer left out each has 112, and the identity mode,
/// the cloud state and Bob's two devices are all still in play. `swift test` compares
/// the account mode; the full samples compare all three.
@Suite struct IdentityFactoringTests {
    static let files = TestSampling.count(default: ["identity-account"],
                                          full: ["identity-account", "identity-install-id", "identity-participant-id"])

    /// The shipped file without Carol's racer and without her entry in `complete`.
    static func twoRacers(_ name: String) throws -> String {
        let path = ScenarioFiles.root.appendingPathComponent("Scenarios/\(name).yaml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.contains("device: carol-phone, reply") }
            .map { $0.replacingOccurrences(of: ", $carol: pickles", with: "") }
        return lines.joined(separator: "\n")
    }

    @Test(arguments: files) func factoredCountsEqualEnumeration(_ name: String) async throws {
        let text = try Self.twoRacers(name)
        #expect(!text.contains("carol-phone, reply"))
        let explorer = Explorer(scenario: try Fixture.scenario(text))
        let plain = try await explorer.exhaustive(limit: 10_000, factor: false)
        let factored = try await explorer.exhaustive(limit: 10_000, factor: true)
        #expect(plain.runs == 112, "\(name): \(plain.runs) orders")
        let differences = FactoringOracle.differences(factored, plain)
        #expect(differences.isEmpty, "\(name): \(differences.joined(separator: "; "))")
        // Every check passes in every order both ways: the identity mode decides attribution,
        // not the delivery order.
        #expect(plain.checks.allSatisfy { $0.failedRuns == 0 }, "\(name): \(plain.checks.map { "\($0.text) \($0.failedRuns)" })")
    }
}
