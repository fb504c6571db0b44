import Foundation

/// Lines written by test controllers and their completion handlers, in order; Sendable so
/// that a `@Sendable` completion handler can write to it as it would on iOS.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func add(_ line: String) {
        lock.lock()
        stored.append(line)
        lock.unlock()
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
