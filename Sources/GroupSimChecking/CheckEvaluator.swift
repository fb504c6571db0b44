import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// Evaluates a scenario's checks on a finished, quiet run (docs/scenario-format.md, "Checks").
package enum CheckEvaluator {
    package static func evaluate(_ outcome: RunOutcome, pitfalls: [Pitfall]) -> [CheckResult] {
        evaluate(outcome, pitfalls: pitfalls, states: SessionStates(outcome: outcome))
    }

    /// `evaluate(_:pitfalls:)` with the run's session states already worked out.
    ///
    /// - Parameter explained: false leaves out the check's title and, where it costs, the
    ///   word of what it found (`latest` without a caption, `converged`, `diverged`,
    ///   `complete`): exploration reads only whether it held.
    ///
    /// - Parameter shown: `states.shownOnAppDevices` of each of `states.sessions`, as the
    ///   pitfalls worked them out (empty: worked out where a check asks).
    static func evaluate(_ outcome: RunOutcome, pitfalls: [Pitfall], states: SessionStates, shown: [SessionStates.AppDevicesShow] = [],
                         explained: Bool = true) -> [CheckResult] {
        outcome.scenario.checks.map { evaluate($0, outcome, states, pitfalls, shown: shown, explained: explained) }
    }

    static func evaluate(_ spec: Scenario.CheckSpec, _ outcome: RunOutcome, _ states: SessionStates, _ pitfalls: [Pitfall],
                         shown: [SessionStates.AppDevicesShow] = [], explained: Bool = true) -> CheckResult {
        let (passed, detail) = judge(spec.check, outcome, states, pitfalls, shown: shown, explained: explained)
        return CheckResult(spec: spec, passed: passed, text: explained ? title(spec.check) : "", detail: detail)
    }

    /// The check as one line, as written: its descriptor's keyword, then its arguments
    /// (`latest alice-phone poll from=bob`). It depends on nothing a run decides.
    static func title(_ check: Scenario.Check) -> String {
        let keyword = check.kind.descriptor.keyword
        switch check {
        case .latest(let deviceName, let session, let from, let written, let caption, let layout):
            var text = "\(keyword) \(deviceName) \(session)"
            if let from { text += " from=\(from)" }
            if !written.isEmpty { text += " data=\(StateMap(written))" }
            if let caption { text += " caption=\"\(caption)\"" }
            for (field, value) in layout.expected { text += " \(field.rawValue)=\"\(value)\"" }
            if let bar = layout.captionBar { text += " caption-bar=\(bar)" }
            return text
        case .plain(let deviceName, let count, let texts):
            var text = "\(keyword) \(deviceName)"
            if let count { text += " count=\(count)" }
            if let texts { text += " texts=\(texts)" }
            return text
        case .summaries(let deviceName, let session, let count, let texts):
            var text = "\(keyword) \(deviceName) \(session)"
            if let count { text += " count=\(count)" }
            if let texts { text += " texts=\(texts)" }
            return text
        case .converged(let session), .diverged(let session):
            return "\(keyword) \(session)"
        case .complete(let session, let written):
            return "\(keyword) \(session) \(StateMap(written))"
        case .pitfalls(let kinds):
            return "\(keyword) \(kinds.map(\.rawValue).joined(separator: ", "))"
        case .noPitfalls:
            return keyword
        case .noPitfallsOf(let kinds):
            return "\(keyword) \(kinds.map(\.rawValue).joined(separator: ", "))"
        case .callbacks(let deviceName, _):
            return "\(keyword) \(deviceName)"
        case .error(let step, let code):
            return "\(keyword) step=\(step) code=\(code.name)"
        }
    }

    /// Whether the check held, and what was found.
    private static func judge(_ check: Scenario.Check, _ outcome: RunOutcome, _ states: SessionStates, _ pitfalls: [Pitfall],
                              shown computed: [SessionStates.AppDevicesShow] = [], explained: Bool) -> (Bool, String) {
        /// What the session's app devices show, as worked out already when it was.
        func shownOnAppDevices(_ session: String) -> SessionStates.AppDevicesShow {
            states.sessionIndex(session).flatMap { computed.indices.contains($0) ? computed[$0] : nil } ?? states.shownOnAppDevices(session)
        }
        switch check {
        case .latest(let deviceName, let session, let from, let written, let caption, let layout):
            // A check without data names no token: nothing to resolve (most `latest` checks).
            let tokens = written.isEmpty ? nil : TokenKeys(written, outcome, conversation: states.conversation(of: session))
            // The live bubble's sender and state need no drawing; its caption alone does,
            // and only when the rest held.
            let noLayout = layout.fields.isEmpty && layout.captionBar == nil
            if !explained, noLayout, let device = outcome.device(deviceName), let shown = states.shown(session, on: device) {
                let passed = (from == nil || from == shown.sender) && contains(shown, tokens?.data(on: device) ?? written)
                guard passed, let caption else { return (passed, "") }
                return (device.caption(ofSession: session, is: caption), "")
            }
            guard let device = outcome.device(deviceName), let view = device.session(session),
                  let shown = states.shown(session, on: device) else {
                return (false, "\(deviceName) shows no bubble of \(session)")
            }
            let data = tokens?.data(on: device) ?? written
            let drawn = view.caption.map { "\"\($0)\"" } ?? "no caption"
            var detail = "\(deviceName) shows m\(view.message) from \(view.senderPerson) with \(shown.state), caption \(drawn)"
            if let why = shown.unreadable, !data.isEmpty {
                detail = "\(deviceName) shows m\(view.message) from \(view.senderPerson), caption \(drawn), but its state could not be read: \(why)"
            }
            var passed = (from == nil || from == view.senderPerson) && contains(shown, data)
                && (caption == nil || caption == view.caption)
            if !noLayout {
                let (held, drawnFields) = Self.layoutHolds(layout, on: device, message: view.message)
                passed = passed && held
                detail += drawnFields
            }
            return (passed, detail)
        case .plain(let deviceName, let count, let texts):
            let received = outcome.device(deviceName).map(Self.plainTexts) ?? []
            let passed = (count == nil || count == received.count) && (texts == nil || texts == received)
            guard explained else { return (passed, "") }
            return (passed, "\(deviceName) received \(Plural.count(received.count, "plain message")): \(received)")
        case .summaries(let deviceName, let session, let count, let texts):
            // A summary line exists only because a newer bubble of its session replaced it,
            // so a session with summary lines always has a live bubble (M10).
            // The session's summary lines alone: not its caption, nor other sessions' lines.
            guard explained else {
                // Compared without drawing: the lines' count first, their texts only if asked.
                let device = outcome.device(deviceName)
                return (device?.summaries(ofSession: session, count: count, texts: texts) ?? ((count ?? 0) == 0 && (texts ?? []).isEmpty), "")
            }
            let drawn = outcome.device(deviceName)?.summaries(ofSession: session) ?? []
            let passed = (count == nil || count == drawn.count) && (texts == nil || texts == drawn)
            return (passed, "\(deviceName) draws \(Plural.count(drawn.count, "summary line")) for \(session): \(drawn)")
        case .converged(let session), .diverged(let session):
            let wantsSame: Bool = if case .converged = check { true } else { false }
            if !explained {
                // One reading per message shown, not one per device.
                let readings = shownOnAppDevices(session).byMessage.distinct.map(SessionStates.Reading.init)
                return (agreement(readings, wantsSame: wantsSame), "")
            }
            let devices = states.appDevices(for: session)
            var readings: [SessionStates.Reading] = []
            var lines: [String] = []
            for device in devices {
                let shown = states.shown(session, on: device)
                readings.append(SessionStates.Reading(shown))
                lines.append("\(device.name): \(describe(shown, joinedLate: states.joinedAfterStart(session, on: device)))")
            }
            guard readings.contains(where: \.isState) else { return (false, unread(session, devices, states)) }
            return (agreement(readings, wantsSame: wantsSame), lines.joined(separator: "; "))
        case .complete(let session, let written):
            let tokens = TokenKeys(written, outcome, conversation: states.conversation(of: session))
            if !explained, !tokens.isPerDevice {
                // One look per message shown, not one per device.
                let data = tokens.data(on: nil)
                let shown = shownOnAppDevices(session).byMessage.distinct
                return (!shown.isEmpty && shown.allSatisfy { $0.map { contains($0, data) } ?? false }, "")
            }
            let devices = states.appDevices(for: session)
            let missing = devices.filter { fails(check, on: $0, outcome, states) == true }
            guard explained else { return (!devices.isEmpty && missing.isEmpty, "") }
            if devices.isEmpty || missing.count == devices.count,
               !devices.contains(where: { SessionStates.Reading(states.shown(session, on: $0)).isState }) {
                return (false, unread(session, devices, states))
            }
            let detail = missing.isEmpty
                ? "every app device's state has \(StateMap(tokens.data(on: nil)))"
                : "missing on " + missing.map { device in
                    "\(device.name) (\(describe(states.shown(session, on: device), joinedLate: states.joinedAfterStart(session, on: device))))"
                }.joined(separator: ", ")
                    + tokens.explanation(on: devices)
            return (missing.isEmpty, detail)
        case .pitfalls(let kinds):
            // A run reports few pitfalls: looked for in them, with no set made per run.
            guard explained else { return (kinds.allSatisfy { kind in pitfalls.contains { $0.kind == kind } }, "") }
            let reported = Set(pitfalls.map(\.kind))
            let absent = kinds.filter { !reported.contains($0) }
            let seen = reported.sorted().map(\.rawValue)
            guard !absent.isEmpty else { return (true, "reported: \(seen.joined(separator: ", "))") }
            let missing = absent.map(\.rawValue).joined(separator: ", ")
            return (false, "not reported: \(missing); reported: \(seen.isEmpty ? "none" : seen.joined(separator: ", "))")
        case .noPitfalls:
            guard explained else { return (pitfalls.isEmpty, "") }
            let seen = Set(pitfalls.map(\.kind)).sorted().map(\.rawValue)
            return (pitfalls.isEmpty, seen.isEmpty ? "none reported" : "reported: \(seen.joined(separator: ", "))")
        case .noPitfallsOf(let kinds):
            guard explained else { return (!pitfalls.contains { kinds.contains($0.kind) }, "") }
            let unwanted = Set(kinds)
            let found = Set(pitfalls.map(\.kind).filter(unwanted.contains))
            guard !found.isEmpty else { return (true, "none of \(kinds.map(\.rawValue).joined(separator: ", ")) reported") }
            let sentences = pitfalls.filter { found.contains($0.kind) }.map(\.summary)
            return (false, "reported: \(found.sorted().map(\.rawValue).joined(separator: ", ")) (\(sentences.joined(separator: "; ")))")
        case .callbacks(let deviceName, let sequence):
            let got = outcome.device(deviceName)?.callbacks ?? []
            guard explained else { return (got == sequence, "") }
            return (got == sequence, "received \(got.map(\.rawValue).joined(separator: ", "))")
        case .error(let step, let code):
            // A failure after the step ended, set off by it (a cloud round trip), is the step's too.
            let failed = outcome.failures.filter { $0.attributedStep == step }
            let passed = failed.contains { $0.code == code }
            guard explained else { return (passed, "") }
            let detail = failed.isEmpty
                ? "step \(step) did not fail"
                : "step \(step) failed with " + failed.map { failure in
                    let later = failure.step == nil ? failure.origin.map { " (\($0.text(failedAt: failure.time)))" } ?? "" : ""
                    return "\(failure.code.name)\(later): \(failure.reason)"
                }.joined(separator: "; ")
            return (passed, detail)
        }
    }

    /// Whether a check judged per device (`CheckDescriptor.judged`) fails on `device`; nil
    /// when it does not judge that device (another device's check, a device that does not
    /// run the app). Such a check holds when some device judges it and it fails on none:
    /// `run` and factored exploration (`FactorCombiner`) both judge it here.
    static func fails(_ check: Scenario.Check, on device: DeviceSnapshot, _ outcome: RunOutcome, _ states: SessionStates) -> Bool? {
        switch check {
        case .latest(let name, _, _, _, _, _), .summaries(let name, _, _, _), .plain(let name, _, _), .callbacks(let name, _):
            guard name == device.name else { return nil }
            return !judge(check, outcome, states, [], explained: false).0
        case .complete(let session, let written):
            guard states.appDevices(for: session).contains(where: { $0.name == device.name }) else { return nil }
            let data = TokenKeys(written, outcome, conversation: states.conversation(of: session)).data(on: device)
            return !(states.shown(session, on: device).map { contains($0, data) } ?? false)
        case .converged, .diverged, .pitfalls, .noPitfalls, .noPitfallsOf, .error:
            return nil
        }
    }

    /// The verdict of a check not judged per device, from what factored exploration folds
    /// of an order: per session whether some app device's state of it was read and whether
    /// they all show one (`agreement`, as `agreement(_:wantsSame:)` reads it), the pitfall
    /// kinds found, and for a check judged on the run its verdict on the run, which is the
    /// same in every order counted. nil for a check judged per device.
    static func verdict(_ check: Scenario.Check, agreement: (String) -> (read: Bool, same: Bool), kinds: Set<Scenario.PitfallKind>,
                        onRun: Bool) -> Bool? {
        switch check {
        case .latest, .summaries, .plain, .callbacks, .complete: nil
        case .converged(let session): agreement(session) == (true, true)
        case .diverged(let session): agreement(session) == (true, false)
        case .pitfalls(let wanted): wanted.allSatisfy(kinds.contains)
        case .noPitfalls: kinds.isEmpty
        case .noPitfallsOf(let unwanted): !unwanted.contains(where: kinds.contains)
        case .error: onRun
        }
    }

    /// Whether the live bubble `message` on `device` draws every layout field `layout`
    /// expects (M5, M9), and the fields it draws, for the detail (`, image-title "Lunch"`).
    static func layoutHolds(_ layout: Scenario.LayoutExpectation, on device: DeviceSnapshot, message: Int) -> (Bool, String) {
        let bubble = device.transcripts.lazy.flatMap(\.entries).first { $0.kind == .bubble && $0.message == message }
        let drawn = bubble?.layout ?? TemplateLayout()
        func text(_ field: Scenario.Compose.LayoutField) -> String? {
            switch field {
            case .caption: drawn.caption
            case .subcaption: drawn.subcaption
            case .trailingCaption: drawn.trailingCaption
            case .trailingSubcaption: drawn.trailingSubcaption
            case .imageTitle: drawn.imageTitle
            case .imageSubtitle: drawn.imageSubtitle
            case .image: drawn.image
            }
        }
        var held = layout.expected.allSatisfy { text($0.field) == $0.text }
        if let bar = layout.captionBar { held = held && drawn.hasCaptionBar == bar }
        var detail = Scenario.Compose.LayoutField.allCases.dropFirst().compactMap { field in text(field).map { ", \(field.rawValue) \"\($0)\"" } }
            .joined()
        if layout.captionBar != nil { detail += drawn.hasCaptionBar ? ", a caption bar" : ", no caption bar" }
        return (held, detail)
    }

    /// The plain messages a device received instead of bubbles (M26), in transcript order.
    static func plainTexts(_ device: DeviceSnapshot) -> [String] {
        device.transcripts.flatMap(\.entries).filter { $0.kind == .plain }.map { $0.text ?? "" }
    }

    /// Whether a device's state holds every entry of `data`: only a state that could be read does.
    static func contains(_ shown: SessionStates.Shown, _ data: [Scenario.DataEntry]) -> Bool {
        shown.unreadable == nil && shown.state.contains(data)
    }

    /// A state-reading check's verdict from what the app devices give it: `converged` holds
    /// when they all show one state, `diverged` when they do not; neither holds when no
    /// device's state could be read (no bubble, or a state that could not be read), which
    /// would be a verdict on nothing.
    static func agreement(_ readings: [SessionStates.Reading], wantsSame: Bool) -> Bool {
        guard readings.contains(where: \.isState) else { return false }
        let same = readings.allSatisfy { $0 == readings.first }
        return same == wantsSame
    }

    /// A device's state for a check's finding: the state, "no bubble" (saying so when its
    /// person joined after the session began, M6), or why it could not be read.
    private static func describe(_ shown: SessionStates.Shown?, joinedLate: Bool) -> String {
        guard let shown else { return joinedLate ? "no bubble: joined after the session began (M6)" : "no bubble" }
        return shown.unreadable.map { "state not read: \($0)" } ?? shown.state.description
    }

    /// The finding of a state-reading check that read nothing: which devices gave no
    /// state, grouped by why.
    private static func unread(_ session: String, _ devices: [DeviceSnapshot], _ states: SessionStates) -> String {
        guard !devices.isEmpty else {
            return "no device's state could be read: no device in \(states.conversation(of: session)) runs the app"
        }
        var reasons: [(why: String, devices: [String])] = []
        for device in devices {
            let shown = states.shown(session, on: device)
            let why = shown.map { $0.unreadable ?? "" }
                ?? (states.joinedAfterStart(session, on: device) ? "no bubble of \(session): joined after the session began (M6)"
                    : "no bubble of \(session)")
            if let index = reasons.firstIndex(where: { $0.why == why }) {
                reasons[index].devices.append(device.name)
            } else {
                reasons.append((why, [device.name]))
            }
        }
        return "no device's state could be read: "
            + reasons.map { "\($0.devices.joined(separator: ", ")): \($0.why)" }.joined(separator: "; ")
    }

    /// `$name` in a check's data, read as each device's app writes that person's key
    /// (`app.identity`): under `account` the person's account id, the same on every device;
    /// under `participant-id` the device's own identifier of the person (M1); under
    /// `install-id` the device's own install id for its owner, else the install id it
    /// learned for the person (the identifier while none is known). A token a device
    /// cannot resolve, and `$me` (a check has no sender), stay as written.
    struct TokenKeys {
        let written: [Scenario.DataEntry]
        let conversation: String
        /// The persons named by tokens, in the order written.
        let persons: [String]
        /// Per entry of `written`, the person its key and its value name (nil: no token).
        private let named: [(key: String?, value: String?)]
        private let identity: Scenario.AppSpec.Identity
        private let streams: RandomStreams

        /// Keeps what it reads of `outcome`, not the outcome: a check made one for every
        /// run an exploration judges, and holding a copy retained every part of it.
        init(_ written: [Scenario.DataEntry], _ outcome: borrowing RunOutcome, conversation: String) {
            self.written = written
            self.conversation = conversation
            identity = outcome.scenario.app.identity
            streams = RandomStreams(seed: outcome.seed)
            // Checked on every run an exploration judges: no array per entry unless a token names someone.
            var persons: [String] = []
            var named: [(key: String?, value: String?)] = []
            for (index, entry) in written.enumerated() {
                let key = Self.person(entry.key, outcome.scenario), value = Self.person(entry.value, outcome.scenario)
                if let key, !persons.contains(key) { persons.append(key) }
                if let value, !persons.contains(value) { persons.append(value) }
                if key != nil || value != nil {
                    if named.isEmpty { named = Array(repeating: (nil, nil), count: written.count) }
                    named[index] = (key, value)
                }
            }
            self.persons = persons
            self.named = named
        }

        /// Whether the data reads differently from device to device.
        var isPerDevice: Bool { !persons.isEmpty && identity != .account }

        /// The data as `device` reads it (nil: as every device does, where that is one reading).
        func data(on device: DeviceSnapshot?) -> [Scenario.DataEntry] {
            guard !persons.isEmpty else { return written }
            func resolved(_ text: String, _ person: String?) -> String {
                guard let person else { return text }
                return key(of: person, on: device) ?? text
            }
            return zip(written, named).map { Scenario.DataEntry(resolved($0.key, $1.key), resolved($0.value, $1.value)) }
        }

        /// The key `device`'s app writes for `person`; nil when it has none.
        func key(of person: String, on device: DeviceSnapshot?) -> String? {
            switch identity {
            case .account:
                return AppIdentity.accountID(streams, person: person)
            case .participantID:
                return device?.identifierMaps.first?.id(for: person, in: conversation)?.uuidString
            case .installID:
                guard let device else { return nil }
                if person == device.person { return device.localStorage[AppIdentity.installKey] }
                guard let id = device.identifierMaps.first?.id(for: person, in: conversation) else { return nil }
                return device.localStorage[AppIdentity.installOfPrefix + id.uuidString] ?? id.uuidString
            }
        }

        /// For a failure: what each token became on each device (`; $bob is acct-… on every
        /// device`), or "" when the data has no token.
        func explanation(on devices: [DeviceSnapshot]) -> String {
            persons.map { person in
                let keys = devices.map { key(of: person, on: $0) ?? "unknown (no key for \(person) there)" }
                guard let first = keys.first, keys.contains(where: { $0 != first }) || devices.count == 1 else {
                    return "; $\(person) is \(keys.first ?? "unknown") on every device"
                }
                return "; $\(person) is " + zip(devices, keys).map { "\($1) on \($0.name)" }.joined(separator: ", ")
            }.joined()
        }

        /// The person a whole-text token names (`$bob`), if it names one of the file.
        private static func person(_ text: String, _ scenario: Scenario) -> String? {
            guard text.hasPrefix("$") else { return nil }
            return scenario.person(String(text.dropFirst()))?.key
        }
    }
}
