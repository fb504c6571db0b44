// `import GroupSim` gives a user the whole library in one import: the five targets below
// are the layers of the data path (scenario file → Scenario → Simulation → Trace and
// final state → Checking → Reporting), each depending only on the ones before it.
@_exported import GroupSimCore
@_exported import GroupSimScenario
@_exported import GroupSimSimulation
@_exported import GroupSimChecking
@_exported import GroupSimReporting
