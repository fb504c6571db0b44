extension Simulation.Trace.Event {
    /// What a device asks of the cloud store (M13), as its trace event and the reports
    /// name it: `fetch` or `store`.
    public enum CloudOperation: String, Sendable, Hashable, CaseIterable {
        case fetch, store

        /// The operation of a request as the app made it.
        package init(_ operation: CloudRequest.Operation) {
            switch operation {
            case .fetch: self = .fetch
            case .store: self = .store
            }
        }
    }

    /// What the cloud store did with a request (M13): served a fetch, saved a write, or
    /// refused a conditional write because the record's version had moved.
    public enum CloudHandling: Sendable, Hashable, CaseIterable {
        case fetch
        case store
        case refusedStore

        /// How the store handled `operation`, given whether its answer is a conflict.
        package init(_ operation: CloudRequest.Operation, conflict: Bool) {
            switch operation {
            case .fetch: self = .fetch
            case .store: self = conflict ? .refusedStore : .store
            }
        }

        /// The request it handled.
        public var operation: CloudOperation {
            switch self {
            case .fetch: .fetch
            case .store, .refusedStore: .store
            }
        }

        /// `fetch`, `store` or `refused store`: the words of the trace line.
        public var text: String {
            switch self {
            case .fetch: "fetch"
            case .store: "store"
            case .refusedStore: "refused store"
            }
        }
    }

    /// The store's answer as it reaches the device (M13): the record fetched, the write
    /// saved, or a conflict carrying the store's current record to retry on.
    public enum CloudAnswer: String, Sendable, Hashable, CaseIterable {
        case fetched, stored, conflict

        /// The answer to `operation`, given whether the store refused it.
        package init(_ operation: CloudRequest.Operation, conflict: Bool) {
            switch operation {
            case .fetch: self = .fetched
            case .store: self = conflict ? .conflict : .stored
            }
        }

        /// The request it answers.
        public var operation: CloudOperation {
            switch self {
            case .fetched: .fetch
            case .stored, .conflict: .store
            }
        }
    }

    /// Something the system did that changes no state, typed by what it was.
    public enum Note: Sendable, Hashable {
        /// macOS opened a bubble's http or https URL in the browser (M25).
        case openedInBrowser(url: String)

        /// The note in words, as the timeline prints it.
        public var text: String {
            switch self {
            case .openedInBrowser(let url): "opened \(url) in the browser (M25)"
            }
        }
    }
}
