import GroupSimTesting
import Testing
@testable import GroupSim
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimReporting

/// The screens rebuilt from the trace, event by event, end where the run ended: for every
/// scenario file, each device's transcripts after the last event equal its final
/// transcripts line for line, and its drafts its final drafts.
@Suite struct ScreenReplayTests {
    @Test(arguments: ScenarioFiles.shippedNames)
    func lastScreensAreTheFinalTranscripts(_ file: String) async throws {
        let outcome = try await ReportingFixture.run(file: "Scenarios/" + file).outcome
        let replay = ScreenReplay(outcome: outcome)
        var state = replay.start(outcome)
        for event in outcome.trace.events { replay.apply(event, to: &state) }
        for (device, screen) in zip(outcome.devices, state.screens) {
            #expect(device.name == screen.name)
            let final = device.transcripts.map { $0.entries.map(Self.line) }
            let rebuilt = screen.lines.map(replay.drawn)
            #expect(rebuilt == final, "\(file) \(device.name)")
            // The snapshot keeps app messages staged; text and stickers staged show as "(a draft)".
            let drafts = replay.conversations.map { conversation in
                device.draft(in: conversation).map { draft in
                    ScreenReplay.drawTokens(draft.layout.caption ?? "(an interactive message)", map: device.identifierMaps.first,
                                            contact: replay.contact)
                }
            }
            let rebuiltDrafts = screen.drafts.map { $0 == "(a draft)" ? nil : $0 }
            #expect(rebuiltDrafts == drafts, "\(file) \(device.name) drafts")
        }
    }

    /// A line as the snapshot draws it, without what the screen does not show.
    static func line(_ entry: DeviceSnapshot.DrawnEntry) -> ScreenReplay.Line {
        ScreenReplay.Line(kind: entry.kind, message: entry.message, session: entry.session, senderPerson: entry.senderPerson,
                          text: entry.text, subcaption: entry.subcaption, state: entry.kind == .bubble ? entry.state : nil)
    }
}
