import GroupSim

/// `explore --exhaustive --max-memory SIZE`: the memory budget of an exhaustive search.
extension ExploreCommand {
    static let maxMemory = Option.text("max-memory", "SIZE", default: """
        1G; under a memory limit such as ulimit -v or a container's, an eighth of it when that is less
        """, """
        the most memory the search may hold (the orders reached, the branches still to try, the local \
        orders kept; counted from their sizes, the same on every machine), in bytes or with K, M, G or T (powers of 1024); \
        past it the search stops with the report of the orders searched so far and exit status 2
        """, placement: .inside("exhaustive"))

    /// The budget `--max-memory` sets, or the default for this process.
    static func memoryBudget(_ parsed: Arguments) throws -> Int {
        guard let text = parsed.value(maxMemory) else { return SearchMemory.defaultBudget(memoryLimit: ProcessMemory.limit()) }
        guard let bytes = parseSize(text) else {
            throw UsageError("--max-memory: \"\(Excerpt.of(text))\" is not a size: give bytes, or a number with K, M, G or T "
                             + "(such as 512M or 2G)", hint: usage)
        }
        return bytes
    }

    /// `2G`, `512M`, `1048576`, `1.5G`: bytes (units are powers of 1024; `KiB`, `MiB`,
    /// ... and a trailing `B` are taken too). nil for anything else, 0, or past `Int.max`.
    static func parseSize(_ text: String) -> Int? {
        var number = Substring(text.uppercased())
        var scale = 1.0
        if number.hasSuffix("IB") { number = number.dropLast(2) } else if number.hasSuffix("B") { number = number.dropLast() }
        for (unit, power) in [("K", 10.0), ("M", 20.0), ("G", 30.0), ("T", 40.0)] where number.hasSuffix(unit) {
            number = number.dropLast()
            scale = Double(1 << Int(power))
        }
        guard !number.isEmpty, number.count <= 20, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              number.filter({ $0 == "." }).count <= 1, let value = Double(number) else { return nil }
        let bytes = (value * scale).rounded(.down)
        guard bytes >= 1, bytes < 9.0e18 else { return nil }
        return Int(bytes)
    }
}
