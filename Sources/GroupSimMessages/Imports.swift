@_exported import GroupSimUIKit
import GroupSim

/// GroupSim's own style type, named apart from Apple's so both read clearly here.
typealias PresentationStyleValue = GroupSim.PresentationStyle
