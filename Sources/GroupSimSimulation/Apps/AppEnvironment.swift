import GroupSimCore
import GroupSimScenario

/// What the simulated device gives an app when it starts: which device it runs on, the
/// installation's local storage, and seeded sources of tokens and random numbers.
///
/// One environment exists per device and installation: activations share it (the
/// storage survives them, M22) and a reinstall replaces it (M2). A device hands it to
/// each new app instance through `MessagesApp.didLaunch(in:)`.
public final class AppEnvironment {
    /// The device's name in the scenario.
    public let device: String
    /// Which installation this is: 0 first, one more per reinstall (M2).
    public let installation: Int
    /// The installation's key-value storage (what `UserDefaults` is on iOS).
    @exclusivity(unchecked) public private(set) var storage: LocalStorage
    /// The process every device's extension shares in this run (`ExtensionProcess`).
    @exclusivity(unchecked) package private(set) var process: ExtensionProcess
    /// Pitfalls the app's host saw in the app itself (state shared with another device,
    /// M22), which the device reports once the call into the app returns.
    @exclusivity(unchecked) package var hostSightings: [(kind: Scenario.PitfallKind, detail: String)] = []
    /// Made at the first token: most apps draw none, and a run makes an environment for
    /// every device.
    @exclusivity(unchecked) private var generator: SplitMix64?
    /// `randomBits()`'s stream, apart from the tokens', so drawing numbers changes no token.
    @exclusivity(unchecked) private var randomGenerator: SplitMix64?
    @exclusivity(unchecked) private var streams: RandomStreams

    init(device: String, installation: Int, world: WorldFacts) {
        self.device = device
        self.installation = installation
        streams = world.streams
        process = world.extensionProcess
        storage = LocalStorage()
    }

    /// This environment, if nothing used it, as `init` makes it for the same device and
    /// installation in the run of `world`; nil if something drew a token or a number from
    /// it, stored anything in it or saw a sighting, or if it is not `environment`'s only
    /// reference, or its storage not the environment's alone (an app or anything else
    /// still holds one of them). A restart keeps a device's
    /// unused environment instead of freeing it and making one.
    static func reused(_ environment: inout AppEnvironment, world: WorldFacts) -> AppEnvironment? {
        guard isKnownUniquelyReferenced(&environment), isKnownUniquelyReferenced(&environment.storage), environment.isUnused else {
            return nil
        }
        environment.streams = world.streams
        environment.process = world.extensionProcess
        return environment
    }

    /// Read for every device of every restart: the fields it reads are checked for
    /// exclusive access statically only (`@exclusivity(unchecked)`), as one device's calls
    /// run one at a time; the run-time check cost more than making a new environment.
    private var isUnused: Bool {
        generator == nil && randomGenerator == nil && hostSightings.isEmpty && storage.isUntouched
    }

    /// A fresh token of 16 lowercase hex digits, drawn from the seed for this device and
    /// installation: use it where an app on iOS would call `UUID()` for a record name, so
    /// that runs stay reproducible. It has no dashes, so GroupSim never mistakes it for a
    /// participant identifier (M4).
    public func makeToken() -> String {
        let hex = String(draw(from: &generator, device, String(installation)), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// 64 random bits drawn from the seed for this device and installation, from a stream
    /// of their own: what an app on iOS takes from the system's generator
    /// (`Int.random(in:)`), here the same in every run of the seed.
    public func randomBits() -> UInt64 { draw(from: &randomGenerator, device, String(installation), "random") }

    /// The next value of the stream `kept` holds, made from the run's seed and `parts` at the first draw.
    private func draw(from kept: inout SplitMix64?, _ parts: String...) -> UInt64 {
        var stream = kept ?? SplitMix64(seed: streams.streamSeed(key: RandomStreams.key(.tokens, parts)))
        let value = stream.next()
        kept = stream
        return value
    }
}
