import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// What a registered controller's factory gets on each activation: the device it runs
/// on, the installation's storage, the cloud, seeded tokens and random numbers. Hand the
/// parts your controller needs to it through your own small protocols (its sources stay
/// portable).
public struct ExtensionEnvironment {
    /// The device's name in the scenario.
    public var device: String { installation.device }
    /// The installation's key-value storage: survives activations, private to the
    /// device, wiped by a reinstall (M2, M22): the store `UserDefaults.standard` is during
    /// a call on this device.
    public var storage: LocalStorage { installation.storage }
    /// The app's server (M13).
    public let cloud: SimulatedCloud
    let installation: AppEnvironment

    init(installation: AppEnvironment, cloud: SimulatedCloud) {
        self.installation = installation
        self.cloud = cloud
    }

    /// A token of 16 hex digits drawn from the run's seed for this device and
    /// installation: inject it where your app calls `UUID()` on iOS, so runs replay.
    public func makeToken() -> String { installation.makeToken() }

    /// A random number generator drawing from the run's seed for this device and
    /// installation: pass it where your app uses the system's generator, so runs replay.
    /// Copies draw from one stream, which goes on across activations until a reinstall:
    ///
    /// ```swift
    /// var random = environment.random
    /// let pick = options.randomElement(using: &random)
    /// ```
    public var random: SeededRandomNumberGenerator { SeededRandomNumberGenerator(installation: installation) }
}

/// `ExtensionEnvironment.random`: the installation's seeded stream of random numbers.
public struct SeededRandomNumberGenerator: RandomNumberGenerator {
    let installation: AppEnvironment

    public mutating func next() -> UInt64 { installation.randomBits() }
}
