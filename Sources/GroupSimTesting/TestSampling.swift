import Foundation

/// How large a sample the property and exploration tests draw. `swift test` alone draws
/// the default sample, sized so the whole suite takes minutes on a 2-core machine in a
/// debug build; with `GROUPSIM_FULL_TESTS=1` in the environment each sampled test draws
/// its full sample (more generated scenarios, larger groups, every seed it ever ran), as
/// `.ci/run` does in a second pass (docs/ci.md):
///
/// ```swift
/// static let scenarios = TestSampling.count(default: 40, full: 200)
/// ```
///
/// Both samples come from the same generators and are judged by the same oracles; a
/// failure names its seed either way, and the seed replays with the variable set or not.
package enum TestSampling {
    /// The environment variable that asks for the full samples.
    package static let variable = "GROUPSIM_FULL_TESTS"

    /// True when the full samples were asked for (`GROUPSIM_FULL_TESTS=1`).
    package static let full = ProcessInfo.processInfo.environment[variable] == "1"

    /// `full` when the full samples were asked for, `default` otherwise.
    package static func count<Value>(default sampled: Value, full whole: Value) -> Value {
        full ? whole : sampled
    }
}
