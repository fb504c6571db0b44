import Foundation
import GroupSim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `--output PATH` the way the shell's `>` would, without ever destroying what the
/// tool does not own:
///
/// - an output that is one of the inputs (the same file once links are followed, or the
///   file standard input is for a scenario read from `-`) is refused: "the output would
///   overwrite the input S.yaml";
/// - a file the user may not write (mode 0444) is refused, as `>` refuses it;
/// - a symbolic link is written through to its target, so the link stays;
/// - a regular file is replaced atomically: the text goes to a temporary file in the same
///   folder, which takes the original's permissions and is then renamed over it, so a
///   reader never sees half a report and two runs writing one path leave one whole report;
///   a new file gets the permissions `>` would give it (0666 less the umask); in a folder
///   that forbids new files, a file the user may write is written in place, as `>` does;
/// - a named pipe or a device (`>(gzip > r.gz)`, `/dev/stdout`) is opened and written in
///   place, never replaced;
/// - a folder, or a path whose folder does not exist, is refused and nothing is created.
///
/// Every failure is a `UsageError` (exit status 2) that names the path and the reason.
enum OutputFile {
    /// How many links are followed before giving up, as the system does (ELOOP).
    static let linkLimit = 40
    static let hint = "Choose another --output path."

    /// Checks, before any work is done, that `path` could be written: not an input, not
    /// a folder, in a folder that exists. `write` checks again when it writes.
    static func check(_ path: String?, inputs: [String]) throws {
        guard let path else { return }
        _ = try writable(path, inputs: inputs)
    }

    static func write(_ text: String, to path: String, inputs: [String] = []) throws {
        let target = try writable(path, inputs: inputs)
        let bytes = Array(Markup.terminal(text).utf8)
        var info = stat()
        if lstat(target, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                throw UsageError("cannot write \(path): it is a folder", hint: hint)
            case S_IFREG:
                try replace(target, shown: path, with: bytes, keeping: info)
            default:
                try writeInPlace(target, shown: path, bytes)
            }
            return
        }
        try replace(target, shown: path, with: bytes, keeping: nil)
    }

    /// The file `path` leads to once links are followed, after the checks every write
    /// needs: not one of `inputs`, not a folder, and a folder to create it in.
    private static func writable(_ path: String, inputs: [String]) throws -> String {
        guard !path.isEmpty else { throw UsageError("--output needs a path") }
        for input in inputs {
            if input == ScenarioSource.standardInputPath {
                if standardInputIs(path) {
                    throw UsageError("the output would overwrite the scenario on standard input (\(path) is the file it reads)", hint: hint)
                }
            } else if sameFile(input, path) {
                throw UsageError("the output would overwrite the input \(input)", hint: hint)
            }
        }
        let target = try resolveLinks(path)
        var info = stat()
        if lstat(target, &info) == 0 {
            guard info.st_mode & S_IFMT != S_IFDIR else { throw UsageError("cannot write \(path): it is a folder", hint: hint) }
            // A file the user may not write is refused, as the shell's `>` refuses it,
            // although replacing it through its folder would work.
            if access(target, W_OK) != 0 {
                throw UsageError("cannot write \(path): \(reason(errno))", hint: hint)
            }
            return target
        }
        let code = errno
        guard code == ENOENT else { throw UsageError("cannot write \(path): \(reason(code))", hint: hint) }
        let folder = parent(of: target)
        var folderInfo = stat()
        guard stat(folder, &folderInfo) == 0, folderInfo.st_mode & S_IFMT == S_IFDIR else {
            throw UsageError("cannot write \(path): the folder \(folder) does not exist", hint: hint)
        }
        return target
    }

    /// Both paths name one existing file (the same device and inode, links followed).
    static func sameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Standard input is the regular file `path` names (the same device and inode):
    /// `groupsim run - --output S.yaml < S.yaml`.
    static func standardInputIs(_ path: String) -> Bool {
        var input = stat()
        var output = stat()
        guard fstat(STDIN_FILENO, &input) == 0, input.st_mode & S_IFMT == S_IFREG, stat(path, &output) == 0 else { return false }
        return input.st_dev == output.st_dev && input.st_ino == output.st_ino
    }

    /// `path` with every symbolic link along its last component followed; a link to
    /// nothing gives the path it points to, which the write then creates, as `>` does.
    static func resolveLinks(_ path: String) throws -> String {
        var current = path
        for _ in 0..<linkLimit {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            // A link that leads to a pipe or a device (`/dev/stdout` -> `/proc/self/fd/1`
            // -> `pipe:[…]`, a name no folder holds) is opened as it is, as `>` opens it.
            var followed = stat()
            if stat(current, &followed) == 0, followed.st_mode & S_IFMT != S_IFREG, followed.st_mode & S_IFMT != S_IFDIR {
                return current
            }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else { throw UsageError("cannot write \(path): \(reason(errno))", hint: hint) }
            let destination = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = destination.hasPrefix("/") ? destination : parent(of: current) + "/" + destination
        }
        throw UsageError("cannot write \(path): \(reason(ELOOP))", hint: hint)
    }

    /// The folder holding `path` (`.` for a bare name).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// Writes a temporary file beside `target` and renames it over `target`.
    private static func replace(_ target: String, shown path: String, with bytes: [UInt8], keeping original: stat?) throws {
        let folder = parent(of: target)
        let name = target.split(separator: "/").last.map(String.init) ?? "output"
        var temporary = ""
        var descriptor: Int32 = -1
        // A signal that ends the process while the temporary file exists removes it first
        // (in the real process only: in-process callers keep their own signal handling).
        let cleanup = Interrupts.enabled ? SignalCleanup() : nil
        defer { cleanup?.end() }
        for _ in 0..<16 {
            temporary = "\(folder)/.\(name).groupsim-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
            // Named to the handler before it exists: a signal between the open and the
            // naming left the file behind on a loaded machine. One before the open removes
            // nothing (the name is new, and O_EXCL refuses one that is not).
            cleanup?.remove(temporary)
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor < 0 { cleanup?.remove(nil) }
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else {
            // A folder that forbids new files, holding a file the user may write: written
            // in place, as `>` writes it.
            let code = errno
            if original != nil, code == EACCES || code == EPERM || code == EROFS, access(target, W_OK) == 0 {
                return try writeInPlace(target, shown: path, bytes, truncating: true)
            }
            throw UsageError("cannot write \(path): \(reason(code))", hint: hint)
        }
        var failure: Int32?
        if let original {
            // The replacement keeps the original's permissions (and, for root, its owner).
            if fchmod(descriptor, original.st_mode & 0o7777) != 0 { failure = errno }
            if failure == nil, geteuid() == 0 { _ = fchown(descriptor, original.st_uid, original.st_gid) }
        }
        if failure == nil { failure = writeAll(bytes, to: descriptor) }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil, rename(temporary, target) != 0 { failure = errno }
        if failure == nil { cleanup?.remove(nil) }
        if let failure {
            unlink(temporary)
            cleanup?.remove(nil)
            throw UsageError("cannot write \(path): \(reason(failure))", hint: hint)
        }
    }

    /// Opens a pipe or device that is already there and writes into it.
    private static func writeInPlace(_ target: String, shown path: String, _ bytes: [UInt8], truncating: Bool = false) throws {
        let descriptor = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC | (truncating ? O_TRUNC : 0))
        guard descriptor >= 0 else { throw UsageError("cannot write \(path): \(reason(errno))", hint: hint) }
        let failure = writeAll(bytes, to: descriptor)
        close(descriptor)
        if let failure { throw UsageError("cannot write \(path): \(reason(failure))", hint: hint) }
    }

    /// Writes every byte, retrying short and interrupted writes; the `errno` of a failure.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress, buffer.count)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            offset += written
        }
        return nil
    }

    /// The system's words for an `errno`: "No space left on device".
    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// The system's `write(2)`, under a name that `OutputFile.write` does not hide.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// While `OutputFile` replaces a file: SIGINT, SIGTERM and SIGHUP remove the temporary
/// file it is writing, then end the process as the signal would have (SIGQUIT is ignored
/// for the whole process, `GroupSimProcess`). The handler only calls `unlink`, `signal`
/// and `raise`, which may be called from a signal handler, on a path copied beforehand
/// into memory that stays allocated.
private final class SignalCleanup {
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private var previous: [sigaction] = []

    init() {
        // Touched here, before any handler can run, so the handler never initialises it.
        temporaryPath[0] = 0
        for number in Self.signals {
            var action = sigaction()
            var old = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = removeTemporaryAndRaise
            #else
            action.__sigaction_u.__sa_handler = removeTemporaryAndRaise
            #endif
            sigemptyset(&action.sa_mask)
            for other in Self.signals { sigaddset(&action.sa_mask, other) }
            sigaction(number, &action, &old)
            previous.append(old)
        }
    }

    /// The file the handler removes from now on (nil: none).
    func remove(_ path: String?) {
        guard let path, path.utf8.count <= Int(PATH_MAX) else {
            temporaryPath[0] = 0
            return
        }
        // Written with the signals blocked, so the handler never sees half a path.
        var blocked = sigset_t()
        var old = sigset_t()
        sigemptyset(&blocked)
        for number in Self.signals { sigaddset(&blocked, number) }
        pthread_sigmask(SIG_BLOCK, &blocked, &old)
        for (index, byte) in path.utf8.enumerated() { temporaryPath[index] = CChar(bitPattern: byte) }
        temporaryPath[path.utf8.count] = 0
        pthread_sigmask(SIG_SETMASK, &old, nil)
    }

    /// The handlers as they were before.
    func end() {
        temporaryPath[0] = 0
        for (number, old) in zip(Self.signals, previous) {
            var action = old
            sigaction(number, &action, nil)
        }
    }
}

/// The temporary file `SignalCleanup` removes on a signal: empty when none.
nonisolated(unsafe) private let temporaryPath = UnsafeMutablePointer<CChar>.allocate(capacity: Int(PATH_MAX) + 1)

private func removeTemporaryAndRaise(_ number: Int32) {
    if temporaryPath[0] != 0 { unlink(temporaryPath) }
    signal(number, SIG_DFL)
    raise(number)
}
