import GroupSimCore

/// How far an exploration has got, for a progress line (`groupsim explore` on a terminal).
package struct ExplorationProgress: Sendable, Hashable {
    /// Runs finished so far.
    public var runsDone: Int
    /// Runs this exploration will make.
    public var runs: Int
    /// Finished runs that failed a check.
    public var failedRuns: Int

    public init(runsDone: Int, runs: Int, failedRuns: Int) {
        self.runsDone = runsDone
        self.runs = runs
        self.failedRuns = failedRuns
    }
}

/// How far an exhaustive search has got, for a progress line (`groupsim explore
/// --exhaustive --progress`): it cannot know how many orders there are until it ends, so
/// it says what it has found and simulated.
package struct SearchProgress: Sendable, Hashable {
    /// Distinct orders found so far (counted, where factoring combines devices' orders).
    public var orders: ExactCount
    /// Of those, the orders that failed a check.
    public var failedOrders: ExactCount
    /// Schedules simulated so far.
    public var schedules: Int
    /// The search has ended, every order found.
    public var finished: Bool

    public init(orders: ExactCount, failedOrders: ExactCount, schedules: Int, finished: Bool) {
        self.orders = orders
        self.failedOrders = failedOrders
        self.schedules = schedules
        self.finished = finished
    }
}
