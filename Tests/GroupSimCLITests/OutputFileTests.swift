import Foundation
import GroupSimCore
import GroupSimTesting
import Testing
import GroupSimCLI

/// `--output PATH` writes as the shell's `>` would and never destroys what the tool does
/// not own. Every path is made in a temporary folder of the test's.
@Suite struct OutputFileTests {
    static let scenario = CLI.path("Scenarios/pickles-race.yaml")

    /// A copy of the scenario in a fresh folder.
    static func folderWithScenario() throws -> (folder: URL, scenario: String) {
        let folder = try TemporaryFolder.create("output-file")
        let copy = folder.appendingPathComponent("S.yaml").path
        try FileManager.default.copyItem(atPath: scenario, toPath: copy)
        return (folder, copy)
    }

    static func report() async -> String { await CLI.run(["run", scenario]).output }

    /// The names in a folder.
    static func names(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    static func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? NSNumber)?.intValue ?? -1
    }

    static func type(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    @Test func refusesToOverwriteTheInput() async throws {
        let (folder, input) = try Self.folderWithScenario()
        defer { TemporaryFolder.remove(folder) }
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let link = folder.appendingPathComponent("link.yaml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "S.yaml")
        let hard = folder.appendingPathComponent("hard.yaml").path
        try FileManager.default.linkItem(atPath: input, toPath: hard)
        // The same file by its name, through a link, as a hard link, and the link as input.
        for (given, output) in [(input, input), (input, link), (input, hard), (link, input)] {
            for command in [["run", given], ["explore", given, "--runs", "2"], ["shrink", given]] {
                let result = await CLI.run(command + ["--output", output])
                #expect(result.status == 2, "\(command) --output \(output)")
                #expect(result.error.contains("the output would overwrite the input \(given)"), "\(result.error)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
        #expect(Self.type(link) == .typeSymbolicLink)
    }

    @Test func writesThroughASymbolicLinkAndKeepsIt() async throws {
        let (folder, input) = try Self.folderWithScenario()
        defer { TemporaryFolder.remove(folder) }
        let target = folder.appendingPathComponent("report.txt").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let link = folder.appendingPathComponent("latest").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "report.txt")
        let result = await CLI.run(["run", input, "--output", link])
        #expect(result.status == 0, "\(result.error)")
        #expect(Self.type(link) == .typeSymbolicLink)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "report.txt")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == (await CLI.run(["run", input])).output)
        // A link to nothing yet: its target is created, as `>` does.
        let dangling = folder.appendingPathComponent("next").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "made.txt")
        #expect(await CLI.run(["run", input, "--output", dangling]).status == 0)
        #expect(Self.type(dangling) == .typeSymbolicLink)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("made.txt").path))
    }

    @Test func replacesARegularFileAtomicallyKeepingItsPermissions() async throws {
        let (folder, input) = try Self.folderWithScenario()
        defer { TemporaryFolder.remove(folder) }
        let target = folder.appendingPathComponent("report.txt").path
        try Data(String(repeating: "old report\n", count: 10_000).utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target)
        let result = await CLI.run(["run", input, "--output", target])
        #expect(result.status == 0, "\(result.error)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == (await CLI.run(["run", input])).output)
        #expect(Self.mode(target) == 0o640)
        #expect(Self.type(target) == .typeRegular)
        // No temporary file is left beside it.
        #expect(Self.names(folder) == ["S.yaml", "report.txt"])
    }

    /// Two runs writing one path at once leave one whole report, never a mix.
    @Test func concurrentWritersLeaveOneWholeReport() async throws {
        let (folder, input) = try Self.folderWithScenario()
        defer { TemporaryFolder.remove(folder) }
        let target = folder.appendingPathComponent("report.json").path
        let text = await CLI.run(["run", input, "--format", "json"]).output
        let html = await CLI.run(["run", input, "--format", "html"]).output
        await withTaskGroup(of: Void.self) { group in
            for round in 0..<6 {
                group.addTask { _ = await CLI.run(["run", input, "--format", round % 2 == 0 ? "json" : "html", "--output", target]) }
            }
        }
        let written = try String(contentsOfFile: target, encoding: .utf8)
        #expect(written == text || written == html)
        #expect(Self.names(folder) == ["S.yaml", "report.json"])
    }

    @Test func writesANamedPipeInPlace() async throws {
        let (folder, input) = try Self.folderWithScenario()
        defer { TemporaryFolder.remove(folder) }
        let fifo = folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // A reader on a thread of its own, as `mkfifo f; cat f` in another shell.
        let received = ReceivedText()
        let done = DispatchSemaphore(value: 0)
        Thread {
            let descriptor = open(fifo, O_RDONLY)
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while descriptor >= 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                bytes += buffer[..<count]
            }
            if descriptor >= 0 { close(descriptor) }
            received.text = String(decoding: bytes, as: UTF8.self)
            done.signal()
        }.start()
        // The groupsim process writes it, so that opening the pipe blocks no thread here.
        let ended = try await BuiltTool.run(["run", input, "--output", fifo], in: folder)
        #expect(ended.status == 0, "\(ended.error)")
        await withCheckedContinuation { continuation in
            Thread {
                done.wait()
                continuation.resume()
            }.start()
        }
        #expect(received.text == (await CLI.run(["run", input])).output)
        #expect(Self.isFifo(fifo), "the pipe is still a pipe, not a regular file")
    }

    /// A link that leads to a pipe under a name no folder holds, as `/dev/stdout` does:
    /// `/proc/self/fd/1` of a process whose standard output is a pipe (Linux).
    @Test func writesThroughALinkToAPipe() async throws {
        guard FileManager.default.fileExists(atPath: "/proc/self/fd/1") else { return }
        let (folder, input) = try Self.folderWithScenario()
        defer { TemporaryFolder.remove(folder) }
        let pipe = Pipe()
        let running = try BuiltTool.Running(["run", input, "--output", "/proc/self/fd/1"], in: folder, output: pipe.fileHandleForWriting)
        try pipe.fileHandleForWriting.close()
        let ended = await running.wait()
        let received = String(decoding: try BoundedFile.readAll(pipe.fileHandleForReading.fileDescriptor, limit: 1 << 26).get(),
                              as: UTF8.self)
        #expect(ended.status == 0, "\(ended.error)")
        let report = await CLI.run(["run", input]).output
        #expect(received.hasPrefix(report), "\(received.prefix(200))")
        #expect(received.hasSuffix("wrote /proc/self/fd/1; 7 of 7 checks held; trace: " +
            "\(report.split(separator: "\n").last.map { $0.dropFirst("trace: ".count) } ?? "")\n"))
    }

    static func isFifo(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO
    }

    @Test func refusesAFolderAndAMissingFolderCreatingNothing() async throws {
        let (folder, input) = try Self.folderWithScenario()
        defer { TemporaryFolder.remove(folder) }
        let before = Self.names(folder)
        let cases = [
            (folder.path, "it is a folder"),
            (folder.appendingPathComponent("missing/report.txt").path,
                "the folder \(folder.appendingPathComponent("missing").path) does not exist"),
        ]
        for (output, reason) in cases {
            let result = await CLI.run(["run", input, "--output", output])
            #expect(result.status == 2)
            #expect(result.error.contains("cannot write \(output): \(reason)"), "\(result.error)")
        }
        #expect(Self.names(folder) == before)
    }

    /// A write that fails is exit 2 with a message: the folder is
    /// writable but the file is over the process's file size limit (`ulimit -f`), and the
    /// file that was there is left as it was.
    @Test func aFailedWriteExitsTwoAndKeepsTheOldFile() async throws {
        let (folder, input) = try Self.folderWithScenario()
        defer { TemporaryFolder.remove(folder) }
        let target = folder.appendingPathComponent("report.html").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let ended = try await BuiltTool.run(["run", input, "--format", "html", "--output", target], in: folder,
                                            launcher: ["/bin/sh", "-c", "ulimit -f 8; exec \"$0\" \"$@\""])
        #expect(!ended.bySignal, "ended by signal \(ended.status): \(ended.error)")
        #expect(ended.status == 2)
        #expect(ended.error.contains("groupsim: error: cannot write \(target): File too large"), "\(ended.error)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
        #expect(Self.names(folder) == ["S.yaml", "report.html"])
    }
}

/// Text a reader thread hands back.
final class ReceivedText: @unchecked Sendable {
    var text = ""
}
