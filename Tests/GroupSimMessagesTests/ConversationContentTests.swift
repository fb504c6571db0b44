import Foundation
import GroupSim
import GroupSimMessages
import Testing

/// Stickers, text and attachments through `MSConversation`, as a controller shares them.
final class SharingController: MSMessagesAppViewController, ComposeRequestHandling {
    let recorder: Recorder
    let folder: URL

    init(recorder: Recorder, folder: URL) {
        self.recorder = recorder
        self.folder = folder
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    func handler(_ name: String) -> @Sendable ((any Error)?) -> Void {
        let recorder = recorder
        return { error in recorder.add("\(name) \((error as NSError?).map { "\($0.code)" } ?? "nil")") }
    }

    func handle(_ request: ComposeRequest) {
        guard let conversation = activeConversation, let what = request.data.first?.value else { return }
        switch what {
        case "sticker":
            do {
                let sticker = try MSSticker(contentsOfFileURL: folder.appendingPathComponent("Scenarios/assets/pickle.png"),
                                            localizedDescription: "a pickle")
                conversation.insert(sticker, completionHandler: handler("insert sticker"))
            } catch {
                recorder.add("sticker refused \(error)")
            }
        case "missing-sticker":
            do {
                _ = try MSSticker(contentsOfFileURL: folder.appendingPathComponent("no-such.png"), localizedDescription: "x")
            } catch {
                let error = error as NSError
                recorder.add("sticker refused \(error.domain == MSMessagesErrorDomain) \(error.code)")
            }
        case "text":
            conversation.sendText("on my way", completionHandler: handler("sendText"))
            conversation.sendText("again", completionHandler: handler("sendText again"))
        case "attachment":
            conversation.insertAttachment(URL(string: "https://example.com/menu.pdf")!, withAlternateFilename: nil,
                                          completionHandler: handler("attachment web"))
            conversation.insertAttachment(folder.appendingPathComponent("Package.swift"), withAlternateFilename: "menu.pdf",
                                          completionHandler: handler("attachment file"))
        default:
            conversation.insertText(what, completionHandler: handler("insertText"))
        }
    }
}

@Suite struct ConversationContentTests {
    static func run(_ what: String, kind: String = "send") async throws -> (Recorder, RunReport) {
        let recorder = Recorder()
        let folder = ExampleBuildTests.root
        var apps = AppRegistry()
        apps.register("sharing") { SharingController(recorder: recorder, folder: folder) }
        let scenario = try ScenarioParser.parse(text: """
            name: sharing
            people: { alice: [alice-phone], bob: [bob-phone] }
            app: { name: sharing }
            steps:
              - { at: 0ms, device: alice-phone, \(kind): { session: s, data: { what: \(what) } } }
            """, file: "sharing.yaml", registeredApps: apps.names)
        return (recorder, try await scenario.run(apps: apps))
    }

    /// A valid sticker is staged and, on the step's tap, sent; a missing file throws
    /// `fileNotFound` (1) in `MSMessagesErrorDomain` (M28, M29).
    @Test func stickersAreValidatedAndSent() async throws {
        let (recorder, report) = try await Self.run("sticker")
        #expect(recorder.lines == ["insert sticker nil"])
        #expect(report.outcome.devices[1].transcripts.first?.entries.map(\.kind) == [.sticker])
        let (refused, _) = try await Self.run("missing-sticker")
        #expect(refused.lines == ["sticker refused true 1"])
    }

    /// Direct sends of text: one per user interaction (M18), the second gets 9.
    @Test func sendTextIsOncePerInteraction() async throws {
        let (recorder, report) = try await Self.run("text", kind: "insert")
        #expect(recorder.lines == ["sendText nil", "sendText again 9"])
        #expect(report.outcome.devices[1].transcripts.first?.entries.map(\.text) == ["on my way"])
    }

    /// An attachment must be a local file (`improperFileURL`, 4); a file is staged and
    /// drawn as a line naming it.
    @Test func attachmentsMustBeLocalFiles() async throws {
        let (recorder, report) = try await Self.run("attachment")
        #expect(recorder.lines == ["attachment web 4", "attachment file nil"])
        #expect(report.outcome.devices[1].transcripts.first?.entries.map(\.text) == ["[attachment menu.pdf]"])
    }
}
