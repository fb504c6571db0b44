import GroupSim

/// `groupsim schema`: prints the JSON Schema (draft 2020-12) of scenario files, generated
/// from the tables the parser takes its keys from.
struct SchemaCommand: Subcommand {
    static let name = "schema"
    static let summary = "print the JSON Schema of scenario files, for editors and validators"
    static let operands = ""
    static let options = [Option.output.explained("write the schema to PATH instead of standard output")]

    static let about = """
    Prints the JSON Schema (draft 2020-12) of scenario files. It is generated from the same
    tables the parser checks keys against, so it names every key, step, check, option and
    allowed value the parser accepts, and no other. The repository keeps a copy in
    \(ScenarioSchema.repositoryPath); scenario files point to it on their first line,
    `# yaml-language-server: $schema=../docs/scenario.schema.json`, so editors with a YAML
    language server complete and validate them. The schema checks shapes only: whether a
    name refers to a person, device or session of the file is checked by `groupsim check`.
    """

    static let epilogue = "Exit status: 0; 2 usage error."

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        let parsed = try Self.parse(arguments)
        guard parsed.positional.isEmpty else {
            throw UsageError("schema takes no files, found \"\(parsed.positional[0])\"", hint: Self.usage)
        }
        let schema = ScenarioSchema.render()
        if let output = parsed.value(.output) {
            try OutputFile.write(schema, to: output)
            return CommandResult(.success, output: "wrote \(output)\n")
        }
        return CommandResult(.success, output: schema)
    }
}
