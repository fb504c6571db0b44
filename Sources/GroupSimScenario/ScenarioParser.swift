import Foundation
import GroupSimCore

/// Validates a scenario file (docs/scenario-format.md) into a typed `Scenario`.
///
/// `ScenarioReader` turns text into a `Node` tree; the parser checks every key, type
/// and name against the format and builds the `Scenario`. It collects as many
/// problems as it can in one pass (every section is checked even after an error in
/// another) and throws them all, in file order, so a user can fix a file at once.
/// An error that follows from another one (a step naming a device of a person whose
/// device list could not be read) is left out rather than reported twice.
///
/// Where docs/scenario-format.md is silent, the parser decides as follows:
/// - An optional key written with nothing after it (`network:` alone) counts as
///   leaving the key out. A required key written that way is an error.
/// - Text fields (names, captions, data values) accept any scalar and keep its text
///   as written: `caption: 42` is the caption "42", `data: {n: 1.50}` stores "1.50".
///   Numbers and flags must be plain: a quoted `"7"` is text, not a seed.
/// - Person keys and device names share one namespace, since a network link's `from`
///   and `to` accept either: a name may be used once in `people`.
/// - `within` of a race must be longer than 0ms (its offsets are drawn from
///   [0, within)); a race needs at least one step; `at:` and `after:` give the step's
///   time, and `after:` on the first step counts from 0ms. Steps may be listed out of
///   time order; the simulation orders them by time, then file order.
/// - `reply` takes session, data, caption, summary and direct only: the other layout
///   fields and the URL come from the session.
/// - A session belongs to the conversation of its first `send` or `insert` in time
///   order (file order breaks ties). A `reply` or `tap` written earlier than that send
///   is valid: it fails when run, with `noBubble`, which an `error:` check can expect.
/// - Membership is checked in time order: a step's device must belong to a member of
///   its conversation, or to someone an earlier `join` step added. A person who
///   `leave`s may still appear in later steps (what their device sees is the
///   simulation's business), but joining a current member or removing a non-member is
///   an error. `reinstall`, `offline` and `online` act on the whole device and take no
///   `conversation:`.
/// - `$NAME` tokens are checked in `caption`, `subcaption`, `summary` and `data`
///   (keys and values) of `send`, `reply` and `insert`: `$` followed by a letter
///   starts a token that runs over letters, digits, `_` and `-`; `$5` is left alone.
///   The text is kept as written; the simulation resolves tokens (M4, M5).
/// - `complete` requires `data`; `pitfalls` requires at least one kind (use
///   `no-pitfalls: true` to expect none); `summaries` with both `count` and `texts`
///   requires them to agree; `callbacks` names are those of docs/behaviour.md.
/// - A sticker's format, size and description length are not checked here: the
///   simulation reports them as step errors (M28, M29), which `error:` checks expect.
public enum ScenarioParser {
    /// Validates a node tree into a Scenario.
    ///
    /// - Parameters:
    ///   - root: the tree `ScenarioReader` produced.
    ///   - file: the file name that diagnostics and `Scenario.file` carry.
    ///   - registeredApps: the names an `app: {name: ...}` may use (apps registered from Swift).
    ///   - limits: the caps on names, texts and the number of errors reported in full.
    /// - Throws: every problem found, in file order (by line, then column); past
    ///   `limits.errorLimit`, only counted.
    package static func parse(
        _ root: Node, file: String, registeredApps: [String] = [], limits: ScenarioLimits = .default
    ) throws(ScenarioErrors) -> Scenario {
        try parse(root, file: file, registeredApps: registeredApps, limits: limits, paths: nil)
    }

    /// `parse(_:file:registeredApps:limits:)`, citing places by `paths` (a scenario built in Swift).
    static func parse(
        _ root: Node, file: String, registeredApps: [String], limits: ScenarioLimits = .default, paths: [Position: String]?
    ) throws(ScenarioErrors) -> Scenario {
        var context = Context(file: file, registeredApps: registeredApps, limits: limits, paths: paths)
        let scenario = context.scenario(from: root)
        let (errors, omitted) = context.errorsInFileOrder(limit: limits.errorLimit)
        if let scenario, errors.isEmpty { return scenario }
        if errors.isEmpty { throw ScenarioErrors([ScenarioError("invalid scenario", at: root.location)]) }
        throw ScenarioErrors(errors, omittedCount: omitted)
    }

    /// Reads and parses a scenario file on disk.
    ///
    /// Diagnostics name the file by `path` as given. An unreadable file is one error with
    /// no location: `cannot read PATH: REASON`. At most `limits.maximumFileBytes` (64 MiB)
    /// plus one byte are read; a longer file is refused without reading the rest.
    public static func load(path: String, registeredApps: [String] = []) throws(ScenarioErrors) -> Scenario {
        try load(path: path, registeredApps: registeredApps, limits: .default)
    }

    /// `load(path:registeredApps:)` with other caps on size, names and reported errors.
    package static func load(
        path: String, registeredApps: [String] = [], limits: ScenarioLimits
    ) throws(ScenarioErrors) -> Scenario {
        switch contents(ofFile: path, limit: limits.maximumFileBytes) {
        case .success(let bytes):
            return try parse(bytes: bytes, file: path, registeredApps: registeredApps, limits: limits)
        case .failure(let error):
            throw ScenarioErrors([error])
        }
    }

    /// Reads and parses scenario text; `file` names it in diagnostics.
    public static func parse(text: String, file: String, registeredApps: [String] = []) throws(ScenarioErrors) -> Scenario {
        try parse(text: text, file: file, registeredApps: registeredApps, limits: .default)
    }

    /// `parse(text:file:registeredApps:)` with other caps on size, names and reported errors.
    package static func parse(
        text: String, file: String, registeredApps: [String] = [], limits: ScenarioLimits
    ) throws(ScenarioErrors) -> Scenario {
        let root: Node
        do {
            root = try ScenarioReader.read(text, file: file)
        } catch {
            throw ScenarioErrors([error])
        }
        return try parse(root, file: file, registeredApps: registeredApps, limits: limits)
    }

    /// Reads and parses a scenario file's bytes (UTF-8 is checked by the reader); `file`
    /// names it in diagnostics.
    public static func parse(bytes: [UInt8], file: String, registeredApps: [String] = []) throws(ScenarioErrors) -> Scenario {
        try parse(bytes: bytes, file: file, registeredApps: registeredApps, limits: .default)
    }

    /// `parse(bytes:file:registeredApps:)` with other caps on size, names and reported errors.
    package static func parse(
        bytes: [UInt8], file: String, registeredApps: [String] = [], limits: ScenarioLimits
    ) throws(ScenarioErrors) -> Scenario {
        guard bytes.count <= limits.maximumFileBytes else {
            throw ScenarioErrors([tooLarge(file, limit: limits.maximumFileBytes)])
        }
        let root: Node
        do {
            root = try ScenarioReader.read(bytes: bytes, file: file)
        } catch {
            throw ScenarioErrors([error])
        }
        return try parse(root, file: file, registeredApps: registeredApps, limits: limits)
    }

    /// The bytes of the file at `path`, at most `limit`, or the `cannot read PATH: REASON`
    /// error. A pipe (`<(…)`) is read too; a device or `/proc` file stops at the limit.
    private static func contents(ofFile path: String, limit: Int) -> Result<[UInt8], ScenarioError> {
        let reason: String
        switch BoundedFile.read(path, limit: limit, allowSpecial: true) {
        case .success(let bytes): return .success(bytes)
        case .failure(.notFound): reason = "no such file"
        case .failure(.notAFile): reason = "it is a directory"
        case .failure(.unreadable):
            reason = FileManager.default.isReadableFile(atPath: path) ? "the file could not be read" : "permission denied"
        case .failure(.tooLarge): return .failure(tooLarge(path, limit: limit))
        }
        return .failure(ScenarioError("cannot read \(path): \(reason)", at: nil, code: .unreadable))
    }

    /// The error for a scenario file over the size limit, at its first line.
    private static func tooLarge(_ file: String, limit: Int) -> ScenarioError {
        ScenarioError(
            "the file is larger than the limit of \(Context.bytes(limit)) (\(limit) bytes) for a scenario",
            at: Scenario.SourceLocation(file: file, line: 1, column: 1), code: .tooLarge
        )
    }
}

extension ScenarioParser.Context {
    static let topLevelKeys = ScenarioVocabulary.scenario.keys

    /// Checks every section of the file; returns the scenario when nothing was wrong.
    mutating func scenario(from root: Node) -> Scenario? {
        guard let fields = fields(
            root, expected: "a mapping of scenario keys such as name, people and steps", place: nil, allowed: Self.topLevelKeys
        ) else { return nil }

        let name = required("name", in: fields, place: nil).flatMap { self.name($0, expected: "a scenario name") }
        var about: String?
        if let node = fields.optional("about") { about = text(node, expected: "text") }
        var seed: UInt64 = 1
        if let node = fields.optional("seed"), let value = readSeed(node) { seed = value }

        if let node = required("people", in: fields, place: nil) {
            readPeople(node)
        } else {
            knowsAllPeople = false
            knowsAllDevices = false
        }
        if let node = fields.optional("devices") { readDeviceSettings(node) }
        readConversations(single: fields.optionalEntry("conversation"), several: fields.optionalEntry("conversations"))

        var network = Scenario.NetworkSpec()
        if let node = fields.optional("network") { network = readNetwork(node) }
        var app = Scenario.AppSpec()
        if let node = fields.optional("app") { app = readApp(node) }
        var options = Scenario.Options()
        if let node = fields.optional("options") { options = readOptions(node) }

        var timeline: [Scenario.TimelineItem] = []
        if let node = required("steps", in: fields, place: nil) {
            timeline = readSteps(node)
        } else {
            knowsStepCount = false
            knowsAllSessions = false
        }
        checkTimeline()

        var checks: [Scenario.CheckSpec] = []
        if let node = fields.optional("expect") { checks = readChecks(node) }

        guard errors.isEmpty, let name else { return nil }
        return Scenario(
            name: name, about: about, seed: seed, people: people, devices: devices, conversations: conversations,
            network: network, app: app, options: options, timeline: timeline, checks: checks, file: file
        )
    }
}
