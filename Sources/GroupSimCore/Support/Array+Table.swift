extension Array {
    /// Grows a table kept by number (a session's, a message's) with `filler` until `index`
    /// is one of its indices; a table that is long enough already is left as it is.
    @inlinable package mutating func grow(toInclude index: Int, with filler: Element) {
        if index >= count { append(contentsOf: repeatElement(filler, count: index + 1 - count)) }
    }
}
