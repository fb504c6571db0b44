extension Int {
    /// `100,000,000`: the digits with thousands separators, as every report, message and
    /// the bench print a whole number (`ExactCount.grouped` too).
    package var grouped: String { (self < 0 ? "-" : "") + Self.grouping(String(magnitude)) }

    /// `digits` (no sign) with a comma before every third digit from the right.
    package static func grouping(_ digits: String) -> String {
        var result = ""
        for (offset, digit) in digits.reversed().enumerated() {
            if offset > 0, offset % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return String(result.reversed())
    }
}
