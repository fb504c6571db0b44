import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimSimulation

/// `EventQueue.reserveSequences` and `schedule(_:at:reserved:)`: events scheduled late
/// under reserved numbers come out exactly as if they had been scheduled at once, which
/// is what lets the simulation keep its steps outside the heap (determinism rule 3, README).
@Suite struct EventQueueReservationTests {
    /// A seeded mix of steps (known up front) and deliveries (scheduled as steps run).
    static func pops(reserving: Bool, seed: UInt64) -> [(time: Int64, sequence: UInt64, payload: String)] {
        var generator = SplitMix64(seed: seed)
        let stepTimes = (0..<40).map { _ in Int64(generator.next(below: 50)) }.sorted()
        var queue = EventQueue<String>()
        var first: UInt64 = 0
        var nextStep = 0
        if reserving {
            first = queue.reserveSequences(stepTimes.count)
            queue.schedule("s0", at: VirtualTime(nanoseconds: stepTimes[0]), reserved: first)
            nextStep = 1
        } else {
            for (index, time) in stepTimes.enumerated() { queue.schedule("s\(index)", at: VirtualTime(nanoseconds: time)) }
        }
        var popped: [(Int64, UInt64, String)] = []
        var delivery = 0
        while let entry = queue.next() {
            popped.append((entry.time.nanoseconds, entry.sequence, entry.payload))
            guard entry.payload.hasPrefix("s") else { continue }
            if reserving, nextStep < stepTimes.count {
                queue.schedule("s\(nextStep)", at: VirtualTime(nanoseconds: stepTimes[nextStep]), reserved: first + UInt64(nextStep))
                nextStep += 1
            }
            // Each step sends two copies, one of them at the same instant as later steps.
            for delay in [Int64(0), Int64(generator.next(below: 20))] {
                delivery += 1
                queue.schedule("d\(delivery)", at: VirtualTime(nanoseconds: entry.time.nanoseconds + delay))
            }
        }
        return popped
    }

    @Test(arguments: [1, 2, 3, 42] as [UInt64])
    func reservedStepsComeOutAsIfScheduledUpFront(seed: UInt64) {
        let upFront = Self.pops(reserving: false, seed: seed)
        let reserved = Self.pops(reserving: true, seed: seed)
        #expect(upFront.count == 40 * 3, "seed \(seed)")
        #expect(upFront.map(\.payload) == reserved.map(\.payload), "seed \(seed)")
        #expect(upFront.map(\.sequence) == reserved.map(\.sequence), "seed \(seed)")
    }

    @Test func reservedEventsArePendingAndRemovable() {
        var queue = EventQueue<String>()
        let first = queue.reserveSequences(3)
        #expect(first == 0)
        #expect(queue.schedule("late", at: VirtualTime(nanoseconds: 5)) == 3)
        queue.schedule("step 2", at: VirtualTime(nanoseconds: 5), reserved: first + 2)
        queue.schedule("step 0", at: VirtualTime(nanoseconds: 1), reserved: first)
        #expect(queue.pending.map(\.payload) == ["step 0", "step 2", "late"])
        #expect(queue.remove(sequence: 2)?.payload == "step 2")
        #expect(queue.next()?.payload == "step 0")
        #expect(queue.next()?.payload == "late")
        #expect(queue.isEmpty)
    }

    /// A queue that keeps its keys in order (for a schedule controller) gives the same
    /// pops, removals and pending lists as the heap, over many seeded mixes of scheduling,
    /// taking the earliest and removing by sequence number.
    @Test func anOrderedQueueActsAsTheHeap() {
        for seed in UInt64(1)...200 {
            var generator = SplitMix64(seed: seed)
            var heap = EventQueue<Int>()
            var ordered = EventQueue<Int>()
            ordered.keepsOrder = true
            var scheduled: [UInt64] = []
            for step in 0..<120 {
                switch generator.next(below: 4) {
                case 0, 1:
                    let time = VirtualTime(nanoseconds: Int64(generator.next(below: 30)))
                    scheduled.append(heap.schedule(step, at: time))
                    ordered.schedule(step, at: time)
                case 2:
                    let a = heap.next(), b = ordered.next()
                    #expect(a?.sequence == b?.sequence && a?.time == b?.time && a?.payload == b?.payload, "seed \(seed)")
                default:
                    guard !scheduled.isEmpty else { continue }
                    let sequence = scheduled[Int(generator.next(below: UInt64(scheduled.count)))]
                    #expect(heap.remove(sequence: sequence)?.payload == ordered.remove(sequence: sequence)?.payload, "seed \(seed)")
                }
                #expect(heap.count == ordered.count && heap.peekTime == ordered.peekTime, "seed \(seed)")
                #expect(heap.pending.map(\.sequence) == ordered.pending.map(\.sequence), "seed \(seed)")
            }
        }
    }
}
