/// The version of GroupSim: printed by `groupsim --version` and written into every
/// exploration report, so that `groupsim merge` never joins shards that different
/// versions explored (a new version may simulate the same seed differently).
package enum GroupSimVersion {
    /// Semantic version of the package and the `groupsim` tool.
    package static let current = "0.1.0"
}
