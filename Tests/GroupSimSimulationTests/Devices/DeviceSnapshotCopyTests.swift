import Testing
@testable import GroupSim
@testable import GroupSimSimulation
import GroupSimTesting

/// A `DeviceSnapshot` shares its fields between copies until one is changed: changing a
/// copy (its name, its sessions, its storage) never shows in the original, and each
/// answers `session(_:)` from its own sessions.
@Suite struct DeviceSnapshotCopyTests {
    @Test func changingACopyLeavesTheOriginal() async throws {
        let report = try await Fixture.run(Fixture.group + """
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }
              - { at: 0ms, device: bob-phone, send: { session: lunch, data: { q: where } } }

            """)
        let original = try #require(report.outcome.device("carol-phone"))
        #expect(original.session("poll") != nil && original.session("lunch") != nil)
        var copy = original
        copy.name = "renamed"
        copy.sessions = copy.sessions.filter { $0.session == "lunch" }
        copy.localStorage["k"] = "v"
        #expect(original.name == "carol-phone")
        #expect(original.session("poll")?.session == "poll")
        #expect(original.localStorage["k"] == nil)
        #expect(copy.name == "renamed")
        #expect(copy.session("poll") == nil)
        #expect(copy.session("lunch")?.session == "lunch")
        #expect(copy.localStorage["k"] == "v")
        #expect(copy.transcripts.map(\.entries.count) == original.transcripts.map(\.entries.count))
    }

    /// A run's snapshots share one box of their states: changing one device of the list
    /// gives that one a box of its own and leaves the others and the run's list as they were.
    @Test func changingOneDeviceOfARunLeavesTheOthers() async throws {
        let report = try await Fixture.run(Fixture.group + """
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, data: { q: topping } } }

            """)
        var devices = report.outcome.devices
        let before = devices.map(\.identifiers)
        devices[1].name = "renamed"
        devices[1].person = "someone"
        #expect(report.outcome.devices[1].name != "renamed")
        #expect(devices[1].name == "renamed" && devices[1].person == "someone")
        // The identifiers are still listed for the owner the device had.
        #expect(devices.map(\.identifiers) == before)
        #expect(devices[1].session("poll")?.session == "poll")
        #expect(!devices[1].isSame(as: report.outcome.devices[1]))
        for index in devices.indices where index != 1 {
            #expect(devices[index].isSame(as: report.outcome.devices[index]))
            #expect(!devices[index].isSame(as: report.outcome.devices[(index + 1) % devices.count]))
        }
    }
}
