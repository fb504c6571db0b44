/// The offending text an error message quotes, cut to about 80 characters with its
/// length: a 10 MB number makes a one-line error, not a 10 MB one.
package enum Excerpt {
    /// The most characters quoted whole.
    package static let limit = 80

    /// `text` as it is when it has at most `limit` characters; else its first 60 and
    /// last 16 around `…`, then its length: `1234…7890 (10,000,000 characters)`.
    package static func of(_ text: String) -> String {
        guard text.prefix(limit + 1).count > limit else { return text }
        let total = Plural.count(text.count, "character")
        return "\(text.prefix(60))…\(text.suffix(16)) (\(total))"
    }
}
