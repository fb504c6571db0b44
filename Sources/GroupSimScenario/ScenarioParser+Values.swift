import GroupSimCore

extension ScenarioParser.Context {
    // MARK: Describing what was found

    /// What a message says was found: `"80"`, `a mapping`, `a list` or `nothing`.
    static func found(_ node: Node) -> String {
        switch node.value {
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .scalar(let scalar): scalar.kind == .null ? "nothing" : quoted(scalar.text)
        }
    }

    /// Text in double quotes for a message: quotes, backslashes and control characters
    /// escaped, and cut to 60 characters so that one huge value cannot flood the output.
    static func quoted(_ text: String) -> String {
        let limit = 60
        let cut = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex)
        guard let cut, cut < text.endIndex else { return "\"" + Escaper.diagnostic(text) + "\"" }
        return "\"" + Escaper.diagnostic(String(text[..<cut])) + "…\""
    }

    /// `a`, `a or b`, `a, b or c`.
    static func alternatives(_ words: [String]) -> String {
        guard let last = words.last else { return "" }
        return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + " or " + last
    }

    /// Whether `lhs` is written before `rhs`.
    static func precedes(_ lhs: Scenario.SourceLocation, _ rhs: Scenario.SourceLocation) -> Bool {
        ScenarioParser.Position(lhs) < ScenarioParser.Position(rhs)
    }

    /// Reports `expected WHAT, found X` at the node.
    mutating func expected(_ what: String, found node: Node, suggestion: String? = nil) {
        report("expected \(what), found \(Self.found(node))", at: node.location, suggestion: suggestion)
    }

    /// Reports `unknown WHAT "NAME"` with the nearest candidate, or the candidates
    /// themselves when none is near and they are few.
    mutating func reportUnknown(_ what: String, _ name: String, at location: Scenario.SourceLocation, candidates: [String]) {
        reportUnknown(what, name, at: location, in: [candidates])
    }

    /// As `reportUnknown(_:_:at:candidates:)` over several lists of candidates, in order.
    mutating func reportUnknown(_ what: String, _ name: String, at location: Scenario.SourceLocation, in lists: [[String]]) {
        let count = lists.reduce(0) { $0 + $1.count }
        let otherwise = (1...16).contains(count) ? "; expected \(Self.alternatives(lists.flatMap { $0 }))" : nil
        report("unknown \(what) \(Self.quoted(name))", at: location, nearestTo: name, in: lists, otherwise: otherwise)
    }

    // MARK: Collections

    /// The entries of a mapping, or nil (reported) for anything else.
    mutating func mapping(_ node: Node, expected what: String) -> [Node.Entry]? {
        guard case .mapping(let entries) = node.value else {
            expected(what, found: node)
            return nil
        }
        return entries
    }

    /// The items of a list, or nil (reported) for anything else.
    mutating func list(_ node: Node, expected what: String) -> [Node]? {
        guard case .sequence(let items) = node.value else {
            expected(what, found: node)
            return nil
        }
        return items
    }

    /// A mapping whose keys are checked: each key outside `allowed` is reported at the
    /// key, as `unknown key "K" in PLACE` with the nearest allowed key, or with the
    /// explanation `misplaced` gives for a key that is valid elsewhere but not here.
    mutating func fields(
        _ node: Node, expected what: String, place: String?, allowed: [String], misplaced: [String: String] = [:]
    ) -> ScenarioParser.Fields? {
        guard let entries = mapping(node, expected: what) else { return nil }
        for entry in entries where !allowed.contains(entry.key) {
            if let explanation = misplaced[entry.key] {
                report(explanation, at: entry.keyLocation)
            } else {
                let message = "unknown key \(Self.quoted(entry.key))" + (place.map { " in \($0)" } ?? "")
                report(message, at: entry.keyLocation, suggestion: Suggestion.nearest(to: entry.key, in: allowed), code: .unknown)
            }
        }
        return ScenarioParser.Fields(node: node, entries: entries)
    }

    /// The value of a required key, or nil (reported at the mapping) when it is absent.
    mutating func required(_ key: String, in fields: ScenarioParser.Fields, place: String?) -> Node? {
        if let node = fields[key] { return node }
        report("missing required key \(Self.quoted(key))" + (place.map { " in \($0)" } ?? ""), at: fields.node.location)
        return nil
    }

    // MARK: Scalars

    /// The text of any scalar but an empty one: `42` and `true` give "42" and "true".
    /// Longer than `limits.maximumTextBytes` (1 MiB) is an error.
    mutating func text(_ node: Node, expected what: String) -> String? {
        guard case .scalar(let scalar) = node.value, scalar.kind != .null else {
            expected(what, found: node)
            return nil
        }
        guard withinTextLimit(scalar.text, at: node.location) else { return nil }
        return scalar.text
    }

    /// Like `text`, but the empty string is an error too: for names of people, devices,
    /// sessions and conversations, which are at most `limits.maximumNameLength` (200)
    /// characters.
    mutating func name(_ node: Node, expected what: String) -> String? {
        guard case .scalar(let scalar) = node.value, scalar.kind != .null, !scalar.text.isEmpty else {
            expected(what, found: node)
            return nil
        }
        guard withinNameLimit(scalar.text, at: node.location) else { return nil }
        return scalar.text
    }

    /// Whether a name is within `limits.maximumNameLength` characters; reports it when not.
    mutating func withinNameLimit(_ name: String, at location: Scenario.SourceLocation) -> Bool {
        let limit = limits.maximumNameLength
        // Counting stops past the limit: a huge name costs no more than a short one.
        guard name.utf8.count > limit, name.prefix(limit + 1).count > limit else { return true }
        report("name \(Self.quoted(name)) is longer than the limit of \(limit) characters", at: location)
        return false
    }

    /// Whether a text is within `limits.maximumTextBytes` bytes; reports it when not.
    mutating func withinTextLimit(_ text: String, at location: Scenario.SourceLocation) -> Bool {
        let limit = limits.maximumTextBytes
        guard text.utf8.count > limit else { return true }
        report(
            "text of \(text.utf8.count) bytes is longer than the limit of \(Self.bytes(limit)) (\(limit) bytes)",
            at: location
        )
        return false
    }

    /// `1 MiB`, `64 MiB`, `512 KiB` or `300 bytes`, for messages about limits.
    static func bytes(_ count: Int) -> String {
        if count >= 1_048_576, count % 1_048_576 == 0 { return "\(count / 1_048_576) MiB" }
        if count >= 1_024, count % 1_024 == 0 { return "\(count / 1_024) KiB" }
        return "\(count) bytes"
    }

    /// `true` or `false`, written plain.
    mutating func flag(_ node: Node, expected what: String = "true or false") -> Bool? {
        guard case .scalar(let scalar) = node.value, case .bool(let value) = scalar.kind else {
            expected(what, found: node)
            return nil
        }
        return value
    }

    /// One of `words`, with the nearest as a suggestion when it is none of them.
    mutating func word(_ node: Node, among words: [String]) -> String? {
        let what = Self.alternatives(words)
        guard case .scalar(let scalar) = node.value, scalar.kind != .null else {
            expected(what, found: node)
            return nil
        }
        guard words.contains(scalar.text) else {
            expected(what, found: node, suggestion: Suggestion.nearest(to: scalar.text, in: words))
            return nil
        }
        return scalar.text
    }

    /// One case of a string-backed enumeration, by raw value.
    mutating func choice<Choice>(_ node: Node, of type: Choice.Type) -> Choice?
    where Choice: RawRepresentable & CaseIterable, Choice.RawValue == String {
        word(node, among: Choice.allCases.map(\.rawValue)).flatMap(Choice.init(rawValue:))
    }

    // MARK: Numbers

    /// How an integer scalar reads.
    enum IntegerReading: Equatable {
        case value(Int64)
        /// Digits the reader could not hold in an Int64.
        case outOfRange
        case notAnInteger
    }

    static func integer(_ node: Node) -> IntegerReading {
        guard case .scalar(let scalar) = node.value else { return .notAnInteger }
        if case .integer(let value) = scalar.kind { return .value(value) }
        guard scalar.style == .plain, scalar.kind != .null else { return .notAnInteger }
        let digits = scalar.text.hasPrefix("-") || scalar.text.hasPrefix("+") ? scalar.text.dropFirst() : Substring(scalar.text)
        let allDigits = !digits.isEmpty && digits.allSatisfy { ("0"..."9").contains($0) }
        return allDigits ? .outOfRange : .notAnInteger
    }

    /// A whole number within `range` (by default 0 to `ScenarioLimits.maximumCount`); out
    /// of it is an error naming the range.
    mutating func count(_ node: Node, expected what: String, in range: ClosedRange<Int> = 0...ScenarioLimits.maximumCount) -> Int? {
        switch Self.integer(node) {
        case .value(let value):
            if let number = Int(exactly: value), range.contains(number) { return number }
            return outOfRange(node, what, range)
        case .outOfRange:
            return outOfRange(node, what, range)
        case .notAnInteger:
            expected(what, found: node)
            return nil
        }
    }

    private mutating func outOfRange<Value>(_ node: Node, _ what: String, _ range: ClosedRange<Int>) -> Value? {
        report(
            "expected \(what), found \(Self.found(node)), which is out of range; the allowed range is \(range.lowerBound) to "
                + "\(range.upperBound)",
            at: node.location
        )
        return nil
    }

    private mutating func tooLarge<Value>(_ node: Node, _ what: String) -> Value? {
        report("expected \(what), found \(Self.found(node)), which is too large (the largest is \(UInt64.max))", at: node.location)
        return nil
    }

    /// A seed: a non-negative integer up to 18446744073709551615 (`UInt64.max`).
    mutating func readSeed(_ node: Node) -> UInt64? {
        let what = "a non-negative integer such as 7"
        switch Self.integer(node) {
        case .value(let value) where value >= 0:
            return UInt64(value)
        case .value:
            report("expected \(what), found \(Self.found(node)), which is negative", at: node.location)
            return nil
        case .outOfRange:
            if case .scalar(let scalar) = node.value, let value = UInt64(scalar.text) { return value }
            return tooLarge(node, what)
        case .notAnInteger:
            expected(what, found: node)
            return nil
        }
    }

    // MARK: Durations

    /// How duration text reads.
    enum DurationReading: Equatable {
        case value(VirtualDuration)
        /// Not a number followed by ns, us, ms, s or m.
        case malformed
        case negative
        case tooLarge
        /// Needs a fraction of a nanosecond (`1.0000000001s`).
        case tooPrecise
    }

    /// A unit of a written duration: the nanoseconds in one are `multiplier × 10^exponent`.
    private struct DurationUnit {
        var name: String
        var multiplier: UInt64
        var exponent: Int
    }

    private static let durationUnits = [
        DurationUnit(name: "ns", multiplier: 1, exponent: 0),
        DurationUnit(name: "us", multiplier: 1, exponent: 3),
        DurationUnit(name: "ms", multiplier: 1, exponent: 6),
        DurationUnit(name: "s", multiplier: 1, exponent: 9),
        DurationUnit(name: "m", multiplier: 6, exponent: 10),
    ]

    /// Reads `250ms`, `1.5s`, `2m`: digits, optionally `.` and more digits, then a unit.
    /// The value must be a whole number of nanoseconds that fits an `Int64`. Exact:
    /// no floating point is involved.
    static func readDuration(_ text: String) -> DurationReading {
        let isNegative = text.hasPrefix("-")
        let body = isNegative ? text.dropFirst() : Substring(text)
        let number = body.prefix { ("0"..."9").contains($0) || $0 == "." }
        guard let unit = durationUnits.first(where: { $0.name == body.dropFirst(number.count) }) else { return .malformed }
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty }) else { return .malformed }
        if isNegative { return .negative }

        // The whole part: digits beyond UInt64 are too large whatever the unit.
        var whole: UInt64 = 0
        for digit in parts[0] {
            let (times10, overflow1) = whole.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit.wholeNumberValue ?? 0))
            if overflow1 || overflow2 { return .tooLarge }
            whole = sum
        }
        var scale = unit.multiplier
        for _ in 0..<unit.exponent { scale *= 10 }
        let (wholeNanoseconds, overflow) = whole.multipliedReportingOverflow(by: scale)
        if overflow { return .tooLarge }

        // The fraction, without trailing zeros: `digits / 10^k` of a unit is
        // `digits × multiplier × 10^(exponent − k)` nanoseconds. With k > exponent the
        // last digit (not 0) must cancel a 10 of the multiplier: only 5 × 6 can, once.
        var fraction = parts.count == 2 ? parts[1] : ""
        while fraction.hasSuffix("0") { fraction.removeLast() }
        var fractionNanoseconds: UInt64 = 0
        if !fraction.isEmpty {
            guard fraction.count <= unit.exponent + 1, let digits = UInt64(fraction) else { return .tooPrecise }
            if fraction.count <= unit.exponent {
                var value = digits * unit.multiplier
                for _ in 0..<(unit.exponent - fraction.count) { value *= 10 }
                fractionNanoseconds = value
            } else {
                let value = digits * unit.multiplier
                guard value % 10 == 0 else { return .tooPrecise }
                fractionNanoseconds = value / 10
            }
        }
        let (total, overflowSum) = wholeNanoseconds.addingReportingOverflow(fractionNanoseconds)
        guard !overflowSum, let nanoseconds = Int64(exactly: total) else { return .tooLarge }
        return .value(VirtualDuration(nanoseconds: nanoseconds))
    }

    /// A duration such as `80ms`. Bare numbers (`80`, plain or quoted) are errors: a
    /// duration always states its unit.
    mutating func duration(_ node: Node) -> VirtualDuration? {
        let what = "a duration such as 80ms"
        guard case .scalar(let scalar) = node.value, scalar.kind == .string else {
            expected(what, found: node)
            return nil
        }
        let range = "the allowed range is 0ms to \(ScenarioLimits.maximumDuration) (365 days)"
        switch Self.readDuration(scalar.text) {
        case .value(let duration) where duration <= ScenarioLimits.maximumDuration:
            return duration
        case .value, .tooLarge:
            report("duration \(Self.found(node)) is too large; \(range)", at: node.location)
        case .malformed:
            expected(what, found: node)
        case .negative:
            report("expected \(what), found \(Self.found(node)), which is negative; \(range)", at: node.location)
        case .tooPrecise:
            report("duration \(Self.found(node)) is finer than a nanosecond", at: node.location)
        }
        return nil
    }
}
