import Foundation
import GroupSimTesting
import Testing
import GroupSim

/// The recipes of deploy/ are run, not only read. Each test reads a manifest
/// (the Kubernetes Indexed Job, the GitHub Actions workflow, the Slurm array), puts each
/// shard's index where the engine would, runs that exact command line with the built
/// `groupsim` as a separate process in a temporary folder, runs the recipe's merge step,
/// and compares the merged report with one whole exploration: the same runs, failed
/// runs, outcomes, checks and replay line. A command line that drifts from what the
/// tool accepts exits 2 and fails the test.
///
/// The one setting the tests change is the number of runs (the recipes explore 100,000;
/// a test 200) and, for the workflow and the Slurm script, the scenario's path.
@Suite struct DeployRecipeTests {
    static let scenario = "Scenarios/pickles-race-window.yaml"
    static let runs = 200

    /// The whole exploration, text and JSON, by the built tool, with `file` as given.
    static func whole(_ file: String, in folder: URL) async throws -> (text: String, json: String) {
        let text = try await ProcessRunner.groupsim(["explore", file, "--runs", String(runs)], in: folder)
        let json = try await ProcessRunner.groupsim(["explore", file, "--runs", String(runs), "--format", "json"], in: folder)
        #expect(text.status == 1 && json.status == 1, "the race window fails some runs: \(text.error)")
        return (text.output, json.output)
    }

    /// The runtime stage's `COPY Scenarios /scenarios`: where the image holds the scenarios
    /// (the build stage copies them too, as resources of the tool).
    static func imageScenarioFolder() throws -> String {
        let dockerfile = try String(contentsOfFile: CLI.path("deploy/Dockerfile"), encoding: .utf8)
        let copy = try #require(dockerfile.split(separator: "\n").last { $0.hasPrefix("COPY Scenarios ") })
        return String(copy.split(separator: " ").last ?? "")
    }

    // MARK: - Kubernetes

    /// The Indexed Job's pods, with JOB_COMPLETION_INDEX = 0...N-1, write shard reports
    /// to the shared volume; the merge Job's `groupsim merge /results` gives the whole.
    @Test func kubernetesIndexedJobMergesIntoTheWhole() async throws {
        let job = try ManifestYAML.read("deploy/kubernetes/explore-job.yaml")
        #expect(try job.at("kind").text == "Job")
        #expect(try job.at("spec.completionMode").text == "Indexed")
        let shards = try #require(try job.at("spec.completions").int)
        #expect(try job.at("spec.parallelism").int != nil)
        #expect(try job.at("spec.backoffLimitPerIndex").int ?? 0 >= 1, "a failed pod is retried alone")
        #expect(try job.at("spec.template.spec.restartPolicy").text == "Never", "backoffLimitPerIndex needs restartPolicy Never")
        let container = try #require(try job.at("spec.template.spec.containers").items.first)
        var variables = try container.at("env").nameValues
        #expect(variables["SHARDS"] == String(shards), "completions and SHARDS are both N")
        let mount = try #require(try container.at("volumeMounts").items.first)
        let resultsPath = try #require(mount["mountPath"]?.text)
        let claim = try job.at("spec.template.spec.volumes").items.first?.at("persistentVolumeClaim.claimName").text
        let volumeName = try ManifestYAML.read("deploy/kubernetes/results-volume.yaml").at("metadata.name").text
        #expect(claim != nil && claim == volumeName)
        let command = try container.at("command").strings
        #expect(command == ["/bin/sh", "-c"])
        let script = try #require(try container.at("args").strings.first)

        let folder = try TemporaryFolder.create("kubernetes")
        defer { TemporaryFolder.remove(folder) }
        let results = folder.appendingPathComponent("results")
        try FileManager.default.createDirectory(at: results, withIntermediateDirectories: true)
        let mounts = [try Self.imageScenarioFolder(): CLI.root.appendingPathComponent("Scenarios"), resultsPath: results]
        variables["RUNS"] = String(Self.runs)
        for index in 0..<shards {
            variables["JOB_COMPLETION_INDEX"] = String(index)
            let pod = Substitution.paths(try Substitution.kubernetes(script, variables), mounts)
            let ran = try await ProcessRunner.sh(pod, in: folder)
            #expect(ran.status == 0, "pod \(index): \(ran.error)")
            #expect(ran.output.hasPrefix("wrote \(results.path)/shard-\(index).json"), "pod \(index): \(ran.output)")
        }
        // A retried pod writes the same bytes as its first try.
        let second = results.appendingPathComponent("shard-1.json")
        let before = try Data(contentsOf: second)
        variables["JOB_COMPLETION_INDEX"] = "1"
        let retry = try await ProcessRunner.sh(Substitution.paths(try Substitution.kubernetes(script, variables), mounts), in: folder)
        #expect(retry.status == 0)
        #expect(try Data(contentsOf: second) == before, "a retried shard writes byte-identical JSON")

        let merge = try ManifestYAML.read("deploy/kubernetes/merge-job.yaml")
        let mergeContainer = try #require(try merge.at("spec.template.spec.containers").items.first)
        #expect(try mergeContainer.at("volumeMounts").items.first?["mountPath"]?.text == resultsPath)
        #expect(try merge.at("spec.template.spec.volumes").items.first?.at("persistentVolumeClaim.claimName").text == claim)
        let mergeArguments = try mergeContainer.at("args").strings.map { Substitution.paths($0 + "/", mounts).dropLast() }.map(String.init)
        let merged = try await ProcessRunner.groupsim(mergeArguments, in: folder)
        let whole = try await Self.whole(CLI.root.appendingPathComponent(Self.scenario).path, in: folder)
        #expect(merged.status == 1, "a check failed in some run: \(merged.error)")
        #expect(merged.output == whole.text)
        let json = try await ProcessRunner.groupsim(mergeArguments + ["--format", "json"], in: folder)
        #expect(json.output == whole.json)
    }

    // MARK: - GitHub Actions

    /// The reusable workflow: the plan job's matrix, each shard job's `run` step with its
    /// matrix value, the artifacts gathered as download-artifact would, and the merge job.
    @Test func githubActionsMatrixMergesIntoTheWhole() async throws {
        let workflow = try ManifestYAML.read("deploy/github-actions/groupsim-explore.yml")
        let declared = try workflow.at("on.workflow_call.inputs")
        var inputs: [String: String] = [:]
        for (name, input) in declared.entries { inputs[name] = input["default"]?.text }
        inputs["scenario"] = CLI.root.appendingPathComponent(Self.scenario).path
        inputs["runs"] = String(Self.runs)
        let jobs = try workflow.at("jobs")

        let folder = try TemporaryFolder.create("github-actions")
        defer { TemporaryFolder.remove(folder) }
        let tool = try ProcessRunner.builtTool()

        // plan: the matrix values.
        let planStep = try #require(try jobs.at("plan.steps").items.first { $0["id"]?.text == "indices" })
        let planEnvironment = try planStep.at("env").scalars.mapValues { try Substitution.github($0, inputs: inputs, matrix: [:]) }
        let outputFile = folder.appendingPathComponent("plan-output")
        var environment = planEnvironment
        environment["GITHUB_OUTPUT"] = outputFile.path
        let plan = try await ProcessRunner.bash(try #require(planStep["run"]?.text), in: folder, environment: environment)
        #expect(plan.status == 0, "\(plan.output)")
        let planned = try String(contentsOf: outputFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let indices = try JSONDecoder().decode([Int].self, from: Data(try #require(planned.split(separator: "=", maxSplits: 1).last).utf8))
        #expect(indices == Array(0..<(Int(inputs["shards"] ?? "") ?? -1)))
        #expect(try jobs.at("shard.strategy.matrix.shard").text == "${{ fromJSON(needs.plan.outputs.indices) }}")
        #expect(try jobs.at("shard.needs").strings.contains("plan"))

        // shard: one job per matrix value, in a workspace of its own.
        let shardSteps = try jobs.at("shard.steps").items
        let explore = try #require(shardSteps.first { $0["run"]?.text?.contains(" explore ") ?? false })
        let exploreScript = try #require(explore["run"]?.text)
        #expect(!exploreScript.contains("${{"), "scripts read inputs from env")
        let upload = try #require(shardSteps.first { $0["uses"]?.text?.hasPrefix("actions/upload-artifact@") ?? false })
        let mergeWorkspace = folder.appendingPathComponent("merge")
        let downloads = try jobs.at("merge.steps").items.filter { $0["uses"]?.text?.hasPrefix("actions/download-artifact@") ?? false }
        let reportsDownload = try #require(downloads.first { $0["with"]?["pattern"] != nil })
        let pattern = try #require(try reportsDownload.at("with.pattern").text)
        let reports = mergeWorkspace.appendingPathComponent(try #require(try reportsDownload.at("with.path").text))
        try FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
        for index in indices {
            let matrix = ["shard": String(index)]
            let workspace = folder.appendingPathComponent("shard-\(index)")
            let environment = try explore.at("env").scalars.mapValues { try Substitution.github($0, inputs: inputs, matrix: matrix) }
            try Self.install(tool, at: workspace.appendingPathComponent(try #require(environment["GROUPSIM"])))
            let ran = try await ProcessRunner.bash(exploreScript, in: workspace, environment: environment)
            #expect(ran.status == 0, "shard \(index): \(ran.error)")
            let artifact = try Substitution.github(try #require(try upload.at("with.name").text), inputs: inputs, matrix: matrix)
            #expect(artifact.hasPrefix(String(pattern.dropLast())) && pattern.hasSuffix("*"), "the merge job downloads \(artifact)")
            let path = try Substitution.github(try #require(try upload.at("with.path").text), inputs: inputs, matrix: matrix)
            let report = workspace.appendingPathComponent(path)
            try FileManager.default.copyItem(at: report, to: reports.appendingPathComponent(report.lastPathComponent))
        }

        // merge: needs every shard, reads the downloaded reports.
        #expect(try jobs.at("merge.needs").strings.contains("shard"))
        let mergeStep = try #require(try jobs.at("merge.steps").items.first { $0["id"]?.text == "merge" })
        let mergeEnvironment = try mergeStep.at("env").scalars.mapValues { try Substitution.github($0, inputs: inputs, matrix: [:]) }
        try Self.install(tool, at: mergeWorkspace.appendingPathComponent(try #require(mergeEnvironment["GROUPSIM"])))
        let merged = try await ProcessRunner.bash(try #require(mergeStep["run"]?.text), in: mergeWorkspace, environment: mergeEnvironment)
        let whole = try await Self.whole(inputs["scenario"] ?? "", in: folder)
        #expect(merged.status == 1, "the workflow fails when a check failed: \(merged.error)")
        #expect(merged.output.hasPrefix(whole.text))
        let replay = try #require(whole.text.split(separator: "\n").first { $0.hasPrefix("replay: ") })
        #expect(merged.output.contains("::error title=groupsim: a check failed in some run::\(replay)\n"))
        #expect(try String(contentsOf: mergeWorkspace.appendingPathComponent("merged.json"), encoding: .utf8) == whole.json)
    }

    /// Copies the built tool to where a workflow step expects it (as download-artifact
    /// would, without the executable bit: the step sets it).
    static func install(_ tool: URL, at destination: URL) throws {
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: tool, to: destination)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: destination.path)
    }

    // MARK: - Slurm

    /// The job array: task I runs with SLURM_ARRAY_TASK_ID = I; merge.sh gives the whole.
    @Test func slurmArrayMergesIntoTheWhole() async throws {
        let script = try String(contentsOfFile: CLI.path("deploy/slurm/explore-array.sh"), encoding: .utf8)
        let array = try #require(script.split(separator: "\n").first { $0.hasPrefix("#SBATCH --array=") })
        let bounds = array.dropFirst("#SBATCH --array=".count).split(separator: "-").compactMap { Int($0) }
        #expect(bounds.count == 2 && bounds.first == 0)
        let last = try #require(bounds.last)
        let shards = try #require(script.split(separator: "\n").first { $0.hasPrefix("SHARDS=${SHARDS:-") })
        #expect(shards == "SHARDS=${SHARDS:-\(last + 1)}", "--array=0-(N-1) and SHARDS=N")

        let folder = try TemporaryFolder.create("slurm")
        defer { TemporaryFolder.remove(folder) }
        let results = folder.appendingPathComponent("results")
        try FileManager.default.createDirectory(at: results, withIntermediateDirectories: true)
        let tool = try ProcessRunner.builtTool().path
        let file = CLI.root.appendingPathComponent(Self.scenario).path
        var environment = ["SCENARIO": file, "RUNS": String(Self.runs), "RESULTS": results.path, "GROUPSIM": tool,
                           "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": String(last)]
        for index in 0...last {
            environment["SLURM_ARRAY_TASK_ID"] = String(index)
            let ran = try await ProcessRunner.run("/bin/bash", [CLI.path("deploy/slurm/explore-array.sh")], in: folder,
                environment: environment)
            #expect(ran.status == 0, "task \(index): \(ran.error)")
        }
        // An array longer than SHARDS is refused before anything runs.
        environment["SLURM_ARRAY_TASK_MAX"] = String(last + 1)
        let mismatched = try await ProcessRunner.run("/bin/bash", [CLI.path("deploy/slurm/explore-array.sh")], in: folder,
            environment: environment)
        #expect(mismatched.status == 2 && mismatched.error.contains("keep --array=0-\(last)"))

        let merged = try await ProcessRunner.run("/bin/bash", [CLI.path("deploy/slurm/merge.sh")], in: folder,
                                                  environment: ["RESULTS": results.path, "GROUPSIM": tool])
        let whole = try await Self.whole(file, in: folder)
        #expect(merged.status == 1, "\(merged.error)")
        #expect(merged.output == whole.text)
    }

    // MARK: - Drift and the image

    /// A command line that drifts from what the tool accepts fails the way the tests run
    /// it: the Kubernetes pod script with a misspelt option exits 2 and says why.
    @Test func driftedCommandLineFails() async throws {
        let job = try ManifestYAML.read("deploy/kubernetes/explore-job.yaml")
        let container = try #require(try job.at("spec.template.spec.containers").items.first)
        let script = try #require(try container.at("args").strings.first)
        #expect(script.contains(" --shard $(JOB_COMPLETION_INDEX)/$(SHARDS) "))
        var variables = try container.at("env").nameValues
        variables["JOB_COMPLETION_INDEX"] = "0"
        variables["RUNS"] = "10"
        let folder = try TemporaryFolder.create("drift")
        defer { TemporaryFolder.remove(folder) }
        let mounts = [try Self.imageScenarioFolder(): CLI.root.appendingPathComponent("Scenarios"), "/results": folder]
        let drifted = script.replacingOccurrences(of: " --shard ", with: " --shards ")
        let ran = try await ProcessRunner.sh(Substitution.paths(try Substitution.kubernetes(drifted, variables), mounts), in: folder)
        #expect(ran.status == 2)
        #expect(ran.error.contains("unknown option \"--shards\" for explore"))
        #expect(throws: Substitution.Unknown.self) { try Substitution.kubernetes("--runs $(RUN)", variables) }
    }

    /// The image recipe (Docker does not run where these tests run): it copies files that
    /// exist and that the ignore file lets through, builds the package's `groupsim`
    /// product, puts it on the PATH and makes it the entry point, and holds the
    /// scenarios where the Kubernetes Job reads them.
    @Test func dockerfileMatchesThePackage() throws {
        let dockerfile = try String(contentsOfFile: CLI.path("deploy/Dockerfile"), encoding: .utf8)
        let lines = dockerfile.split(separator: "\n").map(String.init)
        let ignore = try String(contentsOfFile: CLI.path("deploy/Dockerfile.dockerignore"), encoding: .utf8)
        let kept = Set(ignore.split(separator: "\n").filter { $0.hasPrefix("!") }.map { String($0.dropFirst()) })
        var copied: Set<String> = []
        for line in lines where line.hasPrefix("COPY ") && !line.contains("--from=") {
            for source in line.split(separator: " ").dropFirst().dropLast().map(String.init) {
                copied.insert(source)
                #expect(FileManager.default.fileExists(atPath: CLI.path(source)), "\(line)")
                #expect(kept.contains(source), "\(source) is left out of the build context")
            }
        }
        // The tool's resources (Scenarios/ and the help documents) are in the build, and
        // their bundle goes beside the binary, where the tool looks for it.
        for resource in ["Scenarios", "docs/behaviour.md", "docs/scenario-format.md"] {
            #expect(copied.contains(resource), "the build stage does not copy \(resource)")
        }
        #expect(lines.contains { $0.hasPrefix("COPY --from=build /out/GroupSim_GroupSimScenarios.resources /usr/local/bin/") })
        let package = try String(contentsOfFile: CLI.path("Package.swift"), encoding: .utf8)
        #expect(package.contains(".executable(name: \"groupsim\""))
        #expect(lines.contains { $0.contains("swift build -c release --static-swift-stdlib --product groupsim") })
        #expect(lines.contains("COPY --from=build /out/groupsim /usr/local/bin/groupsim"))
        #expect(lines.contains("ENTRYPOINT [\"groupsim\"]"))
        #expect(try Self.imageScenarioFolder() == "/scenarios")
        let job = try String(contentsOfFile: CLI.path("deploy/kubernetes/explore-job.yaml"), encoding: .utf8)
        #expect(job.contains("groupsim explore /scenarios/"))
    }
}
