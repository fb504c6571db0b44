@_exported import GroupSimUIKit
import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// GroupSim's own style type, named apart from Apple's so both read clearly here.
typealias PresentationStyleValue = GroupSimScenario.Scenario.PresentationStyle
