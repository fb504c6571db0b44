import GroupSimCore

/// How far an exploration has got, for a progress line (`groupsim explore` on a terminal).
package struct ExplorationProgress: Sendable, Hashable {
    /// Runs finished so far.
    package var runsDone: Int
    /// Runs this exploration will make.
    package var runs: Int
    /// Finished runs that failed a check.
    package var failedRuns: Int

    package init(runsDone: Int, runs: Int, failedRuns: Int) {
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
    package var orders: ExactCount
    /// Of those, the orders that failed a check.
    package var failedOrders: ExactCount
    /// Schedules simulated so far.
    package var schedules: Int
    /// The search has ended, every order found.
    package var finished: Bool

    package init(orders: ExactCount, failedOrders: ExactCount, schedules: Int, finished: Bool) {
        self.orders = orders
        self.failedOrders = failedOrders
        self.schedules = schedules
        self.finished = finished
    }
}
