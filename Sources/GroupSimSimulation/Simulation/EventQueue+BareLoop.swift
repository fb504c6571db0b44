import GroupSimCore

extension EventQueue<Int> {
    /// The event schedule of a group in which each of `devices` devices sends
    /// `messagesEach` messages, one per `round`, on the queue alone: the sends (steps)
    /// wait outside the heap under reserved sequence numbers and enter it one at a time,
    /// as the simulation keeps them; each send is an event that schedules one delivery per
    /// other device `latency` later, and each delivery is an event of its own that does
    /// nothing, as a hand-written event loop or SimPy keeps a copy. (The simulation keeps
    /// a fan-out's copies on a network with one delay as one run beside the heap,
    /// `CopyRun`: this loop stays the bare queue that (c) has always timed.) Returns the
    /// events popped: what `groupsim bench` figure (c) times.
    ///
    /// It lives beside the queue because a generic `package` type is specialised only
    /// inside its own module: timed from another, the loop would measure unspecialised code.
    package static func bareLoop(devices: Int, messagesEach: Int, round: VirtualDuration, latency: VirtualDuration) -> Int {
        let sends = devices * messagesEach
        guard sends > 0 else { return 0 }
        func sendTime(_ send: Int) -> VirtualTime {
            VirtualTime(nanoseconds: Int64(send / devices) * round.nanoseconds + Int64(send % devices) * round.nanoseconds / Int64(devices))
        }
        var queue = EventQueue<Int>()
        let firstSequence = queue.reserveSequences(sends)
        queue.schedule(-1, at: sendTime(0), reserved: firstSequence)
        var nextSend = 1
        var popped = 0
        while let entry = queue.next() {
            popped += 1
            guard entry.payload < 0 else { continue }
            if nextSend < sends {
                queue.schedule(-1 - nextSend % devices, at: sendTime(nextSend), reserved: firstSequence + UInt64(nextSend))
                nextSend += 1
            }
            let sender = -1 - entry.payload
            for receiver in 0..<devices where receiver != sender {
                queue.schedule(receiver, at: entry.time + latency)
            }
        }
        return popped
    }
}
