import Foundation
import GroupSim

/// How much work a measurement did, how long the fastest repeat took on the wall clock,
/// and the least CPU time a repeat used.
package struct BenchMeasurement: Sendable {
    package var work: Double
    package var seconds: Double
    /// The process's CPU time over the repeat: what the work cost, which other programs on
    /// a busy machine do not inflate as they do the wall clock.
    package var cpuSeconds: Double = 0

    /// Work per second; 0 when the clock saw no time pass.
    package var rate: Double { seconds > 0 ? work / seconds : 0 }
    /// Work per second of CPU time; 0 when none was measured.
    package var cpuRate: Double { cpuSeconds > 0 ? work / cpuSeconds : 0 }

    /// Runs `body` `repeats` times and keeps the fastest; `body` returns the work it did,
    /// and what it throws ends the measurement. Wall-clock timing lives here, in the
    /// bench, never in the simulation library (determinism rule 1, README).
    package static func measure<Failure: Error>(repeats: Int, _ body: () async throws(Failure) -> Int)
        async throws(Failure) -> BenchMeasurement {
        let clock = ContinuousClock()
        var best: BenchMeasurement?
        var leastCPU = Double.infinity
        for _ in 0..<max(1, repeats) {
            let start = clock.now
            let cpuStart = processCPUSeconds()
            let work = try await body()
            let elapsed = start.duration(to: clock.now)
            leastCPU = min(leastCPU, max(0, processCPUSeconds() - cpuStart))
            // A clock that saw no time pass still gives a finite rate.
            let seconds = max(1e-9, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            if best == nil || seconds < best?.seconds ?? .infinity {
                best = BenchMeasurement(work: Double(work), seconds: seconds)
            }
        }
        best?.cpuSeconds = leastCPU.isFinite ? leastCPU : 0
        return best ?? BenchMeasurement(work: 0, seconds: 0)
    }

    /// The process's CPU time so far, in seconds (every thread); 0 if the system cannot say.
    static func processCPUSeconds() -> Double {
        var spec = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec) == 0 else { return 0 }
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

/// A workload's memory: what the process held when it started, and the peak above that.
///
/// Memory an earlier workload freed may stay resident (malloc keeps it for later), so on
/// Linux the mark first hands free heap pages back to the system (`malloc_trim`), then
/// reads the resident size and starts the peak again from it: the figure is the
/// workload's own growth, not the largest workload's peak run before it.
package struct MemoryMark {
    /// Resident bytes when the workload started; 0 when not known.
    let start: Int
    /// Whether the peak was started again here (else it is the process's so far).
    let fresh: Bool

    package init() {
        ProcessMemory.returnFree()
        start = ProcessMemory.resident()
        fresh = ProcessMemory.resetPeak()
    }

    /// The peak above the start, in bytes (the process's peak where it cannot be reset).
    package var growth: Int {
        let peak = ProcessMemory.peak()
        return fresh && start > 0 ? max(0, peak - start) : peak
    }

    /// `peak memory 120 MB above the 14 MB held before (133 bytes/copy)`.
    package func text(copies: Int) -> String {
        let grown = growth
        let perCopy = copies > 0 && grown > 0 ? " = \(Int((Double(grown) / Double(copies)).rounded()).grouped) bytes/copy" : ""
        guard fresh, start > 0 else { return "peak memory \(Self.megabytes(grown)) (the process's so far)\(perCopy)" }
        return "peak memory \(Self.megabytes(grown)) above the \(Self.megabytes(start)) held before\(perCopy)"
    }

    /// `42 MB`, in units of 2^20 bytes; `unknown` for 0.
    package static func megabytes(_ bytes: Int) -> String {
        bytes > 0 ? "\(Int((Double(bytes) / 1_048_576).rounded()).grouped) MB" : "unknown"
    }
}
