import GroupSimCore

/// Where one device call works: the device where it lies in the world, the caller's
/// buffer for its effects and the world's live bubbles, lent for the length of the call,
/// so that none is copied (a copy of the device would retain every field). All pointer
/// work on devices is in this file: `World.call` is the one door that opens a place, and
/// a `DeviceCall` reaches them through `device`, `effects` and `live`.
struct DevicePlace: ~Copyable {
    fileprivate let device: UnsafeMutablePointer<Device>
    fileprivate let effects: UnsafeMutablePointer<DeviceOutput>
    fileprivate let live: UnsafeMutablePointer<LiveBubbles>
}

extension World {
    /// One call into device `index` (`DeviceCall`): lends it the clock and counters in
    /// `context` and the buffer `output` for its effects, and takes the context back. The
    /// device holds neither between calls; the caller acts on `output` and empties it.
    package mutating func call(_ index: Int, context: inout DeviceContext, output: inout DeviceOutput,
                               _ body: (inout DeviceCall) -> Void) {
        // The places outlive the call, which ends before any pointer does.
        withUnsafeMutablePointer(to: &devices[index]) { device in
            withUnsafeMutablePointer(to: &output) { effects in
                withUnsafeMutablePointer(to: &live) { live in
                    var call = DeviceCall(place: DevicePlace(device: device, effects: effects, live: live), context: context)
                    body(&call)
                    context = call.context
                }
            }
        }
    }
}

extension DeviceCall {
    /// The device the call is into, changed in place.
    var device: Device {
        unsafeAddress { UnsafePointer(place.device) }
        nonmutating unsafeMutableAddress { place.device }
    }

    /// What the call asks for: trace events, copies to send, cloud requests, failures,
    /// changes and sightings, in the caller's buffer.
    var effects: DeviceOutput {
        unsafeAddress { UnsafePointer(place.effects) }
        nonmutating unsafeMutableAddress { place.effects }
    }

    /// The world's live bubbles (M10), which only `add` writes.
    var live: LiveBubbles {
        unsafeAddress { UnsafePointer(place.live) }
        nonmutating unsafeMutableAddress { place.live }
    }

    /// Reads the world's live bubbles where they lie: a method called on `live` copied the
    /// whole table for the call (each of its arrays retained and released), which every
    /// staged message paid; an `inout` borrow of the pointee is read in place.
    func readingLive<Result>(_ body: (inout LiveBubbles) -> Result) -> Result { body(&place.live.pointee) }

    /// Whether the app is running, read in place (`device.isRunning` after a callback copied the device).
    var appIsRunning: Bool { place.device.pointee.isRunning }
}
