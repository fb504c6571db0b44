import GroupSimCore
import GroupSimScenario

/// One call into a device: the device, the instant and run-wide counters the caller hands
/// it, and the effects the call adds, together for the length of the call only.
///
/// A device at rest (`Device`) is its state and nothing else: no output buffer, no clock.
/// Each input (a step, a delivered copy, a cloud answer) is handled by a `DeviceCall` that
/// `World.call` makes for it around the device's place in the world and the caller's
/// buffer (`DevicePlace`); when the call returns, the caller takes the counters back and
/// acts on the buffer (determinism rule 5, README: devices never schedule, send or read a
/// file themselves).
package struct DeviceCall: ~Copyable {
    /// The device and the buffer, reached through `device` and `effects`.
    let place: DevicePlace
    /// When the call happens and the run's message and change counters: an input of the
    /// call, handed back to the caller with the counters moved on.
    private(set) var context: DeviceContext
    /// The instant of the call.
    var now: VirtualTime { context.now }

    /// Whether the owner is a member of `conversation` (M6): the last conversation found
    /// is kept on the device until its members change (`Device.lastMemberOf`).
    mutating func isMember(of conversation: String) -> Bool {
        if device.lastMemberOf == conversation { return true }
        guard device.memberOf.contains(conversation) else { return false }
        device.lastMemberOf = conversation
        return true
    }

    /// The conversation's number (`WorldFacts.conversationNumber`), the last one kept on the device.
    mutating func conversationNumber(_ name: String) -> Int {
        if let last = device.lastConversationNumber, last.name == name { return last.number }
        let number = device.world.conversationNumber(name)
        device.lastConversationNumber = (name, number)
        return number
    }

    /// The session's number (`WorldFacts.sessionNumber`), the last one kept on the device.
    mutating func sessionNumber(_ name: String) -> Int {
        if let last = device.lastSessionNumber, last.name == name { return last.number }
        let number = device.world.sessionNumber(name)
        device.lastSessionNumber = (name, number)
        return number
    }

    /// What drawing needs of the device as it stands now, built from its stored fields:
    /// a non-mutating method or computed property of `Device` called through the call's
    /// place copies the whole device first (the place could change under the call); a
    /// field, or a mutating method, is reached in place.
    var drawer: TranscriptDrawer {
        TranscriptDrawer(world: device.world, identifiers: device.identifiers, person: device.spec.person, position: device.position)
    }

    /// The number the next message sent gets, moved on.
    mutating func takeMessageID() -> Int {
        defer { context.nextMessageID += 1 }
        return context.nextMessageID
    }

    /// The number the next state change gets, moved on.
    mutating func takeChangeID() -> Int {
        defer { context.nextChangeID += 1 }
        return context.nextChangeID
    }

    // MARK: - Entry points called by the scheduler

    /// Runs one user action (docs/scenario-format.md, "Steps").
    package mutating func perform(_ step: Scenario.Step, conversation: String, sessionIsNew: Bool) {
        begin()
        device.currentStep = step.number
        device.origin = RunOutcome.StepFailure.Origin(step: step.number, stepTime: now)
        device.sessionIsNew = sessionIsNew
        // Asked first: the event's fields (a copy of the action) are made only for a trace.
        if device.tracing { trace(.step(number: step.number, action: step.action)) }
        if Device.postsTo(step.action), !isMember(of: conversation) {
            // A removed member's devices no longer take part: nothing they do reaches the group (M6).
            fail(.notMember, RunOutcome.StepFailure.notMemberReason(device: device.spec.name, person: device.spec.person, conversation: conversation),
                 rule: "M6")
            return
        }
        if Device.interactsWithExtension(step.action) {
            device.interactionAvailable = true
            device.lastInteraction = now
        }
        performAction(step, conversation: conversation)
    }

    /// A copy of a message reaches the device (M11, M23).
    package mutating func receive(_ envelope: Envelope) {
        begin()
        if device.tracing { trace(.delivered(message: envelope.id, from: envelope.senderDevice)) }
        add(envelope)
    }

    /// The cloud store answered one of the device's requests (M13).
    package mutating func receive(_ response: CloudResponse) {
        begin()
        let record = response.record
        switch response.request.operation {
        case .fetch:
            device.origin = response.request.origin?.then(.cloudFetch)
            trace(.cloudAnswer(.fetched, key: record.key, version: record.version), .cloud(operation: nil, record: record))
            device.readProvenance[record.key] = response.provenance
            callback(.didFetch) { app, conversation in app.didFetch(record, conversation: conversation) }
        case .store:
            device.origin = response.request.origin?.then(.cloudStore)
            trace(.cloudAnswer(record.conflict ? .conflict : .stored, key: record.key, version: record.version),
                  .cloud(operation: nil, record: record))
            device.readProvenance[record.key] = response.provenance
            if !record.conflict, let change = response.request.change, device.composing?.allocated?.id == change.id { device.composing = nil }
            callback(.didStore) { app, conversation in app.didStore(record, conversation: conversation) }
        }
    }

    /// What every input starts from.
    private mutating func begin() {
        device.actionDepth = 0
        // A failure belongs to the running step only while that step runs; what the app
        // does on a cloud answer later follows from the step its request came from
        // (`origin`), what it does on a delivered copy from none.
        device.currentStep = nil
        // Cleared only when set: a delivered copy finds it nil, and clearing it released
        // the nil it held.
        if device.origin != nil { device.origin = nil }
    }

    // MARK: - Effects

    /// Adds an event to the call's effects (nothing with the trace off: callers on the
    /// paths every copy takes ask `device.tracing` first, so as not to build the event's fields).
    mutating func trace(_ kind: Simulation.Trace.Event.Kind, _ payload: Simulation.Trace.Event.Payload? = nil) {
        guard device.tracing else { return }
        effects.events.append(Simulation.Trace.Event(time: now, subject: device.spec.name, kind: kind, payload: payload))
    }

    /// Fails the running step (or the app's action) with `code`, saying why; `rule` is the
    /// rule of docs/behaviour.md the failure follows from, which the reason cites too.
    mutating func fail(_ code: MessageErrorCode, _ reason: String, rule: Rule?) {
        let step = device.currentStep
        let later = step == nil ? device.origin : nil
        trace(.failed(step: step, code: code, origin: later), .failure(reason: reason, rule: rule))
        effects.failures.append(RunOutcome.StepFailure(step: step, device: device.spec.name, time: now, code: code, reason: reason, rule: rule,
                                            origin: later))
    }

    mutating func sighting(_ kind: Scenario.PitfallKind, message: Int?, _ detail: String, mintedOn: String? = nil) {
        trace(.pitfall(kind, detail: detail))
        effects.sightings.append(PitfallSighting(kind: kind, device: device.spec.name, time: now, message: message, detail: detail,
            mintedOn: mintedOn))
    }
}
