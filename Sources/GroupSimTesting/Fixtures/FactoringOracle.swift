import GroupSim
import GroupSimCore

/// What the factoring oracle tests share (`FactoringOracleTests`, and for registered
/// controllers `ControllerFactoringOracleTests`): generated races, and the counts a
/// factored and a plainly enumerated report of one scenario must share.
package enum FactoringOracle {
    /// The counts two reports of one scenario must share, named where they differ.
    package static func differences(_ a: ExplorationReport, _ b: ExplorationReport) -> [String] {
        var found: [String] = []
        if a.runs != b.runs { found.append("orders \(a.runs) vs \(b.runs)") }
        if a.failedRuns != b.failedRuns { found.append("failed orders \(a.failedRuns) vs \(b.failedRuns)") }
        if a.stoppedRuns != b.stoppedRuns { found.append("stopped \(a.stoppedRuns) vs \(b.stoppedRuns)") }
        for (x, y) in zip(a.checks, b.checks) where x.failedRuns != y.failedRuns || (x.firstFailure == nil) != (y.firstFailure == nil) {
            found.append("check \(x.text): \(x.failedRuns) vs \(y.failedRuns)")
        }
        if a.unexpectedFailures.map(\.failedRuns) != b.unexpectedFailures.map(\.failedRuns) { found.append("unexpected failures") }
        if a.pitfalls != b.pitfalls { found.append("pitfalls \(a.pitfalls.map { "\($0.kind.rawValue) \($0.runs)" }) vs " +
            "\(b.pitfalls.map { "\($0.kind.rawValue) \($0.runs)" })") }
        if a.outcomes != b.outcomes { found.append("device rows") }
        if a.classes != b.classes { found.append("outcome classes \(a.classes.map(\.runs)) vs \(b.classes.map(\.runs))") }
        if a.stepFailures != b.stepFailures { found.append("failed steps") }
        if a.cloudConflicts != b.cloudConflicts || a.conflictRuns != b.conflictRuns { found.append("cloud conflicts") }
        return found
    }

    /// A small random race: 3 to 5 people with 1 or 2 devices each, one send, then 2 to 3
    /// replies (a race with a window, or steps a few milliseconds apart), sometimes a
    /// device offline until after the replies, a late reply that reads the race's result,
    /// a reinstall, and a check of every kind (`Check.Kind.allCases`).
    ///
    /// - Parameter app: a registered app to run instead of the built-in one: then at most
    ///   8 devices, and most second devices (`-ipad`) open the app before the replies, so
    ///   that it runs (and hears `didReceive`) as the copies arrive. The built-in app's scenarios draw
    ///   the same numbers either way.
    /// - Parameter taps: adds a tap (`FactoringOracleTests` generates them).
    /// - Parameter writeOnCompose: writes the cloud before staging (`app.push: on-compose`),
    ///   the timing the scenarios of seeds 84 and 115 found their fault with (`HeldSendOrderTests`).
    package static func generate(seed: UInt64, app: String? = nil, taps: Bool = false, writeOnCompose: Bool = false) -> String {
        var random = SplitMix64(seed: seed)
        func pick(_ n: Int) -> Int { Int(random.next(below: UInt64(n))) }
        let people = 3 + pick(3)
        var devices: [[String]] = []
        var lines = ["name: oracle-\(seed)", "seed: \(seed)", "people:"]
        var total = 0
        for person in 0..<people {
            var count = 1 + (pick(3) == 0 ? 1 : 0)
            // With an app, at most 8 devices: a second device only while the rest fit.
            if app != nil, total + count + (people - person - 1) > 8 { count = 1 }
            total += count
            devices.append((0..<count).map { "p\(person)-\(["phone", "ipad"][$0])" })
            lines.append("  p\(person): [\(devices[person].joined(separator: ", "))]")
        }
        let mode = ["message", "message", "cloud-overwrite", "cloud-merge", "cloud-cas"][pick(5)]
        if let app {
            lines += ["app:", "  name: \(app)", "  state: \(mode)", "  cloud-latency: \(10 + pick(40))ms"]
        } else if mode != "message" {
            lines += ["app:", "  state: \(mode)", "  cloud-latency: \(10 + pick(40))ms"]
        }
        if mode != "message", writeOnCompose { lines.append("  push: on-compose") }
        lines += ["network:", "  latency: \(20 + pick(60))ms", "  jitter: \(pick(3) * 20)ms", "steps:",
                  "  - at: 0ms", "    device: p0-phone", "    send: { session: poll, data: { q: lunch } }"]
        var others = Array(1..<people)
        var repliers: [Int] = []
        for _ in 0..<(2 + pick(min(3, people - 1) - 1)) { repliers.append(others.remove(at: pick(others.count))) }
        let offline = pick(4) == 0 ? devices[pick(people)].last : nil
        if let offline, offline != "p0-phone" {
            lines += ["  - at: 100ms", "    device: \(offline)", "    offline: true"]
        }
        let start = 300
        let replies = lines.count
        if pick(2) == 0 {
            lines += ["  - at: \(start)ms", "    race:", "      within: \(1 + pick(30))ms", "      steps:"]
            for person in repliers {
                lines.append("        - { device: p\(person)-phone, reply: { session: poll, data: { p\(person): yes } } }")
            }
        } else {
            for (index, person) in repliers.enumerated() {
                lines += ["  - at: \(start + index * pick(8))ms", "    device: p\(person)-phone",
                          "    reply: { session: poll, data: { p\(person): yes } }"]
            }
        }
        if let offline, offline != "p0-phone" {
            lines += ["  - at: 2s", "    device: \(offline)", "    online: true"]
            // A copy sent as the device comes back may overtake the held ones (M30).
            if pick(2) == 0 { lines += ["  - at: 2s", "    device: p0-phone", "    reply: { session: poll, data: { again: yes } }"] }
        }
        if pick(3) == 0 {
            lines += ["  - at: \(start + 20 + pick(60))ms", "    device: p0-phone", "    reply: { session: poll, data: { closed: yes } }"]
        }
        if pick(6) == 0, let reinstalled = devices[pick(people)].last {
            lines += ["  - at: 5s", "    device: \(reinstalled)", "    reinstall: true"]
        }
        let someone = devices[pick(people)][0]
        let voter = repliers.first ?? 1
        if app != nil {
            // Most second devices open the app before the replies and keep it open.
            var opens: [String] = []
            for device in devices.joined() where device.hasSuffix("ipad") && pick(4) != 0 {
                opens += ["  - at: 200ms", "    device: \(device)", "    open: compact"]
            }
            lines.insert(contentsOf: opens, at: replies)
        }
        let (summaries, pitfalls) = (pick(3), pick(3))
        let expect = ["expect:"] + Scenario.Check.Kind.allCases.map { kind in
            // One check of every kind, so that a new kind is compared too: the switch has no `default:`.
            switch kind {
            case .latest: "  - latest: { device: \(someone), session: poll, from: p\(voter) }"
            case .summaries: "  - summaries: { device: p0-phone, session: poll, count: \(summaries) }"
            case .plain: "  - plain: { device: \(someone), count: 0 }"
            case .converged: "  - converged: poll"
            case .diverged: "  - diverged: poll"
            case .complete: "  - complete: { session: poll, data: { p\(voter): yes } }"
            case .pitfalls: "  - pitfalls: [\(["lost-update", "divergence", "unattributed"][pitfalls])]"
            case .noPitfalls: "  - no-pitfalls: \(["true", "[divergence]", "[lost-update, double-count]"][pitfalls])"
            case .callbacks: "  - callbacks: { device: \(devices.joined().last ?? someone), sequence: [] }"
            case .error: "  - error: { step: 2, code: noBubble }"
            }
        }
        // A tap reads the cloud (M13, M21): in the cloud modes its fetch is part of the
        // dependent part, and what the device then shows is the record it fetched.
        if taps, pick(2) == 0 {
            let tapper = devices[pick(people)][0]
            lines += ["  - at: \(start + pick(120))ms", "    device: \(tapper)", "    tap: poll"]
        }
        return (lines + expect).joined(separator: "\n") + "\n"
    }
}
