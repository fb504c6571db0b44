import Foundation
import Testing
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation
import GroupSimTesting

/// Each part of a run (`RunPart`) says what a fresh run is once, in `reset(seed:)`, which
/// its `init` calls too: a part reset after a run must be what a new one is, or the next
/// run would see something of the last.
@Suite struct RunPartResetTests {
    /// An engine restarted after a run of another seed runs as a new engine with the new
    /// seed: the same digest (trace, every device's view, cloud, failures, members), for
    /// every shipped scenario, with the trace kept and without.
    @Test(arguments: ScenarioFiles.shippedNames)
    func aRestartedEngineGivesTheNewEnginesDigest(_ file: String) throws {
        let path = ScenarioFiles.root.appendingPathComponent("Scenarios").appendingPathComponent(file).path
        let scenario = try ScenarioParser.load(path: path)
        let tables = ScenarioTables(scenario: scenario)
        let app = AppRegistry().factory(for: scenario.app)
        func digest(_ engine: inout Engine) -> String {
            engine.runToEnd()
            return engine.outcome().digest
        }
        for keepsTrace in [true, false] {
            var used = Engine(tables: tables, seed: scenario.seed &+ 1, controller: nil, keepsTrace: keepsTrace)
            used.start(app: app)
            _ = digest(&used)
            // Another seed, then the first run's seed again.
            for seed in [scenario.seed, scenario.seed &+ 1] {
                used.restart(seed: seed, controller: nil)
                var fresh = Engine(tables: tables, seed: seed, controller: nil, keepsTrace: keepsTrace)
                fresh.start(app: app)
                #expect(digest(&used) == digest(&fresh), "\(file), trace \(keepsTrace), failing seed \(seed)")
            }
        }
    }

    /// A queue reset with events still pending numbers and orders the next events as a
    /// new queue does, in both of its layouts.
    @Test(arguments: [false, true])
    func aResetQueueRunsAsANewOne(keepsOrder: Bool) {
        func use(_ queue: inout EventQueue<Int>) -> [String] {
            let first = queue.reserveSequences(2)
            queue.schedule(10, at: VirtualTime(nanoseconds: 30), reserved: first + 1)
            for (payload, time) in [(1, 20), (2, 10), (3, 20)] { queue.schedule(payload, at: VirtualTime(nanoseconds: Int64(time))) }
            queue.schedule(11, at: VirtualTime(nanoseconds: 10), reserved: first)
            var taken: [String] = []
            for _ in 0..<3 {
                if let entry = queue.next() { taken.append("\(entry.payload)@\(entry.time.nanoseconds)#\(entry.sequence)") }
            }
            return taken + ["pending \(queue.count)"]
        }
        var used = EventQueue<Int>()
        used.keepsOrder = keepsOrder
        let firstUse = use(&used)
        used.reset(seed: 5)
        var fresh = EventQueue<Int>()
        fresh.keepsOrder = keepsOrder
        #expect(use(&used) == use(&fresh))
        #expect(use(&fresh) != firstUse, "the second use of a queue that was not reset numbers on")
    }
}
