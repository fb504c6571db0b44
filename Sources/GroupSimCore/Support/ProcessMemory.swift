#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What this process may hold and holds: the limit set on it (for the budgets of `run`
/// and `explore`) and its resident and peak memory (for `groupsim bench`). Read from
/// the system, so never part of what a simulation decides.
package enum ProcessMemory {
    /// The smallest memory limit set on this process (`ulimit -v`, `ulimit -d`, a
    /// container's memory limit), in bytes, if any.
    package static func limit() -> Int? {
        var limits: [Int] = []
        for resource in [RLIMIT_AS, RLIMIT_DATA] {
            var value = rlimit()
            #if canImport(Glibc)
            let status = getrlimit(__rlimit_resource_t(resource.rawValue), &value)
            #else
            let status = getrlimit(resource, &value)
            #endif
            // RLIM_INFINITY is the largest value.
            if status == 0, value.rlim_cur < rlim_t(Int.max) { limits.append(Int(value.rlim_cur)) }
        }
        for file in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            guard case .success(let bytes) = BoundedFile.read(file, limit: 64),
                  let value = Int(String(decoding: bytes, as: UTF8.self).split(separator: "\n").first ?? ""),
                  value > 0, value < 1 << 60 else { continue }
            limits.append(value)
        }
        return limits.min()
    }

    /// Hands the heap's free pages back to the system where the C library can (glibc's
    /// `malloc_trim`, looked up at run time: Swift's Glibc module does not declare it).
    package static func returnFree() {
        #if os(Linux)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(nil, "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }

    /// The resident memory now, in bytes (`VmRSS`); 0 where it is not known.
    package static func resident() -> Int { statusKilobytes("VmRSS:").map { $0 * 1_024 } ?? 0 }

    /// Starts the peak resident memory again from what is held now (Linux: `5` to
    /// /proc/self/clear_refs). False where the system cannot (the peak is then the
    /// process's so far).
    package static func resetPeak() -> Bool {
        #if os(Linux)
        let file = open("/proc/self/clear_refs", O_WRONLY)
        guard file >= 0 else { return false }
        defer { close(file) }
        return write(file, "5", 1) == 1
        #else
        return false
        #endif
    }

    /// The peak resident memory so far, in bytes: `VmHWM` in /proc/self/status, else
    /// getrusage's `ru_maxrss`; 0 when neither is available.
    package static func peak() -> Int {
        if let kilobytes = statusKilobytes("VmHWM:") { return kilobytes * 1_024 }
        var usage = rusage()
        #if os(Linux)
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss) * 1_024
        #else
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)
        #endif
    }

    /// A `kB` figure of /proc/self/status (Linux), or nil.
    private static func statusKilobytes(_ field: String) -> Int? {
        guard case .success(let bytes) = BoundedFile.read("/proc/self/status", limit: 65_536),
              let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
