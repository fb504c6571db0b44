/// Numbers for distinct keys, given in the order first seen: found by comparing while they
/// are few (a comparison stops at the first difference, a hash reads the whole key, and a
/// run has a few states to tell apart) and by hash once there are more than 16.
struct FewKeys<Key: Hashable> {
    private(set) var keys: [Key] = []
    private var table: [Key: Int]?

    /// The number of `key`; nil when it was never inserted.
    func number(of key: Key) -> Int? {
        if let table { return table[key] }
        return keys.firstIndex(of: key)
    }

    /// The number of `key`, given the first time it comes.
    mutating func insert(_ key: Key) -> (number: Int, inserted: Bool) {
        if let known = number(of: key) { return (known, false) }
        keys.append(key)
        if table != nil {
            table?[key] = keys.count - 1
        } else if keys.count > 16 {
            table = Dictionary(uniqueKeysWithValues: zip(keys, keys.indices))
        }
        return (keys.count - 1, true)
    }
}
extension FewKeys: Sendable where Key: Sendable {}
