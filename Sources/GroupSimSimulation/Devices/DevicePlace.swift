import GroupSimCore

/// Where one device call works: the device where it lies in the world and the caller's
/// buffer for its effects, lent for the length of the call, so that neither is copied (a
/// copy of the device would retain every field). All pointer work on devices is in this
/// file: `World.call` is the one door that opens a place, and a `DeviceCall` reaches the
/// device and its effects through `device` and `effects`.
struct DevicePlace: ~Copyable {
    fileprivate let device: UnsafeMutablePointer<Device>
    fileprivate let effects: UnsafeMutablePointer<DeviceOutput>
}

extension World {
    /// One call into device `index` (`DeviceCall`): lends it the clock and counters in
    /// `context` and the buffer `output` for its effects, and takes the context back. The
    /// device holds neither between calls; the caller acts on `output` and empties it.
    package mutating func call(_ index: Int, context: inout DeviceContext, output: inout DeviceOutput,
                               _ body: (inout DeviceCall) -> Void) {
        // Both places outlive the call, which ends before either pointer does.
        withUnsafeMutablePointer(to: &devices[index]) { device in
            withUnsafeMutablePointer(to: &output) { effects in
                var call = DeviceCall(place: DevicePlace(device: device, effects: effects), context: context)
                body(&call)
                context = call.context
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

    /// Whether the app is running, read in place (`device.isRunning` after a callback copied the device).
    var appIsRunning: Bool { place.device.pointee.isRunning }
}
