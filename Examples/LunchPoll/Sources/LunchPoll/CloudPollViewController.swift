#if canImport(Messages)
import Messages
#else
import GroupSimMessages
#endif
import Foundation

/// The lunch poll, second version: the poll lives on the app's server; the message URL
/// carries only the record's name (`?session=NAME`), as Apple recommends.
///
/// A vote fetches the record, adds the vote and saves it only over the version it read;
/// when someone else saved first, the server answers with its record, the vote is merged
/// into it and saved again. Concurrent votes therefore all land, and every device shows
/// the same poll whichever bubble it kept.
///
/// Participant identifiers are kept out of shared state: they differ on every device
/// and change with a reinstall, so votes are keyed by the voter's name, the record name
/// is a fresh token (not a participant UUID) and identifiers appear only as `$UUID` text
/// in the bubble, which Messages draws as the sender's name on each device.
public final class CloudPollViewController: MSMessagesAppViewController {
    /// The server (CloudKit on iOS).
    public var store: PollStore?
    /// This install's storage (`UserDefaults` on iOS): the record name of the last poll
    /// this device voted in, to show it on the next activation.
    public var defaults: PollDefaults?
    /// Makes a new record name; GroupSim's tests inject a seeded source so runs replay.
    public var makeRecordName: () -> String = { UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }

    /// The poll as last read from the server.
    public private(set) var poll = PollRecord(name: "", fields: [:], version: 0)

    public override func willBecomeActive(with conversation: MSConversation) {
        if let name = Self.recordName(in: conversation.selectedMessage) {
            store?.fetch(name) { [weak self] record in self?.poll = record }
        }
    }

    public override func didSelect(_ message: MSMessage, conversation: MSConversation) {
        if let name = Self.recordName(in: message) {
            store?.fetch(name) { [weak self] record in self?.poll = record }
        }
    }

    /// The Ask button: starts a poll with `question` in a new record.
    public func ask(_ question: String) {
        change(recordName: makeRecordName(), key: "q", value: question, caption: question)
    }

    /// A choice button: adds `choice` for `voter` to the tapped poll.
    public func vote(_ choice: String, as voter: String) {
        let name = Self.recordName(in: activeConversation?.selectedMessage) ?? makeRecordName()
        change(recordName: name, key: voter, value: choice, caption: "picked \(choice)")
    }

    /// Fetch, change, save over the version read; on a conflict merge into the server's
    /// record and save again; then stage the bubble that points at the record.
    private func change(recordName: String, key: String, value: String, caption: String) {
        guard let store else { return }
        store.fetch(recordName) { [weak self] record in
            self?.save(key: key, value: value, into: record, caption: caption, attempts: 5)
        }
    }

    private func save(key: String, value: String, into record: PollRecord, caption: String, attempts: Int) {
        guard let store, attempts > 0 else { return }
        var changed = record
        changed.fields[key] = value
        store.save(changed) { [weak self] saved, serverRecord in
            guard let self else { return }
            if let saved {
                self.poll = saved
                self.defaults?.set(saved.name, forKey: "lastPoll")
                self.insertBubble(recordName: saved.name, caption: caption)
            } else if let serverRecord {
                // Someone saved first: keep their votes, add ours, try again.
                self.save(key: key, value: value, into: serverRecord, caption: caption, attempts: attempts - 1)
            }
        }
    }

    private func insertBubble(recordName: String, caption: String) {
        guard let conversation = activeConversation else { return }
        let message = MSMessage(session: conversation.selectedMessage?.session ?? MSSession())
        var components = URLComponents()
        components.queryItems = [URLQueryItem(name: "session", value: recordName)]
        message.url = components.url
        let layout = MSMessageTemplateLayout()
        let me = "$" + conversation.localParticipantIdentifier.uuidString
        layout.caption = "\(me) \(caption)"
        message.layout = layout
        message.summaryText = "\(me) voted"
        conversation.insert(message) { error in
            if let error { print("LunchPoll: insert failed: \(error)") }
        }
    }

    /// The record name a poll bubble's URL carries.
    static func recordName(in message: MSMessage?) -> String? {
        guard let url = message?.url else { return nil }
        return URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "session" }?.value
    }
}
