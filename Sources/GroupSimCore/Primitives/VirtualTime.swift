/// A length of virtual time, in nanoseconds (determinism rule 1, README: time is virtual).
///
/// Scenario files write durations with a unit (`250ms`, `1.5s`, `2m`); `description`
/// prints an exact form back that a scenario file reads as the same duration.
public struct VirtualDuration: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = VirtualDuration(nanoseconds: 0)
    public static func milliseconds(_ value: Int64) -> VirtualDuration { .init(nanoseconds: value * 1_000_000) }
    public static func microseconds(_ value: Int64) -> VirtualDuration { .init(nanoseconds: value * 1_000) }
    public static func seconds(_ value: Int64) -> VirtualDuration { .init(nanoseconds: value * 1_000_000_000) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    /// The sum, held at `Int64.min...Int64.max` nanoseconds instead of overflowing (a
    /// scenario file's durations are far smaller; see `ScenarioLimits`).
    public static func + (lhs: Self, rhs: Self) -> Self { .init(nanoseconds: saturatingSum(lhs.nanoseconds, rhs.nanoseconds)) }

    /// `lhs + rhs`, or the nearest bound of `Int64` when the sum does not fit.
    package static func saturatingSum(_ lhs: Int64, _ rhs: Int64) -> Int64 {
        let (sum, overflow) = lhs.addingReportingOverflow(rhs)
        guard overflow else { return sum }
        return rhs > 0 ? .max : .min
    }

    /// `80ms`, `1500ms`, `2m`, `250us`, `2250.5us`, `7ns`: see `format`.
    public var description: String { Self.format(nanoseconds) }

    /// Prints a whole number in the largest unit that divides it (`2m`, `80ms`), else
    /// up to three exact decimals of the largest unit it reaches (`1000.5ms`, `2250.5us`),
    /// else `ns`. A whole number wins over decimals: 1.5s prints as `1500ms`.
    static func format(_ nanoseconds: Int64) -> String {
        if nanoseconds == 0 { return "0ms" }
        let sign = nanoseconds < 0 ? "-" : ""
        let magnitude = nanoseconds.magnitude
        let units: [(name: String, scale: UInt64)] = [("m", 60_000_000_000), ("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000)]
        for unit in units where magnitude >= unit.scale && magnitude % unit.scale == 0 {
            return "\(sign)\(magnitude / unit.scale)\(unit.name)"
        }
        for unit in units.dropFirst() where magnitude >= unit.scale && magnitude % (unit.scale / 1000) == 0 {
            var fraction = String(magnitude % unit.scale / (unit.scale / 1000))
            fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
            while fraction.hasSuffix("0") { fraction.removeLast() }
            return "\(sign)\(magnitude / unit.scale).\(fraction)\(unit.name)"
        }
        return "\(sign)\(magnitude)ns"
    }
}

/// An instant of virtual time: nanoseconds since the start of the run.
public struct VirtualTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = VirtualTime(nanoseconds: 0)

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    /// The later instant, held at `Int64.max` nanoseconds instead of overflowing (or
    /// wrapping to a time before the start): a run can never go back in time.
    public static func + (lhs: Self, rhs: VirtualDuration) -> Self {
        .init(nanoseconds: VirtualDuration.saturatingSum(lhs.nanoseconds, rhs.nanoseconds))
    }
    /// The time between two instants, held at the bounds of `Int64` nanoseconds.
    public static func - (lhs: Self, rhs: Self) -> VirtualDuration {
        let (difference, overflow) = lhs.nanoseconds.subtractingReportingOverflow(rhs.nanoseconds)
        guard overflow else { return .init(nanoseconds: difference) }
        return .init(nanoseconds: rhs.nanoseconds < 0 ? .max : .min)
    }

    /// The instant for people: exact when short (`500ms`, `1500ms`), else milliseconds
    /// truncated to the microsecond (`100.392ms`). The trace digest uses nanoseconds.
    public var description: String {
        let exact = VirtualDuration.format(nanoseconds)
        guard exact.hasSuffix("us") || exact.hasSuffix("ns"), nanoseconds >= 1_000_000 else { return exact }
        let micros = String(nanoseconds / 1_000 % 1_000)
        return "\(nanoseconds / 1_000_000).\(String(repeating: "0", count: 3 - micros.count) + micros)ms"
    }
}
