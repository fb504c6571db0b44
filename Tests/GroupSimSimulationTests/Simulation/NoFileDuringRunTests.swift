import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimSimulation
import GroupSimTesting

/// No file is read while a simulation runs. A sticker file is read and
/// checked when the `Simulation` is made, so the run sends the sticker even if the file
/// is gone by the time it runs, and a missing file is refused the same way either way.
@Suite struct NoFileDuringRunTests {
    static func scenario(folder: URL) throws -> Scenario {
        try ScenarioParser.parse(text: Fixture.group + """
            steps:
              - { at: 0ms, device: alice-phone, sticker: { file: pickle.png, description: "a pickle" } }
              - { at: 10ms, device: bob-phone, sticker: { file: missing.png, description: "never there" } }

            """, file: folder.appendingPathComponent("test.yaml").path)
    }

    @Test func stickerFilesAreReadWhenTheSimulationIsMade() async throws {
        let folder = try TemporaryFolder.create("no-file-during-run")
        defer { TemporaryFolder.remove(folder) }
        let pickle = ScenarioFiles.root.appendingPathComponent("Scenarios/assets/pickle.png")
        try FileManager.default.copyItem(at: pickle, to: folder.appendingPathComponent("pickle.png"))

        let simulation = Simulation(scenario: try Self.scenario(folder: folder))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("pickle.png"))
        let outcome = try await simulation.run()

        // The sticker was read before the file went away: it was sent and reached Bob.
        #expect(outcome.failures.map(\.code) == [.fileNotFound])
        #expect(outcome.failures.first?.device == "bob-phone")
        let bob = try #require(outcome.device("bob-phone"))
        let stickers = bob.transcripts.flatMap(\.entries).filter { $0.kind == .sticker }
        #expect(stickers.map(\.text) == ["a pickle"])
    }
}
