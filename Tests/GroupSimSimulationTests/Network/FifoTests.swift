import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimChecking
import GroupSimTesting

/// `network: { fifo: true }`: each sender-to-receiver link delivers in send order, in
/// plain runs and in exploration (random and exhaustive). The default keeps each copy's
/// delay independent, so jitter may reorder one sender's copies on a link (M11, M30).
@Suite struct FifoTests {
    /// Bob sends three texts 1ms apart over links with 40ms of jitter.
    static func texts(fifo: Bool) -> String {
        Fixture.group + """
        network: { latency: 50ms, jitter: 40ms\(fifo ? ", fifo: true" : "") }
        steps:
          - { at: 0ms, device: bob-phone, text: one }
          - { at: 1ms, device: bob-phone, text: two }
          - { at: 2ms, device: bob-phone, text: three }

        """
    }

    /// Bob's poll and his own later reply; Alice must end on the reply. Alice's only way to
    /// end on the older bubble is a copy that overtakes a newer one on the link.
    static func poll(fifo: Bool) -> String {
        """
        name: poll-order
        people:
          alice: [alice-phone]
          bob: [bob-phone]
        network: { latency: 50ms, jitter: 40ms\(fifo ? ", fifo: true" : "") }
        steps:
          - { at: 0ms, device: bob-phone, send: { session: poll, caption: "first" } }
          - { at: 5ms, device: bob-phone, reply: { session: poll, caption: "second" } }
          - { at: 1s, device: bob-phone, text: "done" }
        expect:
          - latest: { device: alice-phone, session: poll, from: bob, caption: "second" }

        """
    }

    @Test func plainRunsKeepEachLinkInSendOrder() async throws {
        var reorderedWithoutFifo = 0
        for seed in 1...40 as ClosedRange<UInt64> {
            let fifo = try await Fixture.run(Self.texts(fifo: true), seed: seed)
            for device in ["alice-phone", "bob-ipad", "carol-phone"] {
                #expect(fifo.transcript(device).map(\.text) == ["one", "two", "three"], "seed \(seed) on \(device)")
            }
            let free = try await Fixture.run(Self.texts(fifo: false), seed: seed)
            if ["alice-phone", "bob-ipad", "carol-phone"].contains(where: { free.transcript($0).map(\.text) != ["one", "two", "three"] }) {
                reorderedWithoutFifo += 1
            }
        }
        #expect(reorderedWithoutFifo > 0, "the default lets jitter reorder a link; the test above would catch it")
    }

    @Test func copiesOnALinkStillTakeTheirOwnDelays() async throws {
        // FIFO never delivers earlier than the copy's own draw: a copy that would overtake
        // waits for the one before it, and arrives at the same instant at the earliest.
        for seed in 1...20 as ClosedRange<UInt64> {
            let report = try await Fixture.run(Self.texts(fifo: true), seed: seed)
            var last: [String: VirtualTime] = [:]
            for event in report.outcome.trace.events {
                guard case .delivered = event.kind else { continue }
                #expect(event.time >= (last[event.subject] ?? .zero), "seed \(seed)")
                #expect(event.time.nanoseconds >= 50_000_000, "seed \(seed)")
                last[event.subject] = event.time
            }
        }
    }

    @Test func randomExplorationRespectsFifo() async throws {
        let fifo = try await Explorer(scenario: try Fixture.scenario(Self.poll(fifo: true))).explore(runs: 200, seed: 1)
        #expect(fifo.failedRuns == 0, "first failing seed: \(String(describing: fifo.firstFailure?.reference.seed))")
        let free = try await Explorer(scenario: try Fixture.scenario(Self.poll(fifo: false))).explore(runs: 200, seed: 1)
        #expect(free.failedRuns > 0)
    }

    @Test func exhaustiveExplorationRespectsFifo() async throws {
        let fifo = try await Explorer(scenario: try Fixture.scenario(Self.poll(fifo: true))).exhaustive()
        #expect(fifo.runs == 1, "one order: the link keeps the reply behind the poll")
        #expect(fifo.failedRuns == 0, "\(fifo.failures.map(\.schedule))")
        let free = try await Explorer(scenario: try Fixture.scenario(Self.poll(fifo: false))).exhaustive()
        #expect(free.runs == 2)
        #expect(free.failedRuns == 1)
    }

    /// Exhaustive exploration with copies held for an offline device: on a FIFO link the
    /// held copies and the one sent as the device comes back arrive in send order.
    @Test func exhaustiveKeepsOrderAcrossOfflineSpells() async throws {
        func text(fifo: Bool) -> String {
            """
            name: offline-order
            people:
              alice: [alice-phone]
              bob: [bob-phone]
            network: { latency: 50ms, jitter: 40ms\(fifo ? ", fifo: true" : "") }
            steps:
              - { at: 0ms, device: alice-phone, offline: true }
              - { at: 10ms, device: bob-phone, send: { session: poll, caption: "first" } }
              - { at: 20ms, device: bob-phone, reply: { session: poll, caption: "second" } }
              - { at: 200ms, device: alice-phone, online: true }
              - { at: 200ms, device: bob-phone, reply: { session: poll, caption: "third" } }
            expect:
              - latest: { device: alice-phone, session: poll, from: bob, caption: "third" }

            """
        }
        let fifo = try await Explorer(scenario: try Fixture.scenario(text(fifo: true))).exhaustive()
        #expect(fifo.failedRuns == 0, "\(fifo.failures.map(\.schedule))")
        let free = try await Explorer(scenario: try Fixture.scenario(text(fifo: false))).exhaustive()
        #expect(free.failedRuns > 0, "without FIFO the copy sent at 200ms may overtake the held ones")
    }
}
