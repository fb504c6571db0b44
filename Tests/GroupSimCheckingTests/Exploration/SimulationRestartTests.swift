import Foundation
import Testing
@testable import GroupSim
@testable import GroupSimChecking
@testable import GroupSimCore
@testable import GroupSimSimulation
import GroupSimTesting

/// Exploration and benchmarks run a scenario many times on one `Simulation`
/// (`simulate(seed:controller:)`), which restarts the last run's engine instead of building a world for each run. A restarted engine must
/// remember nothing of the runs before: each run gives what a new `Simulation` with the
/// same seed gives, down to every device's transcripts, identifiers and storage.
@Suite struct SimulationRestartTests {
    /// Back and forth, and one seed twice in a row: a run that kept anything of the one
    /// before would differ from a new simulation's somewhere here.
    static let seeds: [UInt64] = [7, 1, 9, 1, 3, 12, 2, 2, 5]

    @Test func aRestartedEngineRunsAsANewOne() async throws {
        var scenarios = try TraceFreeVerdictTests.shipped()
        // 10 generated scenarios by default, 30 with the full samples (`TestSampling`).
        for seed in UInt64(1)...TestSampling.count(default: 10, full: 30) {
            // Two conversations or one, offline spells, joins and leaves, cloud modes; now
            // and then an old system (M26) or a phone without the app (M27).
            var text = TraceFreeVerdictTests.generate(seed: seed, pair: seed % 2 == 0)
            if seed % 3 == 0 { text = text.replacing("steps:\n", with: "devices:\n  p2-phone: { platform: ios9 }\nsteps:\n") }
            else if seed % 5 == 1 { text = text.replacing("steps:\n", with: "devices:\n  p1-phone: { app: missing }\nsteps:\n") }
            scenarios.append(("generated \(seed)", try Fixture.scenario(text)))
        }
        var compared = 0
        for (name, scenario) in scenarios {
            for traced in [true, false] {
                let loop = Simulation(try ValidatedScenario(scenario), recordTrace: traced)
                for seed in Self.seeds {
                    let again = await loop.simulate(seed: seed).outcome
                    let fresh = try await Simulation(scenario: scenario, seed: seed, recordTrace: traced).run()
                    #expect(Self.fingerprint(again) == Self.fingerprint(fresh), "\(name), trace \(traced), failing seed \(seed)")
                    #expect(TraceFreeVerdictTests.verdict(RunReport(outcome: again, explainingPitfalls: false))
                        == TraceFreeVerdictTests.verdict(RunReport(outcome: fresh, explainingPitfalls: false)),
                            "\(name), trace \(traced), failing seed \(seed)")
                    compared += 1
                }
            }
        }
        #expect(compared > 500)
    }

    /// An app registered from Swift that counts what it composed: every run starts with
    /// new app instances, so the counts start again, and the schedule controller a run
    /// used goes back to the caller, not to the next run.
    @Test func eachRunGetsNewAppsAndItsOwnController() async throws {
        struct Counting: MessagesApp {
            var composed = 0
            mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
                composed += 1
                return [.send(Message(session: request.session, url: "?n=\(composed)"))]
            }
        }
        var apps = AppRegistry()
        apps.register("counting") { _ in Counting() }
        let scenario = try Fixture.scenario("""
            name: counting
            app: { name: counting }
            people: { alice: [alice-phone, alice-ipad], bob: [bob-phone] }
            network: { latency: 50ms, jitter: 30ms }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll } }
              - { at: 20ms, device: alice-phone, send: { session: poll } }
              - { at: 30ms, device: bob-phone, send: { session: poll } }

            """, apps: ["counting"])
        let loop = Simulation(try ValidatedScenario(scenario, registeredApps: apps.names), apps: apps)
        for seed in Self.seeds {
            let again = await loop.simulate(seed: seed).outcome
            let fresh = try await Simulation(scenario: scenario, seed: seed, apps: apps).run()
            #expect(Self.fingerprint(again) == Self.fingerprint(fresh), "failing seed \(seed)")
            // No app counts past the two messages Alice composes in one run: an app left
            // running from the last run would.
            let counts = Set(again.devices.flatMap(\.transcripts).flatMap(\.entries).compactMap(\.url))
            #expect(counts.isSubset(of: ["?n=1", "?n=2"]) && !counts.isEmpty, "failing seed \(seed): \(counts)")
        }
        let order = OrderRecorder(scenario: scenario, prefix: [], visited: [])
        let ran = await loop.simulate(seed: scenario.seed, controller: order)
        let recorder = try #require(ran.controller as? OrderRecorder)
        #expect(recorder.decisions.count == ran.outcome.eventCount)
        // The next run by the clock is the scenario's own run, whatever the last one's controller chose.
        let plain = await loop.simulate(seed: scenario.seed).outcome
        #expect(plain.digest == (try await Simulation(scenario: scenario, apps: apps).run()).digest)
    }

    /// An exploration builds the scenario's tables, and reads its sticker files, once for
    /// all its runs: a file removed after the first chunk of runs is still sent in every
    /// later run, not refused as missing in the runs of the chunks that follow.
    @Test func anExplorationReadsItsStickerFilesOnce() async throws {
        let folder = try TemporaryFolder.create("sticker-once")
        defer { TemporaryFolder.remove(folder) }
        let sticker = folder.appendingPathComponent("pickle.png")
        try FileManager.default.copyItem(at: ScenarioFiles.root.appendingPathComponent("Scenarios/assets/pickle.png"), to: sticker)
        let scenario = try ScenarioParser.parse(text: Fixture.group + """
            network: { latency: 50ms, jitter: 40ms }
            steps:
              - { at: 0ms, device: alice-phone, sticker: { file: pickle.png, description: "a pickle" } }

            """, file: folder.appendingPathComponent("test.yaml").path)
        // One worker and a progress line: the runs go in chunks, and the file goes after the first.
        let report = try await Explorer(scenario: scenario, workers: 1).explore(runs: 200, seed: 1, shard: nil) { progress in
            if progress.runsDone < progress.runs { try? FileManager.default.removeItem(at: sticker) }
        }
        #expect(!FileManager.default.fileExists(atPath: sticker.path))
        #expect(report.runs.clampedInt == 200)
        #expect(report.stepFailures.isEmpty, "\(report.stepFailures.map { "\($0.code) in \($0.runs) runs" })")
    }

    /// Everything a run leaves that a report, a check or a verdict reads: the outcome's
    /// digest (the trace, which is empty when none is kept, then every device's
    /// transcripts, identifiers, callbacks and draft, the cloud, the failures and the
    /// members), and what the digest leaves out: the counters, the changes and sightings,
    /// every conversation's draft, the storage and the installations.
    static func fingerprint(_ outcome: RunOutcome) -> [String] {
        var lines = [
            "digest \(outcome.digest)", "end \(outcome.endTime) events \(outcome.eventCount) copies \(outcome.copiesDelivered)",
            "held \(outcome.heldAtEnd) quiet \(outcome.quiet) conflicts \(outcome.cloudConflicts)",
            "changes \(outcome.changes.count) sightings \(outcome.sightings.count)",
        ]
        for device in outcome.devices {
            lines.append("\(device.name) drafts \(device.drafts) storage \(device.localStorage.sorted { $0.key < $1.key })")
            lines.append("\(device.name) installs \(device.installIDs)")
        }
        return lines
    }
}
