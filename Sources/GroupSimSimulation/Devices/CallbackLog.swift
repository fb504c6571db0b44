import GroupSimScenario

/// The callbacks a device's app was called with, oldest first (`Device.callbacks`). The
/// `didReceive`s at the end are counted rather than stored: an open app hears of every copy
/// that arrives, and appending each reached the list's header and tail, two cache lines
/// away from the rest of what a copy touches.
struct CallbackLog: Sendable {
    private var kept: [AppCallback] = []
    /// How many `didReceive`s follow `kept`.
    private var received = 0


    var isEmpty: Bool { kept.isEmpty && received == 0 }

    /// Every callback, oldest first.
    var all: [AppCallback] { received == 0 ? kept : kept + repeatElement(.didReceive, count: received) }

    mutating func append(_ name: AppCallback) {
        if name == .didReceive {
            received += 1
            return
        }
        if received > 0 {
            kept.append(contentsOf: repeatElement(.didReceive, count: received))
            received = 0
        }
        kept.append(name)
    }
}
