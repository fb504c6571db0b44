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
