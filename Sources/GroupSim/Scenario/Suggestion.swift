/// Finds the nearest valid spelling for a misspelt key or name, for the
/// `did you mean "X"?` part of a scenario diagnostic.
///
/// Distance is the optimal-string-alignment form of Damerau–Levenshtein (insertions,
/// deletions, substitutions and swaps of two neighbouring characters each cost 1),
/// compared without regard to case, so `latncy` finds `latency`, `devcie` finds
/// `device` and `Alice` finds `alice`.
public enum Suggestion {
    /// The candidate nearest to `word`, or nil when none is near enough to help.
    ///
    /// A candidate qualifies when its distance is at most `max(1, word.count / 3)`.
    /// Among qualifying candidates the smallest distance wins, and a tie goes to the
    /// one listed first, so pass candidates in a stable order (file order, or the
    /// order the format documents them). Complexity: O(word.count × candidate.count)
    /// per candidate whose length is within the limit of the word's.
    public static func nearest(to word: String, in candidates: [String]) -> String? {
        let target = Array(word.lowercased())
        let limit = max(1, target.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            guard abs(other.count - target.count) <= limit else { continue }
            let distance = distance(target, other)
            if distance <= limit, distance < best?.distance ?? Int.max {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// The optimal-string-alignment distance between two character arrays.
    static func distance(_ source: [Character], _ target: [Character]) -> Int {
        if source.isEmpty { return target.count }
        if target.isEmpty { return source.count }
        // Three rolling rows: the one before the previous (for swaps), the previous, the current.
        var beforePrevious = [Int](repeating: 0, count: target.count + 1)
        var previous = Array(0...target.count)
        var current = [Int](repeating: 0, count: target.count + 1)
        for i in 1...source.count {
            current[0] = i
            for j in 1...target.count {
                let cost = source[i - 1] == target[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, source[i - 1] == target[j - 2], source[i - 2] == target[j - 1] {
                    value = min(value, beforePrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[target.count]
    }
}
