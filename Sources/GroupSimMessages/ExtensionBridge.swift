import Foundation
import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// The line between one activation of a controller and its device: collects what the
/// controller asks for (inserts, sends, style requests, cloud requests) while GroupSim
/// calls it, and hands each answer back to the completion handler waiting for it.
///
/// Completion handlers are matched to actions by order: every callback's actions form a
/// batch, and the device reports each action's result in order, the results of actions
/// set off by a report before the rest of the batch's (a stack of batches). Cloud answers
/// go to the oldest waiting handler of the same record and kind.
///
/// Its fields, like the internal fields of the objects the app is handed (`MSMessage`,
/// `MSSession`, `MSConversation`, the controller's system-set properties), are checked for
/// exclusive access statically only (`@exclusivity(unchecked)`): only GroupSim's code on the
/// main actor writes them, one call at a time, and the run-time check of every access cost
/// about 3% of a registered controller's run.
final class ExtensionBridge {
    typealias Completion = (MessageErrorCode?) -> Void

    /// What the device shows the app now (M1, M15).
    @exclusivity(unchecked) var view: Conversation
    let environment: AppEnvironment
    @exclusivity(unchecked) private var pending: [AppAction] = []
    @exclusivity(unchecked) private var pendingHandlers: [Completion?] = []
    @exclusivity(unchecked) private var batches: [(handlers: [Completion?], next: Int)] = []
    @exclusivity(unchecked) private var cloudWaiting: [(key: String, isFetch: Bool, answer: (AppAction.CloudRecord) -> Void)] = []
    @exclusivity(unchecked) private var sessions: [String: MSSession] = [:]
    @exclusivity(unchecked) private var selectedCache: (id: Int, message: MSMessage)?
    @exclusivity(unchecked) private var generatedSessions = 0
    /// The app's own object for the message staged in the input field, if any (M17).
    @exclusivity(unchecked) var staged: MSMessage?
    /// The session the user's latest intent names: a new `MSSession` the app sends takes it.
    @exclusivity(unchecked) var intentSession: String?

    init(view: Conversation, environment: AppEnvironment) {
        self.view = view
        self.environment = environment
    }

    /// Whether `view` is, byte for byte, the view shown now. Equal bytes are the same
    /// value (the same strings and objects); a view made again from the same parts may
    /// differ in its bytes and is then shown again, which changes nothing.
    func shows(_ view: Conversation) -> Bool {
        withUnsafeBytes(of: &self.view) { shown in
            withUnsafeBytes(of: view) { given in
                guard let shown = shown.baseAddress, let given = given.baseAddress else { return false }
                return memcmp(shown, given, MemoryLayout<Conversation>.size) == 0
            }
        }
    }

    // MARK: - Actions and their completions

    /// Queues an action for the device; `completion` gets its result (nil: success).
    func enqueue(_ action: AppAction, _ completion: Completion? = nil) {
        pending.append(action)
        pendingHandlers.append(completion)
    }

    /// The actions queued during the current call, as one batch whose results come back in order.
    func takeBatch() -> [AppAction] {
        guard !pending.isEmpty else { return [] }
        let actions = pending
        batches.append((pendingHandlers, 0))
        pending = []
        pendingHandlers = []
        return actions
    }

    /// The device carried out the next action of the innermost batch.
    func complete(error: MessageErrorCode?) {
        guard var batch = batches.popLast(), batch.handlers.indices.contains(batch.next) else { return }
        let handler = batch.handlers[batch.next]
        batch.next += 1
        if batch.next < batch.handlers.count { batches.append(batch) }
        handler?(error)
    }

    /// Waits for the cloud's answer about `key`.
    func awaitCloud(key: String, isFetch: Bool, _ answer: @escaping (AppAction.CloudRecord) -> Void) {
        cloudWaiting.append((key, isFetch, answer))
    }

    /// The cloud answered: the oldest handler waiting for this record and kind gets it.
    func cloudAnswered(_ record: AppAction.CloudRecord, isFetch: Bool) {
        guard let index = cloudWaiting.firstIndex(where: { $0.key == record.key && $0.isFetch == isFetch }) else { return }
        let waiting = cloudWaiting.remove(at: index)
        waiting.answer(record)
    }

    // MARK: - Sessions and messages as the app sees them

    /// The app's object for the session GroupSim calls `name`: the same one all activation.
    func session(named name: String) -> MSSession {
        if let last = lastSession, last.name == name { return last }
        let session: MSSession
        if let known = sessions[name] {
            session = known
        } else {
            session = MSSession(name: name)
            sessions[name] = session
        }
        lastSession = session
        return session
    }

    /// The session `session(named:)` last gave: the messages a device hands its app in a
    /// row are mostly of one session, and comparing the name is cheaper than hashing it.
    /// A name, once given, keeps its object.
    @exclusivity(unchecked) private var lastSession: MSSession?

    /// The name GroupSim tracks `session` by; a new session is named after the user's intent.
    func name(of session: MSSession?) -> String? {
        guard let session else { return nil }
        if let name = session.name { return name }
        let name: String
        if let intended = intentSession, sessions[intended] == nil {
            name = intended
        } else {
            generatedSessions += 1
            name = "\(environment.device)-session-\(generatedSessions)"
        }
        session.name = name
        sessions[name] = session
        return name
    }

    /// The app's view of a message GroupSim holds.
    func message(_ message: Message) -> MSMessage {
        MSMessage(message, session: message.session.map { session(named: $0.name) })
    }

    /// `selectedMessage`, the same object until the selection changes (M15).
    func selectedMessage() -> MSMessage? {
        guard let selected = view.selectedMessage else { return nil }
        if let cached = selectedCache, cached.id == selected.id ?? -1 { return cached.message }
        let made = message(selected)
        selectedCache = (selected.id ?? -1, made)
        return made
    }
}
