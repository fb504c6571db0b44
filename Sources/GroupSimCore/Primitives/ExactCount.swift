/// A count of runs or orders: an unsigned integer of any size, exact.
///
/// Exhaustive exploration counts delivery orders by multiplying the orders of independent
/// parts (one device's arrivals, say), and a 96-device group has about 10^196 of them, far
/// past `UInt64`. Counts up to `UInt64.max` are held inline, without an allocation, so a
/// random exploration's tallies cost what `Int` sums did; larger ones hold base-2^64
/// limbs, least significant first.
///
/// - Complexity: addition O(n), multiplication O(n·m) in the number of limbs; a count of
///   10^196 has 11 limbs.
public struct ExactCount: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// Base-2^64 limbs, least significant first, with no zero limb at the end; empty is 0.
    /// A count below 2^64 is `small` and holds no array.
    private enum Storage: Sendable, Hashable {
        case small(UInt64)
        case large([UInt64])
    }

    private var storage: Storage

    public static let zero = ExactCount(UInt64(0))
    public static let one = ExactCount(UInt64(1))

    public init(_ value: UInt64) { storage = .small(value) }

    /// A negative `value` is taken as zero: a count is never negative.
    public init(_ value: Int) { storage = .small(value > 0 ? UInt64(value) : 0) }

    public init(integerLiteral value: UInt64) { storage = .small(value) }

    private init(limbs: [UInt64]) {
        var limbs = limbs
        while let last = limbs.last, last == 0 { limbs.removeLast() }
        storage = limbs.count <= 1 ? .small(limbs.first ?? 0) : .large(limbs)
    }

    /// `text` as decimal digits (no sign, no separators), or nil when it is not one.
    public init?(_ text: some StringProtocol) {
        guard !text.isEmpty else { return nil }
        var value = ExactCount.zero
        for byte in text.utf8 {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value.multiplied(by: 10).adding(UInt64(byte - 48))
        }
        self = value
    }

    private var limbs: [UInt64] {
        switch storage {
        case .small(let value): value == 0 ? [] : [value]
        case .large(let limbs): limbs
        }
    }

    /// The value as an `Int`, or nil when it is larger than `Int.max`.
    public var int: Int? {
        guard case .small(let value) = storage, value <= UInt64(Int.max) else { return nil }
        return Int(value)
    }

    /// The value as a `UInt64`, or nil when it is larger than `UInt64.max`.
    public var uint64: UInt64? {
        guard case .small(let value) = storage else { return nil }
        return value
    }

    /// The value as an `Int`, `Int.max` when larger: for sizes and loops, never for a count
    /// that is printed.
    public var clampedInt: Int { int ?? Int.max }

    public var isZero: Bool { self == .zero }

    public static func < (lhs: ExactCount, rhs: ExactCount) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.small(let a), .small(let b)): return a < b
        case (.small, .large): return true
        case (.large, .small): return false
        case (.large(let a), .large(let b)):
            if a.count != b.count { return a.count < b.count }
            for index in a.indices.reversed() where a[index] != b[index] { return a[index] < b[index] }
            return false
        }
    }

    public static func + (lhs: ExactCount, rhs: ExactCount) -> ExactCount {
        if case .small(let a) = lhs.storage, case .small(let b) = rhs.storage {
            let (sum, overflow) = a.addingReportingOverflow(b)
            return overflow ? ExactCount(limbs: [sum, 1]) : ExactCount(sum)
        }
        let a = lhs.limbs, b = rhs.limbs
        var result: [UInt64] = []
        result.reserveCapacity(max(a.count, b.count) + 1)
        var carry: UInt64 = 0
        for index in 0..<max(a.count, b.count) {
            let (partial, first) = (index < a.count ? a[index] : 0).addingReportingOverflow(index < b.count ? b[index] : 0)
            let (sum, second) = partial.addingReportingOverflow(carry)
            result.append(sum)
            carry = (first ? 1 : 0) + (second ? 1 : 0)
        }
        if carry > 0 { result.append(carry) }
        return ExactCount(limbs: result)
    }

    public static func += (lhs: inout ExactCount, rhs: ExactCount) { lhs = lhs + rhs }

    /// `lhs - rhs`, or zero when `rhs` is larger (a count never goes below zero).
    public static func - (lhs: ExactCount, rhs: ExactCount) -> ExactCount {
        guard rhs < lhs else { return .zero }
        if case .small(let a) = lhs.storage, case .small(let b) = rhs.storage { return ExactCount(a - b) }
        let a = lhs.limbs, b = rhs.limbs
        var result: [UInt64] = []
        result.reserveCapacity(a.count)
        var borrow: UInt64 = 0
        for index in a.indices {
            let (partial, first) = a[index].subtractingReportingOverflow(index < b.count ? b[index] : 0)
            let (difference, second) = partial.subtractingReportingOverflow(borrow)
            result.append(difference)
            borrow = (first ? 1 : 0) + (second ? 1 : 0)
        }
        return ExactCount(limbs: result)
    }

    public static func * (lhs: ExactCount, rhs: ExactCount) -> ExactCount {
        if case .small(let a) = lhs.storage, case .small(let b) = rhs.storage {
            let (high, low) = a.multipliedFullWidth(by: b)
            return high == 0 ? ExactCount(low) : ExactCount(limbs: [low, high])
        }
        let a = lhs.limbs, b = rhs.limbs
        guard !a.isEmpty, !b.isEmpty else { return .zero }
        var result = [UInt64](repeating: 0, count: a.count + b.count)
        for i in a.indices {
            var carry: UInt64 = 0
            for j in b.indices {
                let (high, low) = a[i].multipliedFullWidth(by: b[j])
                let (sum1, o1) = result[i + j].addingReportingOverflow(low)
                let (sum2, o2) = sum1.addingReportingOverflow(carry)
                result[i + j] = sum2
                carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
            }
            var position = i + b.count
            while carry > 0 {
                let (sum, overflow) = result[position].addingReportingOverflow(carry)
                result[position] = sum
                carry = overflow ? 1 : 0
                position += 1
            }
        }
        return ExactCount(limbs: result)
    }

    public static func *= (lhs: inout ExactCount, rhs: ExactCount) { lhs = lhs * rhs }

    private func adding(_ small: UInt64) -> ExactCount { self + ExactCount(small) }

    private func multiplied(by small: UInt64) -> ExactCount { self * ExactCount(small) }

    /// The quotient and remainder of division by a nonzero `divisor` below 2^64.
    public func quotientAndRemainder(dividingBy divisor: UInt64) -> (quotient: ExactCount, remainder: UInt64) {
        guard divisor > 0 else { return (.zero, 0) }
        if case .small(let value) = storage { return (ExactCount(value / divisor), value % divisor) }
        var quotient = [UInt64](repeating: 0, count: limbs.count)
        var remainder: UInt64 = 0
        for index in limbs.indices.reversed() {
            let (q, r) = divisor.dividingFullWidth((remainder, limbs[index]))
            quotient[index] = q
            remainder = r
        }
        return (ExactCount(limbs: quotient), remainder)
    }

    /// Decimal digits, exactly.
    public var description: String {
        if case .small(let value) = storage { return String(value) }
        var chunks: [UInt64] = []
        var rest = self
        // Nineteen decimal digits at a time: 10^19 < 2^64.
        let base: UInt64 = 10_000_000_000_000_000_000
        while !rest.isZero {
            let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: base)
            chunks.append(remainder)
            rest = quotient
        }
        var text = String(chunks.last ?? 0)
        for chunk in chunks.dropLast().reversed() {
            let digits = String(chunk)
            text += String(repeating: "0", count: 19 - digits.count) + digits
        }
        return text
    }

    /// `100,000,000`: the digits with thousands separators.
    public var grouped: String { Int.grouping(description) }

    /// For people: the digits up to 15 of them (`746496`), beyond that four significant
    /// digits and a power of ten, truncated, never rounded up (`1.278 × 10^196`), so that
    /// a count is never said to be more than it is.
    public var readable: String {
        let digits = description
        guard digits.count > 15 else { return digits }
        let lead = Array(digits.prefix(4))
        return "\(lead[0]).\(String(lead[1...])) × 10^\(digits.count - 1)"
    }

    /// `48.2%`: `self` out of `total` in tenths of a percent, rounded half up, computed
    /// exactly so every machine prints the same; `over 100%` when `self` is larger.
    public func percent(of total: ExactCount) -> String {
        guard !total.isZero else { return "0%" }
        guard self <= total else { return "over 100%" }
        let tenths = scaled(to: 1000, of: total)
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// `self × scale / total` rounded half up, for `self` at most `total` (a bar's width,
    /// tenths of a percent); 0 when `total` is 0, `scale` when `self` is larger.
    public func scaled(to scale: UInt64, of total: ExactCount) -> UInt64 {
        guard !total.isZero else { return 0 }
        guard self <= total else { return scale }
        let product = self * ExactCount(scale)
        // The quotient is at most `scale`: found by binary search, exactly.
        var low: UInt64 = 0, high = scale
        while low < high {
            let middle = low + (high - low + 1) / 2
            if total * ExactCount(middle) <= product { low = middle } else { high = middle - 1 }
        }
        let remainder = product - total * ExactCount(low)
        return remainder + remainder >= total && !remainder.isZero ? min(low + 1, scale) : low
    }
}

extension ExactCount {
    /// n! for small n (the orders of n events that may arrive in any order).
    public static func factorial(_ n: Int) -> ExactCount {
        var result = ExactCount.one
        if n > 1 { for k in 2...n { result *= ExactCount(k) } }
        return result
    }

    /// The sum of `counts`.
    public static func sum(_ counts: some Sequence<ExactCount>) -> ExactCount { counts.reduce(.zero, +) }
}
