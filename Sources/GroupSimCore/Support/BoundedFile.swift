#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file named in user input without trusting it: at most a given number of
/// bytes, never blocking on a pipe that has no writer, and saying what kind of thing the
/// path named when it is not something to read.
///
/// `/proc/self/pagemap` reports a size of 0 and reads gigabytes, `/dev/zero` never ends,
/// and a FIFO with no writer blocks forever: every reader of a path from a scenario goes
/// through here so that none of them can run out of memory or hang where it was not
/// asked to wait (a named pipe is waited for only when special files are allowed).
package enum BoundedFile {
    /// What the path (after following symbolic links) named.
    package enum Kind: Equatable, Sendable {
        case regular
        case directory
        /// A FIFO, socket, character or block device.
        case special
    }

    /// Why nothing, or not all of it, was read.
    package enum Failure: Error, Equatable, Sendable {
        /// Nothing at the path, or a symbolic link to nothing.
        case notFound
        /// Permission denied, or the read failed.
        case unreadable
        /// A directory, or a special file when only regular files are accepted.
        case notAFile(Kind)
        /// The content goes on past `limit` bytes: the first `limit + 1` were seen.
        case tooLarge
    }

    /// The kind of what `path` names, following symbolic links; nil when nothing is there.
    static func kind(of path: String) -> Kind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return kind(info.st_mode)
    }

    private static func kind(_ mode: mode_t) -> Kind {
        switch mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        default: .special
        }
    }

    /// The bytes of `path`, at most `limit` of them.
    ///
    /// Opens without blocking (a FIFO with no writer opens at once), then checks what the
    /// open descriptor names, so that the check and the read see the same file. Only a
    /// regular file is read unless `allowSpecial` is set (for a scenario given as a pipe,
    /// `<(…)`); a special file is then read in blocking mode, still at most `limit + 1`
    /// bytes, and a named pipe with no writer yet is waited for, as `cat` waits. A file longer than `limit` is `.tooLarge`, whatever size
    /// it reports.
    package static func read(_ path: String, limit: Int, allowSpecial: Bool = false) -> Result<[UInt8], Failure> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT, ENOTDIR, ELOOP: return .failure(.notFound)
            case EISDIR: return .failure(.notAFile(.directory))
            default: return .failure(.unreadable)
            }
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable) }
        let kind = kind(info.st_mode)
        switch kind {
        case .regular: break
        case .directory: return .failure(.notAFile(.directory))
        case .special:
            guard allowSpecial else { return .failure(.notAFile(.special)) }
            if info.st_mode & S_IFMT == S_IFIFO {
                // A named pipe is opened again, waiting for its writer as `cat` does: the
                // first open did not wait, and would read an end of file at once.
                let waiting = open(path, O_RDONLY | O_CLOEXEC)
                guard waiting >= 0 else { return .failure(.unreadable) }
                defer { close(waiting) }
                var reopened = stat()
                guard fstat(waiting, &reopened) == 0, reopened.st_dev == info.st_dev, reopened.st_ino == info.st_ino else {
                    return .failure(.unreadable)
                }
                return readAll(waiting, limit: limit)
            }
            // Back to blocking reads: a device may not have anything to read yet.
            let flags = fcntl(descriptor, F_GETFL)
            guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else { return .failure(.unreadable) }
        }
        return readAll(descriptor, limit: limit)
    }

    /// What `path` names, in words, for a message: "a named pipe (FIFO)", "a character
    /// device"; nil when nothing is there.
    package static func description(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return "a file"
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a named pipe (FIFO)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a file"
        }
    }

    /// At most `limit + 1` bytes from an open descriptor, to its end; a read a signal
    /// interrupts is tried again (Foundation's `readDataToEndOfFile` stops the process on
    /// `EINTR`, which a test reading a child's pipe meets when another child ends).
    package static func readAll(_ descriptor: Int32, limit: Int) -> Result<[UInt8], Failure> {
        let wanted = max(0, limit) + 1
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: min(wanted, 1 << 16))
        while bytes.count < wanted {
            let asked = min(chunk.count, wanted - bytes.count)
            let count = chunk.withUnsafeMutableBytes { buffer in systemRead(descriptor, buffer.baseAddress, asked) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes.count > limit ? .failure(.tooLarge) : .success(bytes)
    }

    /// The C library's `read`, which the enum's own `read` hides.
    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }
}
