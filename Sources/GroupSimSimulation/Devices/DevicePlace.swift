import GroupSimCore

/// Where one device call works: the device where it lies in the world and the caller's
/// buffer for its effects, lent for the length of the call, so that neither is copied.
///
/// The simulation's only pointer work on devices is in this file: `World.call` (below) is
/// the one door that opens a place, and nothing outside this file can make one or reach
/// its pointers. A `DeviceCall` reads and changes the device and its effects in place
/// through `device` and `effects` (below): a copy of the device would retain every field.
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

    /// Whether the device's app is running, read in its place: read as `device.isRunning`
    /// after a callback, the device was copied whole first.
    var appIsRunning: Bool { place.device.pointee.isRunning }
}
