import GroupSimScenario
import GroupSimSimulation

/// The words of every pitfall: what happened where (device, message, time), what was
/// lost or misread, the docs/behaviour.md rule, and the fix. Written for someone who has never
/// heard of MSSession.
extension PitfallDetector {
    // MARK: - Lost update (M12, M13)

    /// `keeping`: the devices that still show the change. While one does, the change is
    /// lost to the group's agreed state, not gone from every screen, and the words say so.
    static func lostUpdateText(_ change: Change, carrier: RunLedger.Carrier?, lost: [(device: String, shown: SessionStates.Shown?)],
                               keeping: [String] = [], _ evidence: Evidence) -> (explanation: String, fix: String) {
        let who = evidence.contact(change.person)
        let what = change.entries.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        // A registered app's `app.state` only tells the checks where its state is: its
        // fixes name what to change in its code.
        let registered = evidence.states.outcome.scenario.app.name != nil
        let conditionalSave = "save with a conditional write (only over the version you read: CloudKit's `.ifServerRecordUnchanged` save "
            + "policy, `SimulatedCloud.save(_:recordNamed:ifVersion:)` in the tests) and, on a conflict, merge your change into the "
            + "server's record and save again (M13)."
        switch evidence.states.outcome.scenario.app.state {
        case .message:
            let reasons = survivorReasons(change, carrier: carrier, lost: lost, evidence)
            let carried = carrier.map { "\(who)'s change travelled in m\($0.message), sent by \(change.device) at \($0.time)" }
                ?? "\(who)'s change was made on \(change.device)"
            let explanation = "The app keeps its whole state in the message URL, so each reply carries only what its sender's tapped "
                + "bubble held plus its own change. \(carried). \(reasons) Each device keeps as live bubble only the message that reached "
                + "it last (M11, M12), so there \(what) is gone, and nothing will bring it back: "
                + (keeping.isEmpty ? "the group lost \(who)'s update."
                    : "\(who)'s update is lost to the group's agreed state, though \(listed(keeping)) still "
                        + "show\(keeping.count == 1 ? "s" : "") it.")
            let fix = registered
                ? "Keep the state on your server and let the URL carry only the record's name; fetch the record when a bubble is tapped, "
                    + "and " + conditionalSave
                : "Keep the state on a server and let the URL carry only a session token; fetch the state when a bubble is tapped and "
                    + "merge each change atomically at the store (M13; `app.state: cloud-merge`)."
            return (explanation, fix)
        case .cloudOverwrite:
            let overwrite = overwriteStory(change, evidence) ?? "Another reply fetched the record before \(who)'s write and wrote its "
                + "whole map back after it."
            let explanation = "The app keeps the state on a server, but each reply fetches the whole map, changes it on the device and "
                + "writes the whole map back. \(overwrite) The store kept the last write whole, so \(what) is gone for every device that "
                + "fetches it: \(shownList(lost, evidence)). A server that overwrites blindly still loses concurrent updates (M13)."
            let fix = registered
                ? "Do not write the whole record back blindly: " + conditionalSave
                : "Make the write atomic at the store: send only the changed keys and merge them there (`app.state: cloud-merge`), or "
                    + "compare-and-set: save only over the version you read (CloudKit's `.ifServerRecordUnchanged` save policy) and, on a "
                    + "`serverRecordChanged` error, re-apply the change to the server's record and save again (`app.state: cloud-cas`) "
                    + "(M13)."
            return (explanation, fix)
        case .cloudMerge, .cloudCAS:
            let atomic = evidence.states.outcome.scenario.app.state == .cloudMerge ? "an atomic merge" : "compare-and-set with retry"
            let explanation = "\(who)'s change \(what) never reached the state these devices would fetch from the store: "
                + "\(shownList(lost, evidence)). With \(atomic) this happens only when a device shows no bubble of the session or its "
                + "write never reached the store (M13, M30)."
            let fix = "Check that every device got a bubble of the session (an offline device catches up when it comes back, M30) and "
                + "that every write reached the store before the run ended."
            return (explanation, fix)
        }
    }

    /// Why the message each device kept lacks the change: it was sent before the change
    /// reached its sender, or built on a bubble that already lacked it, or on a stale
    /// selection (M11, M12, M15). Devices keeping the same message share one sentence.
    static func survivorReasons(_ change: Change, carrier: RunLedger.Carrier?, lost: [(device: String, shown: SessionStates.Shown?)],
                                _ evidence: Evidence) -> String {
        var groups: [(message: Int?, devices: [String])] = []
        for entry in lost {
            let message = entry.shown?.message
            if let index = groups.firstIndex(where: { $0.message == message }) {
                groups[index].devices.append(entry.device)
            } else {
                groups.append((message, [entry.device]))
            }
        }
        var sentences: [String] = []
        for group in groups {
            let place = "On " + listed(group.devices)
            guard let survivor = group.message else {
                sentences.append("\(place) there is no bubble of \(change.session) at all.")
                continue
            }
            guard let send = evidence.flow.send(of: survivor), let carrier else {
                sentences.append("\(place) the live bubble is m\(survivor), which lacks it.")
                continue
            }
            let sender = evidence.contact(senderPerson(send.device, evidence))
            var sentence = "\(place) the live bubble is m\(survivor) from \(sender), sent by \(send.device) at \(send.time)"
            let seen = evidence.firstSeen(carrier, of: change, on: send.device)
            if let seen, seen <= send.time, !builtOnSelection(send, evidence) {
                sentence += ": \(send.device) had m\(carrier.message) since \(seen), but m\(survivor) was a new send in "
                    + "\(change.session), built without selecting a bubble, from an empty state (M15: the extension reads only the bubble "
                    + "the user tapped)"
            } else if let seen, seen <= send.time {
                let base = evidence.history.live(on: send.device, session: change.session, before: send.traceIndex)
                let baseState = base.flatMap { evidence.flow.send(of: $0.message) }.map { StateMap(url: $0.url) }
                if let base, let baseState, !baseState.contains(change.entries) {
                    sentence += ": \(send.device) had m\(carrier.message) since \(seen), but the bubble it showed when it replied was "
                        + "m\(base.message), which already lacked the change"
                } else {
                    sentence += ": \(send.device) had m\(carrier.message) since \(seen), but built m\(survivor) on an older bubble its "
                        + "app had selected before, a stale selectedMessage (M15)"
                }
            } else if let seen {
                sentence += ", before m\(carrier.message) reached \(send.device) at \(seen)"
            } else {
                sentence += ", and m\(carrier.message) never reached \(send.device)"
            }
            sentences.append(sentence + ".")
        }
        return sentences.joined(separator: " ")
    }

    /// The store's story of an overwrite, from the trace: who wrote the change, who had
    /// fetched before that write and wrote the whole map after it (M13).
    static func overwriteStory(_ change: Change, _ evidence: Evidence) -> String? {
        let trips = evidence.flow.cloudTrips
        let start = change.step.flatMap { evidence.stepStart($0) } ?? .zero
        guard let write = trips.first(where: { $0.device == change.device && $0.operation == .store && !$0.refused
                && $0.key == change.session && $0.requestedAt >= start && $0.version != nil }),
              let version = write.version, let written = write.arrivedAt else { return nil }
        for later in trips
        where later.operation == .store && !later.refused && later.key == change.session && later.device != change.device {
            guard let laterVersion = later.version, laterVersion > version, let laterAt = later.arrivedAt else { continue }
            let fetch = trips.last { $0.device == later.device && $0.operation == .fetch && $0.key == change.session
                && $0.requestedAt <= later.requestedAt && $0.version != nil }
            guard let fetch, let fetched = fetch.version, fetched < version, let fetchedAt = fetch.arrivedAt else { continue }
            return "\(change.device) wrote \(change.session) v\(version) with the change at \(written); \(later.device) had fetched "
                + "\(change.session) at v\(fetched) (at \(fetchedAt)), before that write, and at \(laterAt) wrote its whole map back as "
                + "v\(laterVersion), without the change."
        }
        return nil
    }

    /// Whether the app built `send` on a bubble the user had tapped: a reply taps the
    /// session's live bubble (M21); a send or insert opens the app from the drawer, with
    /// nothing selected (M20).
    static func builtOnSelection(_ send: MessageFlow.Send, _ evidence: Evidence) -> Bool {
        guard let number = send.step, let action = evidence.action(ofStep: number) else { return true }
        return !action.kind.built.composesWithoutSelection
    }

    static func shownList(_ lost: [(device: String, shown: SessionStates.Shown?)], _ evidence: Evidence) -> String {
        lost.map { entry in
            entry.shown.map { "\(entry.device) shows m\($0.message) from \(evidence.contact($0.sender)) with \($0.state)" }
                ?? "\(entry.device) shows no bubble"
        }.joined(separator: "; ")
    }

    static func senderPerson(_ device: String, _ evidence: Evidence) -> String {
        evidence.states.outcome.scenario.device(device)?.person ?? device
    }

    /// `a`, `a and b`, `a, b and c`.
    static func listed(_ names: [String]) -> String {
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }

    // MARK: - Divergence (M12)

    static func divergenceExplanation(_ session: String, parting: ViewParting?, groups: Int, mode: Scenario.AppSpec.StateMode,
                                      fetched: [String] = []) -> String {
        let here = parting.map { " Where it started: \($0.description)" } ?? ""
        switch mode {
        case .message:
            return "Each device keeps as live bubble the one that reached it last, and arrival order differs from device to device; a "
                + "replier even sees the other reply as the survivor, because its own bubble was added when it tapped Send (M11, M12). "
                + "The app reads its state from that bubble's URL, so the \(groups) groups of devices now disagree about \(session), and "
                + "nothing reconciles them.\(here)"
        case .cloudOverwrite, .cloudMerge, .cloudCAS:
            guard fetched.isEmpty else {
                return "The state lives in the store, and a tap reads it once: \(listed(fetched)) show\(fetched.count == 1 ? "s" : "") "
                    + "the record \(fetched.count == 1 ? "its" : "their") app fetched when the user tapped, and the store has changed "
                    + "since; nothing refreshes it until a newer bubble of \(session) arrives and is tapped (M13, M21).\(here)"
            }
            return "The state lives in the store, but a device with no bubble of \(session) cannot fetch it: the user has nothing to tap "
                + "(M13, M30).\(here)"
        }
    }

    // MARK: - Seen while the app read something (M2, M4, M8, M15)

    static func explanation(_ sighting: PitfallSighting, _ evidence: Evidence) -> String {
        let device = sighting.device
        let number = sighting.message ?? (sighting.kind == .droppedURL ? evidence.sentAfter(sighting) : nil)
        let message = number.map { "m\($0)" } ?? "the message"
        let send = number.flatMap { evidence.flow.send(of: $0) }
        switch sighting.kind {
        case .foreignIdentifier:
            let minted = sighting.mintedOn.map { minter in
                minter == device ? "\(device) itself minted the UUID, for another conversation" : "The UUID was minted on \(minter)"
            } ?? "The UUID was minted on another device"
            let writtenByApp = "the app's own code wrote it there, from localParticipantIdentifier or remoteParticipantIdentifiers"
            let carried = send.map { sent in
                sent.device == sighting.mintedOn
                    ? "\(minted), whose app put it into \(message)'s URL "
                        + "(\(evidence.states.outcome.scenario.app.name == nil ? "a `$name` in data does that" : writtenByApp)); "
                        + "\(message) was sent at \(sent.time)."
                    : "\(minted); \(message), sent by \(sent.device) at \(sent.time), carried it on in its URL, as an app that copies the "
                        + "state it read does."
            } ?? "\(minted) and reached \(device) in \(message)'s URL."
            if evidence.states.outcome.scenario.options.identifiers == .perConversation {
                return "\(carried) In this scenario identifiers are per conversation as well as per device (`identifiers: "
                    + "per-conversation`, M6): a device holds a different UUID for each person in each conversation, so a UUID minted for "
                    + "one conversation, or on another device, names nobody here, and whatever the app keyed by it on \(device) (a vote, "
                    + "an owner, a turn) is misread or lost (M4)."
            }
            return "\(carried) Participant identifiers are per device (M1): every device holds its own UUID for each person, and the same "
                + "person has a different UUID on each of them. So the UUID names nobody on \(device), and whatever the app keyed by it "
                + "there (a vote, an owner, a turn) is misread or lost (M4)."
        case .staleIdentifier:
            let reinstall = evidence.states.outcome.trace.events.last { event in
                guard event.subject == device, event.time <= sighting.time, case .reinstalled = event.kind else { return false }
                return true
            }
            let when = reinstall.map { " at \($0.time)" } ?? ""
            let written = send.map { ", written at \($0.time) by \($0.device)" } ?? ""
            return "\(device) was reinstalled\(when). A reinstall gives the device a completely new identifier set: its own local "
                + "identifier and every remote one (M2). The UUID in \(message)'s URL\(written), was minted by the old installation, so "
                + "\(device) itself no longer knows whom it means, and state keyed by it (its owner's votes, say) now belongs to nobody."
        case .staleSelection:
            return staleSelectionExplanation(sighting, evidence)
        case .droppedURL:
            let sent = send.map { " \(message) left \(device) at \($0.time) with no URL at all," } ?? " The message carries no URL at all,"
            return "On \(device) the app set MSMessage.url to a URL whose scheme is not http, https or data. The setter drops such a URL "
                + "silently: the old value (nil) stays and no error is raised (M8).\(sent) so no device can read its state when the "
                + "bubble is tapped, and the next reply starts from an empty state: whatever it held is lost (M7, M15)."
        case .sharedState:
            return "On iOS each device runs the extension in its own process, and the process ends soon after the extension closes "
                + "(M22): no object a controller holds is ever seen by another device's controller, or by the app after a reinstall. "
                + "GroupSim runs every device's controller in one process, so an object kept in a `static` property, a `shared` "
                + "singleton or a global is the same object on every simulated device: what one device's controller writes there, "
                + "the others read at once. That hides the races a real group has (each device keeps its own copy, and they meet "
                + "only through messages and your server) and makes up others that no group of phones can have."
        case .cancelledWrite:
            return "The app wrote its change to the cloud record as soon as the user composed, before the message was even staged "
                + "(`app.push: on-compose`). Nothing is sent until the user taps Send, and the user can remove the draft instead "
                + "(M16, M17): \(device) did, at \(sighting.time). The bubble never left, but the record every device fetches when its "
                + "user taps the session already holds the change (M13), so the group reads a change its author cancelled."
        case .lostUpdate, .divergence, .unattributed, .doubleCount, .joinedLate:
            return "See M1, M4, M6, M12 and M13."
        }
    }

    /// Which bubble the app built on, which newer one it missed, and what that loses (M15).
    static func staleSelectionExplanation(_ sighting: PitfallSighting, _ evidence: Evidence) -> String {
        let device = sighting.device
        guard let chosen = sighting.message, let session = evidence.flow.send(of: chosen)?.session else {
            return "The extension sees only the bubble the user tapped; selectedMessage is not refreshed when newer messages of the "
                + "session arrive, so a reply built on it undoes what came since (M15)."
        }
        let selected = evidence.history.changes(on: device, session: session).filter { $0.message == chosen }.first
        let newer = evidence.history.changes(on: device, session: session).filter { change in
            change.time <= sighting.time && (selected.map { change.traceIndex > $0.traceIndex } ?? true) && change.message != chosen
        }
        var text = "On \(device) the app built its draft at \(sighting.time) on m\(chosen), the bubble the user had tapped "
            + "(selectedMessage)."
        if !newer.isEmpty {
            let arrivals = newer.map { "m\($0.message) (\($0.wasSent ? "sent here" : "from \($0.from)") at \($0.time))" }
            text += " Since then \(listed(arrivals)) had become the live bubble of \(session)."
        }
        text += " The extension cannot read the transcript and selectedMessage is not refreshed when newer messages of the session arrive "
            + "(M15), so the draft carries m\(chosen)'s state plus its own change, without what came since; wherever it arrives last, "
            + "those changes are lost (M12)."
        return text
    }

    /// The fix for a sighted pitfall; for a registered app, in terms of its own code
    /// (the scenario's `app.` options configure only the built-in app).
    static func fix(_ kind: Scenario.PitfallKind, registered: Bool = false) -> String {
        switch kind {
        case .foreignIdentifier:
            registered
                ? "Never send participant UUIDs between devices: put ids every device can resolve in the URL (an install id each "
                    + "installation creates and keeps in UserDefaults, sent in every message, or the account id of your own sign-in), and "
                    + "use `$UUID` only in layout text and summaryText, which Messages draws as the contact's name on every device (M5)."
                : "Never send participant UUIDs between devices: put ids every device can resolve in the URL (an install id each "
                    + "installation creates and keeps in UserDefaults, sent in every message, or the account id of your own sign-in; "
                    + "`app.identity: install-id` or `account`), and use `$UUID` only in layout text and summaryText, which Messages "
                    + "draws as the contact's name on every device (M5)."
        case .staleIdentifier:
            registered
                ? "Do not persist participant identifiers as if they were permanent: key data by the account id of your own sign-in (Sign "
                    + "in with Apple or your server's login), and expect every participant identifier, and anything kept in UserDefaults, "
                    + "to change when the app is reinstalled (M2)."
                : "Do not persist participant identifiers as if they were permanent: key data by the account id of your own sign-in (Sign "
                    + "in with Apple or your server's login; `app.identity: account`), and expect every participant identifier, and "
                    + "anything kept in the app's local storage, to change when the app is reinstalled (M2)."
        case .staleSelection:
            registered
                ? "Build a reply from fresh state: keep the newest message of the session that didReceive(_:conversation:) handed your "
                    + "controller and build on it instead of the stale selectedMessage, or fetch the record from your server when the "
                    + "user acts and save it with a conditional write (M13, M15)."
                : "Build a reply from fresh state: keep the newest message of the session that didReceive(_:conversation:) handed the "
                    + "extension and build on it instead of the stale selectedMessage (`app.selection: newest`), or fetch the state from "
                    + "your server when the user acts (M13; `app.state: cloud-merge`)."
        case .droppedURL:
            "Put the state in query items of a URL with no scheme (`?key=value`, as IceCreamBuilder does) or https, check `message.url` "
                + "after setting it, and keep the whole URL under 5,000 characters, or insert fails with error 8, urlExceedsMaxSize (M8)."
        case .joinedLate:
            joinedLateFix(registered: registered)
        case .cancelledWrite:
            registered
                ? "Push the state when the user sends, not when composing: write the record in didStartSending(_:conversation:), "
                    + "and write nothing in didCancelSending(_:conversation:) (M13, M17)."
                : "Push the state when the user sends, not when composing: write the record in didStartSending, and nothing when the "
                    + "draft is removed (`app.push: on-send`, the default; M13, M17)."
        case .sharedState:
            "Make such an object per device: create it in the factory you register (`apps.register(_:environment:)`), from what "
                + "the device's `ExtensionEnvironment` gives it (its `storage`, the `cloud`, `makeToken()`), and hand it to the "
                + "controller; keep what must outlive an activation in the device's storage or on your server, not in a static "
                + "property or a singleton (M22)."
        case .lostUpdate, .divergence, .unattributed, .doubleCount:
            registered
                ? "Keep the state on your server and save with a conditional write, merging on conflict (M13)."
                : "Keep the state on a server and merge writes atomically (M13)."
        }
    }

    /// Why a device that joined after a session began shows no bubble of it (M6).
    static func joinedLateExplanation(_ session: String, devices: [String], conversation: String, mode: Scenario.AppSpec.StateMode) -> String {
        let they = devices.count == 1 ? "its person" : "their people"
        return "\(listed(devices)) show\(devices.count == 1 ? "s" : "") no bubble of \(session) because \(they) joined \(conversation) "
            + "after the session's first message was sent: a new member receives no history (M6), so no message of \(session) ever "
            + "reached \(devices.count == 1 ? "it" : "them"). No race happened and no update was lost; "
            + "\(devices.count == 1 ? "it" : "they") will see the session only when a member sends a new message of it"
            + (mode == .message ? "." : ", or when the app fetches the state from the cloud itself.")
    }

    /// The fix for a member who joined after a session began (M6).
    static func joinedLateFix(registered: Bool) -> String {
        registered
            ? "When someone joins, send a fresh bubble of the session (any member's reply does), or keep the state on your server and "
                + "fetch it when the app opens, not only when a bubble is tapped (M6, M13)."
            : "When someone joins, send a fresh bubble of the session (any member's reply does), or keep the state on a server and fetch "
                + "it when the app opens, not only when a bubble is tapped (M6, M13; `app.state: cloud-merge`)."
    }
}
