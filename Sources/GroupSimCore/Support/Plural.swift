/// "1 copy", "12 copies": a count with its noun in the right number, for printed reports.
package enum Plural {
    /// `count` followed by `noun`, or by `plural` (default `noun` + "s") when not 1.
    package static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }
}
