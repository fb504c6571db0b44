import Foundation
import GroupSimCLI

// The whole program: hand the arguments to GroupSimCLI and print what it returns.
let result = await GroupSimCommand().run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(result.output.utf8))
FileHandle.standardError.write(Data(result.error.utf8))
exit(result.status)
