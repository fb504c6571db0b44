/// A priority queue of events ordered by (time, sequence) (DESIGN.md rule 3).
///
/// Events at the same instant come out in the order they were scheduled: the sequence
/// number is assigned at `schedule` and never reused. A binary min-heap: `schedule` and
/// `next` are O(log n).
public struct EventQueue<Payload> {
    public struct Entry {
        public let time: VirtualTime
        public let sequence: UInt64
        public let payload: Payload
    }

    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0

    public init() {}

    public var isEmpty: Bool { heap.isEmpty }
    public var count: Int { heap.count }

    /// Schedules `payload` at `time`; returns its sequence number.
    @discardableResult
    public mutating func schedule(_ payload: Payload, at time: VirtualTime) -> UInt64 {
        let entry = Entry(time: time, sequence: nextSequence, payload: payload)
        nextSequence += 1
        heap.append(entry)
        siftUp(heap.count - 1)
        return entry.sequence
    }

    /// The earliest event without removing it.
    public var first: Entry? { heap.first }

    /// Removes and returns the earliest event (ties: the one scheduled first).
    public mutating func next() -> Entry? {
        guard let top = heap.first else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            siftDown(0)
        }
        return top
    }

    /// Removes and returns the event with sequence number `sequence`, if pending. O(n).
    public mutating func remove(sequence: UInt64) -> Entry? {
        guard let index = heap.firstIndex(where: { $0.sequence == sequence }) else { return nil }
        let entry = heap[index]
        let last = heap.removeLast()
        if index < heap.count {
            heap[index] = last
            siftDown(index)
            siftUp(index)
        }
        return entry
    }

    /// Every pending event, earliest first, without removing them. O(n log n).
    public var pending: [Entry] { heap.sorted(by: Self.precedes) }

    @inline(__always)
    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.time.nanoseconds != b.time.nanoseconds ? a.time.nanoseconds < b.time.nanoseconds : a.sequence < b.sequence
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        let entry = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(entry, heap[parent]) else { break }
            heap[child] = heap[parent]
            child = parent
        }
        heap[child] = entry
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let entry = heap[parent]
        let count = heap.count
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count, Self.precedes(heap[child + 1], heap[child]) { child += 1 }
            guard Self.precedes(heap[child], entry) else { break }
            heap[parent] = heap[child]
            parent = child
        }
        heap[parent] = entry
    }
}

extension EventQueue: Sendable where Payload: Sendable {}
extension EventQueue.Entry: Sendable where Payload: Sendable {}
