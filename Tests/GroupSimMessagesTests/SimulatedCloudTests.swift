import Foundation
import GroupSim
import GroupSimMessages
import Testing

/// A controller that talks to the simulated cloud as a scenario step asks: `op: save`
/// (unconditional), `op: cas` with `version` (conditional), `op: fetch`.
final class CloudController: MSMessagesAppViewController, ComposeRequestHandling {
    let cloud: SimulatedCloud
    let recorder: Recorder
    let device: String

    init(cloud: SimulatedCloud, recorder: Recorder, device: String) {
        self.cloud = cloud
        self.recorder = recorder
        self.device = device
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    private func note(_ text: String) {
        recorder.add("\(device) \(text)")
        // Stage a line, so the trace shows the virtual time the handler ran at.
        activeConversation?.insertText(text)
    }

    static func describe(_ record: SimulatedCloud.Record) -> String {
        "v\(record.version) {\(record.fields.keys.sorted().map { "\($0): \(record.fields[$0] ?? "")" }.joined(separator: ", "))}"
    }

    func handle(_ request: ComposeRequest) {
        var entries: [String: String] = [:]
        for entry in request.data { entries[entry.key] = entry.value }
        let fields = ["value": entries["value"] ?? ""]
        switch entries["op"] {
        case "save":
            cloud.save(fields, recordNamed: "poll") { self.note("saved \(Self.describe($0))") }
        case "cas":
            cloud.save(fields, recordNamed: "poll", ifVersion: Int(entries["version"] ?? "") ?? 0) { result in
                switch result {
                case .success(let record): self.note("saved \(Self.describe(record))")
                case .failure(let conflict): self.note("conflict, server has \(Self.describe(conflict.serverRecord))")
                }
            }
        default:
            cloud.fetch(recordNamed: "poll") { self.note("fetched \(Self.describe($0))") }
        }
    }
}

@Suite struct SimulatedCloudTests {
    /// Fetch, unconditional save and conditional save, each answered one cloud-latency
    /// after the store handled it (a round trip, M13); a conditional save over a moved
    /// version fails with the server's current record and writes nothing.
    @Test func savesFetchesAndConflictsAnswerAtVirtualTime() async throws {
        let recorder = Recorder()
        var apps = AppRegistry()
        apps.register("cloud-test", environment: { environment in
            CloudController(cloud: environment.cloud, recorder: recorder, device: environment.device)
        })
        let scenario = try ScenarioParser.parse(text: """
            name: cloud
            people: { alice: [alice-phone], bob: [bob-phone] }
            app: { name: cloud-test, state: cloud-merge, cloud-latency: 30ms }
            steps:
              - { at: 0ms, device: alice-phone, insert: { session: poll, data: { op: save, value: a } } }
              - { at: 100ms, device: bob-phone, insert: { session: poll, data: { op: cas, version: "0", value: b } } }
              - { at: 200ms, device: bob-phone, insert: { session: poll, data: { op: cas, version: "1", value: b } } }
              - { at: 300ms, device: alice-phone, insert: { session: poll, data: { op: fetch } } }
            """, file: "cloud.yaml", registeredApps: apps.names)
        let report = try await scenario.run(apps: apps)
        #expect(recorder.lines == [
            "alice-phone saved v1 {value: a}",
            "bob-phone conflict, server has v1 {value: a}",
            "bob-phone saved v2 {value: b}",
            "alice-phone fetched v2 {value: b}",
        ])
        let staged = report.outcome.trace.events.filter { if case .staged = $0.kind { true } else { false } }
            .map { "\($0.time) \($0.subject)" }
        #expect(staged == ["60ms alice-phone", "160ms bob-phone", "260ms bob-phone", "360ms alice-phone"])
        #expect(report.outcome.cloud.map { "\($0.key) v\($0.version) \($0.state)" } == ["poll v2 {value: b}"])
    }
}
