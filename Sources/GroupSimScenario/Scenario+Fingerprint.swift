import GroupSimCore

extension Scenario {
    /// A fingerprint of the scenario as parsed: 16 hex digits of the SHA-256 of the
    /// scenario as `ScenarioWriter` prints it back, the same on every machine.
    ///
    /// It covers everything the simulation reads (people, devices, network, app, options,
    /// steps, checks and the file's seed) and nothing that only formats the file:
    /// comments, spacing, key order within a mapping, the file's path. Exploration
    /// reports carry it, so that `ExplorationReport.merge` refuses shards explored from
    /// different scenario text under one name. A sticker named by `file:` is covered by
    /// its path, not by the bytes of the file.
    public var fingerprint: String {
        String(SHA256.hex(ScenarioWriter.yaml(self)).prefix(16))
    }
}
