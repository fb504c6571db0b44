import Foundation
import GroupSim

/// Where a command reads its scenario: a file, or standard input for `-`.
///
/// A scenario from standard input is named `<stdin>` in messages, and the files it names
/// by a relative path (stickers) are taken from the working folder.
enum ScenarioSource {
    /// The scenario path that means standard input.
    static let standardInputPath = "-"
    /// The name messages give a scenario read from standard input.
    static let standardInputName = "<stdin>"
    /// The most bytes read from standard input: a scenario is far smaller, and a stream
    /// without end (`< /dev/zero`) is refused instead of read until memory runs out.
    static let standardInputLimit = ScenarioLimits.default.maximumFileBytes

    static func load(_ path: String, apps: AppRegistry, limits: ScenarioLimits = .default) throws -> ValidatedScenario {
        guard path == standardInputPath else {
            return ValidatedScenario(parsed: try ScenarioParser.load(path: path, registeredApps: apps.names, limits: limits))
        }
        let bytes = try readStandardInput()
        return ValidatedScenario(parsed: try ScenarioParser.parse(bytes: bytes, file: standardInputName, registeredApps: apps.names,
                                                                  limits: limits))
    }

    /// Everything on standard input, up to `standardInputLimit` bytes.
    static func readStandardInput() throws -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1_024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw UsageError("cannot read the scenario from standard input: \(OutputFile.reason(errno))")
            }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
            // One byte over the limit is enough for the parser to refuse it, in the words
            // it uses for a file: "larger than the limit of 64 MiB (67108864 bytes)".
            if bytes.count > standardInputLimit { return bytes }
        }
    }
}
