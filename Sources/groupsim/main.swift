import GroupSimCLI

// The whole program: hand the arguments to GroupSimCLI, which prints what the command
// returns and exits with its status.
await GroupSimProcess.main(Array(CommandLine.arguments.dropFirst()))
