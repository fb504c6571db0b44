import GroupSimCore

/// A priority queue of events ordered by (time, sequence) (determinism rule 3, README).
///
/// Events at the same instant come out in the order they were scheduled: the sequence
/// number is assigned at `schedule` and never reused. A binary min-heap: `schedule` and
/// `next` are O(log n).
///
/// The heap holds plain (time, sequence, slot) keys and the payloads wait in a side table
/// of slots, so sifting moves a few integers instead of copying payloads (and their
/// reference counts) at every level. It lives in the simulation's module, where it is
/// specialised for the simulation's events: a generic `package` type is not specialised
/// across modules, even when inlinable.
package struct EventQueue<Payload>: RunPart {
    package struct Entry {
        package let time: VirtualTime
        package let sequence: UInt64
        package let payload: Payload

    }

    /// A heap entry: the ordering and where the payload waits.
    struct Key: Sendable {
        var time: Int64
        var sequence: UInt64
        var slot: Int

    }

    /// The pending keys as a heap; with `keepsOrder`, empty.
    var heap: [Key] = []
    /// With `keepsOrder`: the pending keys in order, earliest first, in place of the heap,
    /// so that a caller who looks at every pending event for each event (schedule
    /// exploration) does not sort them each time.
    private(set) var ordered: [Key] = []
    /// Whether the keys are kept in order instead of in a heap (set before anything is scheduled).
    package var keepsOrder = false
    /// Payloads by slot; nil in a free slot.
    var payloads: [Payload?] = []
    var freeSlots: [Int] = []
    var nextSequence: UInt64 = 0

    package init() { reset(seed: 0) }

    package var isEmpty: Bool { keepsOrder ? ordered.isEmpty : heap.isEmpty }
    /// When the earliest pending event is due (a heap's first key is its earliest too).
    package var peekTime: VirtualTime? { first.map { VirtualTime(nanoseconds: $0.time) } }
    package var count: Int { keepsOrder ? ordered.count : heap.count }
    /// The earliest pending event's key, if any.
    var first: Key? { keepsOrder ? ordered.first : heap.first }

    /// Schedules `payload` at `time`; returns its sequence number.
    @discardableResult
    package mutating func schedule(_ payload: Payload, at time: VirtualTime) -> UInt64 {
        let sequence = nextSequence
        nextSequence += 1
        insert(payload, at: time, sequence: sequence)
        return sequence
    }

    /// Drops every pending event and starts the sequence numbers again, keeping the room
    /// the queue took.
    mutating func reset(seed: UInt64) {
        heap.removeAll(keepingCapacity: true)
        ordered.removeAll(keepingCapacity: true)
        payloads.removeAll(keepingCapacity: true)
        freeSlots.removeAll(keepingCapacity: true)
        nextSequence = 0
    }

    /// Sets aside `count` sequence numbers for events that `schedule(_:at:reserved:)` adds
    /// later, in any order, as if they had been scheduled now; returns the first.
    ///
    /// A caller that knows a long run of future events (a scenario's steps) can keep them
    /// outside and schedule each one when it is next, so that the heap stays small.
    package mutating func reserveSequences(_ count: Int) -> UInt64 {
        let first = nextSequence
        nextSequence += UInt64(max(0, count))
        return first
    }

    /// Schedules `payload` at `time` with a sequence number from `reserveSequences`; each
    /// reserved number is used at most once.
    package mutating func schedule(_ payload: Payload, at time: VirtualTime, reserved sequence: UInt64) {
        insert(payload, at: time, sequence: sequence)
    }

    mutating func insert(_ payload: Payload, at time: VirtualTime, sequence: UInt64) {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            payloads[slot] = payload
        } else {
            slot = payloads.count
            payloads.append(payload)
        }
        let key = Key(time: time.nanoseconds, sequence: sequence, slot: slot)
        if keepsOrder {
            ordered.insert(key, at: orderedPosition(of: key))
        } else {
            heap.append(key)
            siftUp(heap.count - 1)
        }
    }

    /// The first position in `ordered` whose key does not precede `key`.
    private func orderedPosition(of key: Key) -> Int {
        var low = 0
        var high = ordered.count
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(ordered[middle], key) { low = middle + 1 } else { high = middle }
        }
        return low
    }


    /// Removes and returns the earliest event (ties: the one scheduled first).
    package mutating func next() -> Entry? {
        if keepsOrder { return ordered.isEmpty ? nil : take(ordered.removeFirst()) }
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return take(top)
    }

    /// Removes and returns the event with sequence number `sequence`, if pending. O(n).
    package mutating func remove(sequence: UInt64) -> Entry? {
        if keepsOrder {
            guard let index = ordered.firstIndex(where: { $0.sequence == sequence }) else { return nil }
            return take(ordered.remove(at: index))
        }
        guard let index = heap.firstIndex(where: { $0.sequence == sequence }) else { return nil }
        let key = heap[index]
        let last = heap.removeLast()
        if index < heap.count {
            heap[index] = last
            siftDown(index)
            siftUp(index)
        }
        return take(key)
    }

    /// Every pending event, earliest first, without removing them. O(n) with
    /// `keepsOrder`, else O(n log n).
    package var pending: [Entry] { (keepsOrder ? ordered : heap.sorted(by: Self.precedes)).compactMap(entry) }

    // MARK: - The heap

    func entry(_ key: Key) -> Entry? {
        guard let payload = payloads[key.slot] else { return nil }
        return Entry(time: VirtualTime(nanoseconds: key.time), sequence: key.sequence, payload: payload)
    }

    /// The key's entry, freeing its slot.
    mutating func take(_ key: Key) -> Entry? {
        freeSlots.append(key.slot)
        // Moved out of its slot, not copied and then cleared: no reference is counted.
        guard let payload = payloads[key.slot].take() else { return nil }
        return Entry(time: VirtualTime(nanoseconds: key.time), sequence: key.sequence, payload: payload)
    }

    static func precedes(_ a: Key, _ b: Key) -> Bool {
        a.time != b.time ? a.time < b.time : a.sequence < b.sequence
    }

    mutating func siftUp(_ start: Int) {
        var child = start
        let key = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(key, heap[parent]) else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = key
    }

    mutating func siftDown(_ start: Int) {
        var parent = start
        let key = heap[parent]
        let count = heap.count
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count, Self.precedes(heap[child + 1], heap[child]) { child += 1 }
            guard Self.precedes(heap[child], key) else { break }
            heap[parent] = heap[child]
            parent = child
        }
        heap[parent] = key
    }
}

extension EventQueue: Sendable where Payload: Sendable {}
extension EventQueue.Entry: Sendable where Payload: Sendable {}
