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
        let (scenario, tables, app) = try Self.shipped(file)
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

    /// A device's restart sets each of its stored properties where it lies, as `init`
    /// sets it (`Device.reset(world:)`): a property added to `Device` and left out there
    /// would carry the last run into the next. After a run of every shipped scenario and a
    /// restart, each device reads, property by property (`Mirror`, private ones included),
    /// as a new engine's device does. References show as their type or nil, so a cache or
    /// a selection left set fails here even where no digest reads it.
    @Test(arguments: ScenarioFiles.shippedNames)
    func aRestartedDeviceIsANewDeviceFieldByField(_ file: String) throws {
        let (scenario, tables, app) = try Self.shipped(file)
        var used = Engine(tables: tables, seed: scenario.seed &+ 1, controller: nil, keepsTrace: true)
        used.start(app: app)
        used.runToEnd()
        used.restart(seed: scenario.seed, controller: nil)
        var fresh = Engine(tables: tables, seed: scenario.seed, controller: nil, keepsTrace: true)
        fresh.start(app: app)
        #expect(used.world.devices.count == fresh.world.devices.count)
        for (restarted, new) in zip(used.world.devices, fresh.world.devices) {
            let restartedFields = Self.fields(of: restarted), newFields = Self.fields(of: new)
            #expect(restartedFields.map(\.label) == newFields.map(\.label), "\(file) \(new.name)")
            for (left, right) in zip(restartedFields, newFields) where left.label == right.label {
                #expect(left.value == right.value, "\(file) \(new.name): \(left.label ?? "?") was not set as init sets it")
            }
        }
    }

    /// A shipped scenario file, its tables, and its app's factory.
    private static func shipped(_ file: String) throws -> (Scenario, ScenarioTables, AppRegistry.Factory?) {
        let path = ScenarioFiles.root.appendingPathComponent("Scenarios").appendingPathComponent(file).path
        let scenario = try ScenarioParser.load(path: path)
        return (scenario, ScenarioTables(scenario: scenario), AppRegistry().factory(for: scenario.app))
    }

    /// A device's stored properties with their values as text, but for the run's facts,
    /// which both devices take from their own engine's world (compared by the digests above).
    private static func fields(of device: Device) -> [(label: String?, value: String)] {
        Mirror(reflecting: device).children.filter { $0.label != "world" }.map { ($0.label, String(describing: $0.value)) }
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

    /// A restart keeps a device's app environment only while nothing has used it: it
    /// then draws the new run's tokens, as a new one would. One that drew a token or a
    /// number, stored, registered or named a suite, or that something else still holds
    /// (or holds its storage), is made anew.
    @Test func onlyAnUnusedEnvironmentIsKept() throws {
        let scenario = try Fixture.scenario(Fixture.group + "steps: []\n")
        let last = WorldFacts(scenario: scenario, seed: 1)
        let next = WorldFacts(scenario: scenario, seed: 2)
        let uses: [(String, (AppEnvironment) -> Void)] = [
            ("nothing", { _ in }),
            ("a token", { _ = $0.makeToken() }),
            ("a number", { _ = $0.randomBits() }),
            ("a stored value", { $0.storage.set("v", forKey: "k") }),
            ("a removed value", { $0.storage.removeObject(forKey: "k") }),
            ("a default", { $0.storage.register(defaults: ["k": "v"]) }),
            ("a suite", { _ = $0.storage.suite(named: "group") }),
        ]
        for (use, body) in uses {
            var environment = AppEnvironment(device: "alice-phone", installation: 0, world: last)
            body(environment)
            let kept = AppEnvironment.reused(&environment, world: next)
            #expect((kept != nil) == (use == "nothing"), "after \(use)")
            if let kept {
                let fresh = AppEnvironment(device: "alice-phone", installation: 0, world: next)
                #expect(kept.makeToken() == fresh.makeToken() && kept.randomBits() == fresh.randomBits())
                #expect(kept.process === next.extensionProcess && kept.storage.writeCount == 0)
            }
        }
        var held = AppEnvironment(device: "alice-phone", installation: 0, world: last)
        let holder = held
        #expect(AppEnvironment.reused(&held, world: next) == nil && holder === held)
        var storageHeld = AppEnvironment(device: "alice-phone", installation: 0, world: last)
        let storage = storageHeld.storage
        #expect(AppEnvironment.reused(&storageHeld, world: next) == nil && storage === storageHeld.storage)
    }

    /// A restart keeps a device's first identifier map only while nothing else holds it
    /// (a message the device sent, a snapshot): it then gives the new seed's identifiers.
    @Test func onlyAMapNothingHoldsIsKept() throws {
        let scenario = try Fixture.scenario(Fixture.group + "steps: []\n")
        let last = WorldFacts(scenario: scenario, seed: 1)
        let next = WorldFacts(scenario: scenario, seed: 2)
        let people = scenario.people.map(\.key)
        var map = last.mintIdentifiers(device: "alice-phone", at: 0, generation: 0)
        let before = people.map { map.id(for: $0, in: "") }
        let kept = try #require(IdentifierMap.reused(&map, streams: next.streams))
        let fresh = next.mintIdentifiers(device: "alice-phone", at: 0, generation: 0)
        #expect(people.map { kept.id(for: $0, in: "") } == people.map { fresh.id(for: $0, in: "") })
        #expect(people.map { kept.id(for: $0, in: "") } != before)
        var held = last.mintIdentifiers(device: "alice-phone", at: 0, generation: 0)
        let holder = held
        #expect(IdentifierMap.reused(&held, streams: next.streams) == nil)
        #expect(people.map { holder.id(for: $0, in: "") } == before)
    }
}
