import GroupSimCore
import GroupSimScenario

/// Everything a run produced, before checks: the trace, each device's final state, and
/// what the simulator saw along the way.
public struct RunOutcome: Sendable {
    /// One conversation's members at the end of a run (M6).
    public struct ConversationMembers: Sendable, Hashable, Codable {
        public var conversation: String
        /// Person keys, in the order they joined.
        public var members: [String]

        public init(conversation: String, members: [String]) {
            self.conversation = conversation
            self.members = members
        }
    }

    public var scenario: Scenario
    public var seed: UInt64
    public var trace: Simulation.Trace
    public var devices: [DeviceSnapshot]
    public var failures: [StepFailure]
    /// Pitfalls seen while the app read something (M2, M4, M8, M15).
    package var sightings: [PitfallSighting]
    /// Every state change made by a send, reply or cloud write, in the order made.
    package var changes: [Change]
    /// Which message carried each change and when it reached each device, when each step
    /// began: kept as the run went, with the trace on or off (the pitfalls read it).
    package var ledger: RunLedger
    /// What each device shows at the end: its live bubbles (M10).
    package var live = LiveBubbles()
    /// The cloud store's records at the end, by key (M13).
    public var cloud: [CloudEntry]
    public var endTime: VirtualTime
    public var eventCount: Int
    public var copiesDelivered: Int
    /// Copies still waiting for an offline device at the end (M30).
    public var heldAtEnd: Int
    /// False when the run hit `Simulation.eventLimit` before going quiet.
    public var quiet: Bool
    /// Each conversation's members at the end (M6), in the scenario's order.
    public var members: [ConversationMembers]
    /// Conditional writes the cloud store refused because the record's version had moved
    /// (M13): under `app.state: cloud-cas`, each one cost the app a retry.
    public var cloudConflicts: Int = 0

    /// The run's fingerprint: SHA-256 over a canonical encoding of every trace event (with
    /// the content of messages, cloud requests and answers, and failures), then each
    /// device's final view (transcripts, identifiers, callbacks, draft), the cloud store's
    /// records, the step failures and the members. `RunReport.digest` adds the verdicts.
    public var digest: String {
        var encoder = CanonicalEncoder()
        encode(into: &encoder)
        return encoder.hexDigest
    }

    package func encode(into encoder: inout CanonicalEncoder) {
        trace.encode(into: &encoder)
        encoder.int(Int64(devices.count))
        for device in devices {
            encoder.string(device.name)
            encoder.int(Int64(device.generation))
            encoder.int(Int64(device.identifiers.count))
            for entry in device.identifiers {
                encoder.string(entry.person)
                encoder.string(entry.id.uuidString)
            }
            encoder.int(Int64(device.callbacks.count))
            for callback in device.callbacks { encoder.string(callback.rawValue) }
            encoder.int(Int64(device.transcripts.count))
            for transcript in device.transcripts {
                encoder.string(transcript.conversation)
                encoder.int(Int64(transcript.entries.count))
                for entry in transcript.entries {
                    encoder.string(entry.kind.rawValue)
                    encoder.int(Int64(entry.message))
                    encoder.optional(entry.session)
                    encoder.string(entry.senderPerson)
                    encoder.string(entry.senderName)
                    encoder.optional(entry.senderIdentifier?.uuidString)
                    encoder.optional(entry.text)
                    encoder.optional(entry.subcaption)
                    encoder.optional(entry.url)
                    encoder.optionalState(entry.state)
                }
            }
            if let draft = device.draft {
                encoder.string("draft")
                encoder.message(draft)
            } else {
                encoder.string("-")
            }
        }
        encoder.int(Int64(cloud.count))
        for record in cloud {
            encoder.string(record.key)
            encoder.state(record.state)
            encoder.int(Int64(record.version))
        }
        encoder.int(Int64(failures.count))
        for failure in failures {
            encoder.optional(failure.step.map(String.init))
            encoder.string(failure.device)
            encoder.int(failure.time.nanoseconds)
            encoder.string(failure.code.name)
            encoder.string(failure.reason)
        }
        encoder.int(Int64(members.count))
        for entry in members {
            encoder.string(entry.conversation)
            encoder.int(Int64(entry.members.count))
            for member in entry.members { encoder.string(member) }
        }
        encoder.int(quiet ? 1 : 0)
    }

    public func device(_ name: String) -> DeviceSnapshot? { devices.first { $0.name == name } }

    /// The outcome of nothing: no devices, no events.
    package static func empty(_ scenario: Scenario) -> RunOutcome {
        RunOutcome(scenario: scenario, seed: scenario.seed, trace: Simulation.Trace(), devices: [], failures: [], sightings: [],
                   changes: [], ledger: RunLedger(), cloud: [], endTime: .zero, eventCount: 0, copiesDelivered: 0, heldAtEnd: 0,
                   quiet: true, members: [])
    }
}

extension RunOutcome {
    /// One cloud store record at the end of a run (M13).
    public struct CloudEntry: Sendable {
    public var key: String
    public var state: StateMap
    public var version: Int
    package var provenance: Provenance
    }
}
