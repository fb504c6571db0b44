import GroupSimCore
import GroupSimScenario

/// Running a simulation an event at a time and looking at it between events, as
/// turmoil's `Sim` and swift-nio's `EmbeddedEventLoop` let a test do. Stepping runs the
/// same events as `run()`, in the same order: `run()` goes on from where stepping left
/// the run, which ends as if it had never stopped.
extension Simulation {
    /// Something on its way: a copy of a message to a device, a request to the cloud
    /// store, or the store's answer back to a device (`pending`).
    public struct InFlight: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// A copy of message `message` (`m3`), sent by the device `from`.
            case copy(message: Int, from: String)
            /// A fetch or store of `key`, on its way to the cloud store.
            case cloudRequest(key: String)
            /// The cloud store's answer about `key`, on its way back.
            case cloudAnswer(key: String)
        }

        /// When it arrives (under a schedule controller: the time it would arrive by the clock).
        public var due: VirtualTime
        /// The device it arrives at, or "cloud" for a request.
        public var destination: String
        public var kind: Kind
    }

    /// Runs the next event, building the world first if nothing has run yet.
    ///
    /// - Returns: false when nothing is in flight (or the run is over): `run()` then
    ///   returns the outcome without running anything more.
    /// - Throws: the scenario's problems, as `run()` does.
    @discardableResult
    public func step() throws(ScenarioErrors) -> Bool {
        try start() && engine.runNextEvent()
    }

    /// Runs every event due at or before `time` (by the clock), then moves the clock to
    /// `time` if it is behind: what a test does to look at the world at an instant.
    ///
    /// - Returns: how many events ran.
    @discardableResult
    public func advance(to time: VirtualTime) throws(ScenarioErrors) -> Int {
        try start() ? engine.advance(to: time) : 0
    }

    /// The run's clock: the time of the last event run (or the instant `advance(to:)` reached).
    public var now: VirtualTime { engine.context.now }

    /// The device named `device` as it stands now, as a check or report sees it: its
    /// transcripts, live bubbles (`session(_:)`), identifiers, callbacks and draft; nil
    /// when the scenario has no such device.
    ///
    /// - Throws: the scenario's problems, as `run()` does.
    public func snapshot(of device: String) throws(ScenarioErrors) -> DeviceSnapshot? {
        _ = try start()
        guard let index = engine.world.deviceIndex[device] else { return nil }
        return engine.world.snapshot(ofDevice: index)
    }

    /// What is in flight now, in the order the clock would deliver it: every copy on its
    /// way to a device (a copy held for an offline device is not: it waits on the device),
    /// every request to the cloud store and every answer on its way back.
    public var pending: [InFlight] {
        let devices = engine.world.devices
        return engine.scheduler.queued.compactMap { entry in
            switch entry.payload {
            case .step: nil
            case .deliver(let copy, let receiver):
                InFlight(due: entry.time, destination: devices[receiver].name, kind: .copy(message: copy.envelope.id, from: copy.envelope.senderDevice))
            case .cloudArrive(let request): InFlight(due: entry.time, destination: "cloud", kind: .cloudRequest(key: request.key))
            case .cloudAnswer(let response, let receiver):
                InFlight(due: entry.time, destination: devices[receiver].name, kind: .cloudAnswer(key: response.request.key))
            }
        }
    }

    /// The events run so far, in order (empty for a simulation that keeps no trace).
    public var traceSoFar: Trace { engine.recorder.trace }

    /// Lends the world and the run's clock and counters to `body`, between events, after
    /// building the world: for a harness on this simulation's executor that drives a
    /// device itself in place of the scheduler (`ExtensionHarness`).
    package func withWorld<T>(_ body: (inout World, inout DeviceContext) -> T) -> T {
        build()
        return engine.lend(body)
    }
}

extension Engine {
    /// The world and the clock, both lent at once.
    mutating func lend<T>(_ body: (inout World, inout DeviceContext) -> T) -> T {
        body(&world, &context)
    }
}
