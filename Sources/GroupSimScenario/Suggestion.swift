/// Finds the nearest valid spelling for a misspelt key or name, for the
/// `did you mean "X"?` part of a scenario diagnostic.
///
/// Distance is the optimal-string-alignment form of Damerau–Levenshtein (insertions,
/// deletions, substitutions and swaps of two neighbouring characters each cost 1),
/// compared without regard to case, so `latncy` finds `latency`, `devcie` finds
/// `device` and `Alice` finds `alice`.
package enum Suggestion {
    /// The candidate nearest to `word`, or nil when none is near enough to help.
    ///
    /// A candidate qualifies when its distance is at most `max(1, word.count / 3)`.
    /// Among qualifying candidates the smallest distance wins, and a tie goes to the
    /// one listed first, so pass candidates in a stable order (file order, or the
    /// order the format documents them).
    ///
    /// Complexity: linear in the number of candidates. A candidate whose length differs
    /// from the word's by more than the limit costs one length comparison; the others
    /// cost O(length × limit), the distance being computed only within the limit and
    /// abandoned as soon as it must exceed it (or the best found so far).
    package static func nearest(to word: String, in candidates: [String]) -> String? {
        nearest(to: word, inLists: [candidates])
    }

    /// As `nearest(to:in:)` over the candidates of several lists, in order, without
    /// joining them (the parser keeps its namespaces as separate lists).
    static func nearest(to word: String, inLists lists: [[String]]) -> String? {
        let target = Array(word.lowercased())
        var bound = max(1, target.count / 3)
        var best: String?
        for list in lists {
            for candidate in list {
                // A cheap length filter first: a character is at least one and at most
                // four UTF-8 bytes, so the byte count bounds the character count.
                let bytes = candidate.utf8.count
                guard bytes >= target.count - bound, bytes <= 4 * (target.count + bound) else { continue }
                let other = Array(candidate.lowercased())
                guard let distance = boundedDistance(target, other, bound: bound) else { continue }
                best = candidate
                // A later candidate must be strictly nearer: the tie goes to the first.
                guard distance > 0 else { return best }
                bound = distance - 1
            }
        }
        return best
    }

    /// The optimal-string-alignment distance between two character arrays.
    static func distance(_ source: [Character], _ target: [Character]) -> Int {
        boundedDistance(source, target, bound: max(source.count, target.count)) ?? max(source.count, target.count)
    }

    /// The optimal-string-alignment distance when it is at most `bound`, else nil.
    ///
    /// Only the cells within `bound` of the diagonal are computed (a path through any other
    /// cell costs more than `bound`), and the computation stops at the first row whose
    /// every cell exceeds `bound`: O(source.count × bound) at worst.
    static func boundedDistance(_ source: [Character], _ target: [Character], bound: Int) -> Int? {
        guard bound >= 0, abs(source.count - target.count) <= bound else { return nil }
        if source.isEmpty { return target.count }
        if target.isEmpty { return source.count }
        let over = bound + 1
        // Three rolling rows: the one before the previous (for swaps), the previous, the current.
        var beforePrevious = [Int](repeating: over, count: target.count + 1)
        var previous = (0...target.count).map { min($0, over) }
        var current = [Int](repeating: over, count: target.count + 1)
        for i in 1...source.count {
            let low = max(1, i - bound), high = min(target.count, i + bound)
            current[0] = min(i, over)
            current[low - 1] = low == 1 ? current[0] : over
            var rowMinimum = current[low - 1]
            if low <= high {
                for j in low...high {
                    let cost = source[i - 1] == target[j - 1] ? 0 : 1
                    var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                    if i > 1, j > 1, source[i - 1] == target[j - 2], source[i - 2] == target[j - 1] {
                        value = min(value, beforePrevious[j - 2] + 1)
                    }
                    current[j] = min(value, over)
                    rowMinimum = min(rowMinimum, current[j])
                }
            }
            if high < target.count { current[high + 1] = over }
            if rowMinimum > bound { return nil }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        let result = previous[target.count]
        return result <= bound ? result : nil
    }
}
