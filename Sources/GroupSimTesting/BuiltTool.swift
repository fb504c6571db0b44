import Foundation
import Testing

/// Runs the built `groupsim` executable as a separate process, for what only a process
/// shows: its standard input and output, signals, its exit status and the folder it is
/// started from. Every file a test gives it lives in a temporary folder of its own.
package enum BuiltTool {
    /// A launcher that starts the tool at a low priority (`nice -n 10`: about a tenth of a
    /// core's share against the tests), for an exploration that runs until the test
    /// signals it: at normal priority five of them took most of a 2-core machine from the
    /// test process, which then signalled them minutes late.
    package static let lowPriority = ["/usr/bin/nice", "-n", "10"]

    /// How a process ended and what it wrote.
    package struct Ended {
        package var status: Int32
        /// True when a signal ended it; `status` is then the signal's number.
        package var bySignal: Bool
        package var output: String
        package var error: String
    }

    /// A started process, working in `folder`, whose output and errors go to files in a
    /// temporary folder of their own.
    package final class Running: @unchecked Sendable {
        package let process = Process()
        package let captures: URL
        private let ended = DispatchSemaphore(value: 0)

        package init(_ arguments: [String], in folder: URL, input: URL? = nil, output: FileHandle? = nil,
             launcher: [String] = []) throws {
            captures = try TemporaryFolder.create("tool-captures")
            let executable = try ProcessRunner.builtTool()
            if launcher.isEmpty {
                process.executableURL = executable
                process.arguments = arguments
            } else {
                process.executableURL = URL(fileURLWithPath: launcher[0])
                process.arguments = Array(launcher.dropFirst()) + [executable.path] + arguments
            }
            process.currentDirectoryURL = folder
            let outputPath = captures.appendingPathComponent("stdout")
            let errorPath = captures.appendingPathComponent("stderr")
            _ = FileManager.default.createFile(atPath: outputPath.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errorPath.path, contents: nil)
            process.standardOutput = try output ?? FileHandle(forWritingTo: outputPath)
            process.standardError = try FileHandle(forWritingTo: errorPath)
            if let input {
                process.standardInput = try FileHandle(forReadingFrom: input)
            } else {
                process.standardInput = FileHandle.nullDevice
            }
            let ended = ended
            process.terminationHandler = { _ in ended.signal() }
            try process.run()
        }

        package var pid: Int32 { process.processIdentifier }

        package func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

        /// Waits for the end, at most `limit` seconds; a process still going then is
        /// killed and reported, so a broken test never hangs the suite.
        package func wait(limit: Int = 300) async -> Ended {
            let ended = ended
            // A thread of its own: the shared pools have as few threads as cores, and a
            // blocking wait there could hold up the work it waits for.
            let finished = await withCheckedContinuation { continuation in
                Thread {
                    continuation.resume(returning: ended.wait(timeout: .now() + .seconds(limit)) == .success)
                }.start()
            }
            if !finished {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                Issue.record("groupsim \(process.arguments ?? []) did not end within \(limit) s")
            }
            let output = (try? String(contentsOf: captures.appendingPathComponent("stdout"), encoding: .utf8)) ?? ""
            let error = (try? String(contentsOf: captures.appendingPathComponent("stderr"), encoding: .utf8)) ?? ""
            TemporaryFolder.remove(captures)
            return Ended(status: process.terminationStatus, bySignal: process.terminationReason == .uncaughtSignal,
                         output: output, error: error)
        }

        /// Sends `signal` once the process takes it itself (Linux: its SigCgt mask in
        /// /proc; elsewhere after a moment), `delay` seconds after that, and again `gap`
        /// seconds later when given. The waiting and sending happen on a thread of its own:
        /// polled from the shared pool, which has as few threads as cores, the signal of an
        /// exploration that runs until signalled came minutes late whenever other tests held
        /// both threads, and the exploration ran on all that time.
        package func sendOnceCaught(_ signal: Int32, after delay: Double = 0, again gap: Double? = nil) async {
            let pid = pid
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread {
                    Self.waitUntilCatching(signal, pid: pid)
                    if delay > 0 { Thread.sleep(forTimeInterval: delay) }
                    kill(pid, signal)
                    if let gap {
                        if gap > 0 { Thread.sleep(forTimeInterval: gap) }
                        kill(pid, signal)
                    }
                    continuation.resume()
                }.start()
            }
        }

        private static func waitUntilCatching(_ signal: Int32, pid: Int32) {
            let status = "/proc/\(pid)/status"
            guard FileManager.default.fileExists(atPath: status) else {
                Thread.sleep(forTimeInterval: 2)
                return
            }
            for _ in 0..<600 {
                if let text = try? String(contentsOfFile: status, encoding: .utf8),
                   let line = text.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
                   let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16),
                   mask & (1 << UInt64(signal - 1)) != 0 {
                    return
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    /// Runs to the end.
    package static func run(_ arguments: [String], in folder: URL, input: URL? = nil, output: FileHandle? = nil,
                    launcher: [String] = []) async throws -> Ended {
        let running = try Running(arguments, in: folder, input: input, output: output, launcher: launcher)
        return await running.wait()
    }
}
