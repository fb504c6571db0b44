import GroupSimCore
import GroupSimScenario

extension Device {
    /// `live`: the run's live bubbles, of which this device's are those of device `index`.
    func makeSnapshot(live: SharedLiveBubbles, index: Int) -> DeviceSnapshot {
        let firstConversation = world.conversations.first?.name ?? Scenario.ConversationSpec.defaultName
        let ids = DeviceSnapshot.IdentifierListing.minted(identifiers, owner: spec.person, ownerPosition: position,
                                                           people: world.people, conversation: firstConversation)
        let drawer = self.drawer
        // The transcripts are shared with the device, not copied: transcripts and session
        // views are drawn from them when a report reads them; checks and exploration read
        // only the live bubbles. One array of them, which the session table and the drawn
        // transcripts share.
        let shown = world.conversations.enumerated().map { position, conversation in
            (conversation: conversation.name, transcript: transcripts.scenarioTranscript(at: position, named: conversation.name))
        }
        let sessions = SessionTable(live: live, device: index, shown: shown, drawer: drawer, summaryLines: world.options.summaryLines)
        var snapshot = DeviceSnapshot(name: spec.name, person: spec.person, platform: spec.platform, runsApp: spec.runsApp,
                                      callbacks: callbacks, identifiers: ids, generation: identifiers.generation,
                                      transcripts: .undrawn(drawer, shown, summaryLines: world.options.summaryLines),
                                      sessions: sessions,
                                      drafts: drafts.isEmpty ? [] : world.conversations.compactMap { conversation in
                                          drafts[conversation.name]?.message.map { DeviceSnapshot.Draft(conversation: conversation.name,
                                              message: $0) }
                                      })
        snapshot.localStorage = environment.storage.dictionary
        snapshot.localSuites = environment.storage.suiteDictionaries
        snapshot.installIDs = installIDs
        snapshot.identifierMaps = retired.isEmpty ? [identifiers] : [identifiers] + retired.reversed()
        snapshot.runIndex = index
        return snapshot
    }

    /// What drawing needs of this device as it stands now.
    var drawer: TranscriptDrawer {
        TranscriptDrawer(world: world, identifiers: identifiers, person: spec.person, position: position)
    }
}
