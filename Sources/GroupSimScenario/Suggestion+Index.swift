extension Suggestion {
    /// A list of candidates prepared for many look-ups: lowered once, with every
    /// one-character deletion of each candidate indexed, so that a candidate at distance 0
    /// or 1 (most typos: a letter missed, added, changed or two swapped) is found in time
    /// proportional to the word's length, whatever the number of candidates.
    ///
    /// Only a word with no candidate within distance 1 costs a scan of the list (each
    /// candidate checked with the bounded, early-exit distance). The answer is always the
    /// one `nearest(to:in:)` gives: the smallest distance, a tie to the first listed.
    struct Index {
        let candidates: [String]
        private let lowered: [[Character]]
        /// Each lowered candidate → its first position.
        private var exact: [String: Int] = [:]
        /// Each lowered candidate and each of its one-character deletions → positions, in order.
        private var deletions: [String: [Int]] = [:]

        init(_ candidates: [String]) {
            self.candidates = candidates
            lowered = candidates.map { Array($0.lowercased()) }
            for (position, characters) in lowered.enumerated() {
                let text = String(characters)
                if exact[text] == nil { exact[text] = position }
                for variant in Self.variants(characters) { deletions[variant, default: []].append(position) }
            }
        }

        /// The word itself and each of its one-character deletions, each once.
        private static func variants(_ characters: [Character]) -> [String] {
            var seen: Set<String> = [String(characters)]
            var result = [String(characters)]
            for index in characters.indices {
                var shorter = characters
                shorter.remove(at: index)
                let text = String(shorter)
                if seen.insert(text).inserted { result.append(text) }
            }
            return result
        }

        /// The first candidate equal to `target` (ignoring case), as a position.
        func exactMatch(_ target: [Character]) -> Int? { exact[String(target)] }

        /// The first candidate at distance 1 from `target`, as a position.
        func firstAtDistanceOne(_ target: [Character]) -> Int? {
            var best: Int?
            for variant in Self.variants(target) {
                for position in deletions[variant] ?? [] where position < best ?? Int.max {
                    if Suggestion.boundedDistance(target, lowered[position], bound: 1) == 1 { best = position }
                }
            }
            return best
        }

        /// The first candidate at the smallest distance within `bound`, scanning in order.
        func scan(_ target: [Character], bound: inout Int) -> (position: Int, distance: Int)? {
            var best: (position: Int, distance: Int)?
            for (position, other) in lowered.enumerated() {
                guard bound >= 0, abs(other.count - target.count) <= bound,
                      let distance = Suggestion.boundedDistance(target, other, bound: bound)
                else { continue }
                best = (position, distance)
                bound = distance - 1
            }
            return best
        }
    }

    /// The nearest candidate of several prepared lists, in order: as
    /// `nearest(to:inLists:)` on the lists the indices were made from.
    static func nearest(to word: String, in indices: [Index]) -> String? {
        let target = Array(word.lowercased())
        for index in indices {
            if let position = index.exactMatch(target) { return index.candidates[position] }
        }
        for index in indices {
            if let position = index.firstAtDistanceOne(target) { return index.candidates[position] }
        }
        // Nothing within 1: scan for the nearest from 2 up to the limit.
        var bound = max(1, target.count / 3)
        guard bound >= 2 else { return nil }
        var best: String?
        for index in indices {
            if let found = index.scan(target, bound: &bound) {
                best = index.candidates[found.position]
            }
        }
        return best
    }
}
