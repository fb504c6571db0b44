import Testing
@testable import GroupSim
@testable import GroupSimChecking
import GroupSimTesting

@Suite struct NetworkTests {
    func arrivals(_ report: RunReport, message: Int) -> [String: Int64] {
        var times: [String: Int64] = [:]
        for event in report.outcome.trace.events {
            if case .delivered(let id, _) = event.kind, id == message { times[event.subject] = event.time.nanoseconds }
        }
        return times
    }

    /// M30: a send fans out to every other device of every member, the sender's own
    /// other devices included; each copy's delay is latency plus a draw in [0, jitter).
    @Test func fanOutWithLatencyAndJitter() async throws {
        let text = Fixture.group + """
        network: { latency: 80ms, jitter: 40ms }
        steps:
          - at: 0ms
            device: bob-phone
            text: hello

        """
        for seed in 1...20 as ClosedRange<UInt64> {
            let report = try await Fixture.run(text, seed: seed)
            let times = arrivals(report, message: 1)
            #expect(times.keys.sorted() == ["alice-phone", "bob-ipad", "carol-phone"], "seed \(seed)")
            #expect(times.values.allSatisfy { (80_000_000..<120_000_000).contains($0) }, "seed \(seed)")
        }
    }

    /// Per-link overrides are directional, a person stands for all their devices, and the
    /// last matching entry wins.
    @Test func linkOverrides() async throws {
        let text = Fixture.group + """
        network:
          latency: 50ms
          links:
            - { from: alice, to: bob, latency: 10ms }
            - { from: alice-phone, to: bob-ipad, latency: 30ms }
            - { from: bob, to: alice, latency: 90ms }
        steps:
          - at: 0ms
            device: alice-phone
            text: one
          - at: 0ms
            device: bob-ipad
            text: two

        """
        let report = try await Fixture.run(text)
        #expect(arrivals(report, message: 1) == ["bob-phone": 10_000_000, "bob-ipad": 30_000_000, "carol-phone": 50_000_000])
        #expect(arrivals(report, message: 2) == ["alice-phone": 90_000_000, "bob-phone": 50_000_000, "carol-phone": 50_000_000])
    }

    /// M30: an offline device receives its copies, in their original order, when it comes
    /// back; a device that sends while offline sends when it is back.
    @Test func m30StoreAndForward() async throws {
        let text = Fixture.group + """
        network: { latency: 50ms, links: [ { from: alice, to: carol, latency: 300ms } ] }
        steps:
          - at: 0ms
            device: carol-phone
            offline: true
          - at: 10ms
            device: alice-phone
            text: first
          - at: 20ms
            device: bob-phone
            text: second
          - at: 30ms
            device: carol-phone
            text: from carol while offline
          - at: 1s
            device: carol-phone
            online: true

        """
        let report = try await Fixture.run(text)
        // Bob's copy arrived at 70ms and Alice's at 310ms while Carol was offline; both
        // are held and come in send order at 1s.
        #expect(report.lines("carol-phone") == ["text m3", "text m1", "text m2"])
        let carol = arrivals(report, message: 1)["carol-phone"]
        #expect(carol == 1_000_000_000)
        #expect(arrivals(report, message: 3)["alice-phone"] == 1_050_000_000)
        let held = report.outcome.trace.events.filter { if case .held = $0.kind { return true } else { return false } }
        #expect(held.map(\.time.nanoseconds) == [70_000_000, 310_000_000])
    }

    /// M30: copies still held at the end are reported, and the device lags behind.
    @Test func m30OfflineAtTheEnd() async throws {
        let text = Fixture.group + """
        steps:
          - at: 0ms
            device: alice-phone
            send: { session: poll, data: { q: a } }
          - at: 100ms
            device: carol-phone
            offline: true
          - at: 200ms
            device: bob-phone
            reply: { session: poll, data: { bob: b } }
        expect:
          - diverged: poll
          - latest: { device: carol-phone, session: poll, from: alice }

        """
        let report = try await Fixture.run(text)
        #expect(report.passed)
        #expect(report.outcome.heldAtEnd == 1)
    }
}
