/// The seeded generator behind every random draw (determinism rule 2, README).
///
/// SplitMix64 (Steele, Lea, Flood 2014): 64 bits of state, a full period, and good
/// enough statistics for latencies and orders. Never seeded from the system.
package struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    package private(set) var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// The SplitMix64 output function: a bijective scramble of 64 bits.
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform draw in [0, bound) without modulo bias (Lemire's method); 0 when bound is 0.
    package mutating func next(below bound: UInt64) -> UInt64 {
        guard bound > 0 else { return 0 }
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }
}

/// Independent random streams derived from one seed, one per purpose, so that a new draw
/// in one place never shifts the draws of another (determinism rule 2, README).
///
/// A stream is named by a purpose and any number of parts (a device name, an
/// installation number): the same seed and name give the same stream in every run, on
/// every machine, whatever else was drawn before.
package struct RandomStreams: Sendable, Hashable {
    package let seed: UInt64

    package init(seed: UInt64) { self.seed = seed }

    /// The purposes GroupSim draws for.
    package enum Purpose: String, Sendable {
        case latency, race, identifiers, order, exploration
        /// Tokens an app draws from its `AppEnvironment` (one stream per device and installation).
        case tokens
    }

    /// The generator for `purpose` and `parts`.
    package func stream(_ purpose: Purpose, _ parts: String...) -> SplitMix64 {
        SplitMix64(seed: streamSeed(purpose, parts))
    }

    func streamSeed(_ purpose: Purpose, _ parts: [String]) -> UInt64 {
        streamSeed(key: Self.key(purpose, parts))
    }

    /// The part of a stream's seed that the name decides and the run's seed does not: a
    /// scenario's tables compute it once for every run (`stream(key:)`).
    package static func key(_ purpose: Purpose, _ parts: [String]) -> UInt64 {
        var hash = StableHash.fnv1a64(purpose.rawValue)
        for part in parts {
            hash = StableHash.fnv1a64(part, startingAt: SplitMix64.mix(hash ^ 0x1F))
        }
        return SplitMix64.mix(hash)
    }

    /// The seed of the stream whose name has `key`: the same as naming it.
    package func streamSeed(key: UInt64) -> UInt64 { SplitMix64.mix(seed ^ key) }
}
