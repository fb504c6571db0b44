import GroupSimScenario

/// The callbacks a device's app was called with, oldest first (`Device.callbacks`). The
/// `didReceive`s are counted rather than stored: an open app hears of every copy that
/// arrives, and appending each reached the list's header and tail, two cache lines away
/// from the rest of what a copy touches. A run of them ends as another callback comes
/// and is kept as its length where it lies among the others: writing each run out then
/// (31 in a row between two of a device's sends in (a)) was about 3% of a send.
struct CallbackLog: Sendable {
    /// The callbacks but the `didReceive`s, in order.
    private var kept: [AppCallback] = []
    /// Each run of `didReceive`s that ended: how many of `kept` came before it, and its length.
    private var runs: [(after: Int, count: Int)] = []
    /// How many `didReceive`s follow the last of `kept`.
    private var received = 0

    var isEmpty: Bool { kept.isEmpty && received == 0 }

    /// Every callback, oldest first.
    var all: [AppCallback] {
        guard !runs.isEmpty || received > 0 else { return kept }
        var all: [AppCallback] = []
        all.reserveCapacity(runs.reduce(kept.count + received) { $0 + $1.count })
        var start = 0
        for run in runs {
            all.append(contentsOf: kept[start..<run.after])
            all.append(contentsOf: repeatElement(.didReceive, count: run.count))
            start = run.after
        }
        all.append(contentsOf: kept[start...])
        all.append(contentsOf: repeatElement(.didReceive, count: received))
        return all
    }

    mutating func append(_ name: AppCallback) {
        if name == .didReceive {
            received += 1
            return
        }
        if received > 0 {
            runs.append((kept.count, received))
            received = 0
        }
        kept.append(name)
    }
}
