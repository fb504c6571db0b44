import GroupSimCore

/// The limits a scenario file is read within: caps on what no real scenario needs, so
/// that no file can make the reader or the simulation run out of memory, time or range.
///
/// Each cap is reported at the place it is exceeded, as `FILE:LINE:COLUMN: error:` naming
/// the limit. The fixed ranges (durations, times, counts) keep every sum of virtual time
/// a run can make far below `Int64.max` nanoseconds; the sizes can be changed from Swift
/// (tests use small ones), and `errorLimit` is what `--all-errors` lifts.
package struct ScenarioLimits: Sendable, Hashable {
    /// The largest scenario file read, in bytes: 64 MiB (67,108,864). At most one byte
    /// more is ever read, whatever the file reports (a pipe, `/proc`).
    package var maximumFileBytes: Int
    /// The longest name (person, device, session, conversation, scenario, contact), in
    /// characters: 200.
    package var maximumNameLength: Int
    /// The longest text or data value (captions, summaries, data keys and values, `about`,
    /// paths), in UTF-8 bytes: 1 MiB (1,048,576).
    package var maximumTextBytes: Int
    /// How many errors a failed parse reports in full (with their suggestions); the rest
    /// are counted in `ScenarioErrors.omittedCount`. nil reports every one.
    package var errorLimit: Int?

    package init(
        maximumFileBytes: Int = 64 * 1_048_576,
        maximumNameLength: Int = 200,
        maximumTextBytes: Int = 1_048_576,
        errorLimit: Int? = nil
    ) {
        self.maximumFileBytes = maximumFileBytes
        self.maximumNameLength = maximumNameLength
        self.maximumTextBytes = maximumTextBytes
        self.errorLimit = errorLimit
    }

    /// The defaults: 64 MiB files, 200-character names, 1 MiB texts, every error reported.
    package static let `default` = ScenarioLimits()

    /// How many errors the command line prints before "and N more errors": 20.
    package static let defaultErrorLimit = 20

    /// The longest duration a file may write (`latency`, `jitter`, `cloud-latency`,
    /// `within`, `after`, `recent-interaction`…): 365 days, written `525600m`.
    package static let maximumDuration = VirtualDuration(nanoseconds: 365 * 86_400 * 1_000_000_000)

    /// The latest time a step may start at (`at:`, or the sum of `after:`s): 365 days.
    /// Every delay of a run is at most a few `maximumDuration`s, so no instant of a run
    /// comes near `Int64.max` nanoseconds (about 292 years).
    package static let maximumTime = VirtualTime(nanoseconds: maximumDuration.nanoseconds)

    /// The largest count a file may write (sticker bytes and pixels, summary lines, check
    /// counts and step numbers): 1,000,000,000.
    package static let maximumCount = 1_000_000_000
}
