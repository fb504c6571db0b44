import GroupSimCore
import GroupSimScenario

extension Device {
    /// The state of this device's snapshot; `index`: its position in the run's devices,
    /// and in the run's live bubbles. The transcripts and identifiers are shared with the
    /// device, not copied: transcripts, session views and the identifier list are made
    /// from them when a report reads them; checks and exploration read only the live bubbles.
    func makeSnapshotState(index: Int) -> DeviceSnapshot.State {
        // Most devices' storage was never written: read as empty without asking for its contents.
        let storage = environment.storage
        let untouched = storage.isUntouched
        var state = DeviceSnapshot.State(name: spec.name, person: spec.person, platform: spec.platform, runsApp: spec.runsApp,
                                         generation: identifiers.generation, runIndex: index, map: identifiers, owner: spec.person,
                                         position: position, transcriptTable: transcripts, liveIndex: index)
        // Most devices end a run with none of these: their state holds none.
        guard !(callbacks.isEmpty && drafts.isEmpty && untouched && installIDs.isEmpty && retired.isEmpty) else { return state }
        state.setExtras(callbacks: callbacks,
                        drafts: drafts.isEmpty ? [] : world.conversations.compactMap { conversation in
                            drafts[conversation.name]?.message.map { DeviceSnapshot.Draft(conversation: conversation.name, message: $0) }
                        },
                        localStorage: untouched ? [:] : storage.dictionary, localSuites: untouched ? [:] : storage.suiteDictionaries,
                        installIDs: installIDs, retired: retired)
        return state
    }
}
