#!/usr/bin/env python3
"""Figure (a) of `groupsim bench` against a peer a user could pick instead: SimPy.

Runs the workload of bench's (a) written with SimPy (a discrete-event library for
Python), then `groupsim bench --only a` on the same machine in the same invocation, and
prints both rates and their ratio, on the wall clock and on CPU time. The absolute rates
hold only for the machine that printed them; the ratio is the figure that travels.

The workload is (a)'s as `Sources/GroupSimBench/BenchWorkload.swift` builds it
(`group(devices:messagesEach:)`): 32 devices in one conversation; device i sends message
m of its own session s<i> at m x 10 ms + i x 10 ms / 32; each send adds the sender's
bubble and fans out a copy to each of the 31 other devices, arriving after the latency
(50 ms, no jitter); on arrival the receiver adds the bubble and collapses the session's
previous one (M10). One SimPy event per copy, as a SimPy user writes a copy with a
delay of its own (the simulation, on a network with one delay, keeps a fan-out's copies
as one run beside its queue: docs/performance.md).

SimPy is installed into a virtual environment (default: $XDG_CACHE_HOME/groupsim/simpy-venv,
else ~/.cache/...) when it cannot be imported; the Swift package itself has no dependency.
The target for the ratio is read from Benchmarks/Thresholds.json (`a-over-simpy`), the file
`groupsim bench` reads its ratios' targets from.

usage: scripts/bench-simpy.py [--groupsim PATH] [--messages N] [--repeats N] [--venv DIR]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIMPY_VERSION = "4.1.2"


def ensure_simpy(venv):
    """Imports simpy, or re-runs this script in a virtual environment that has it."""
    try:
        import simpy  # noqa: F401
        return
    except ImportError:
        pass
    if os.environ.get("GROUPSIM_SIMPY_REEXEC"):
        sys.exit("bench-simpy: simpy is still missing in %s" % venv)
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        print("bench-simpy: installing SimPy %s into %s" % (SIMPY_VERSION, venv), file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    probe = subprocess.run([python, "-c", "import simpy"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "--quiet", "simpy==" + SIMPY_VERSION], check=True)
    os.environ["GROUPSIM_SIMPY_REEXEC"] = "1"
    os.execv(python, [python, os.path.abspath(__file__)] + sys.argv[1:])


def simpy_copies(devices, messages, round_ns=10_000_000, latency_ns=50_000_000):
    """Runs (a)'s workload on SimPy's clock (integer nanoseconds); returns the copies delivered."""
    import simpy

    env = simpy.Environment()
    # A transcript is a list of bubbles [message, session, collapsed]; `live` finds each
    # session's live bubble, as the simulation's transcript does.
    transcripts = [[] for _ in range(devices)]
    live = [{} for _ in range(devices)]
    delivered = [0]

    def add_bubble(device, session, message):
        transcript, places = transcripts[device], live[device]
        previous = places.get(session)
        if previous is not None:
            transcript[previous][2] = True
        places[session] = len(transcript)
        transcript.append([message, session, False])

    def arrive(event):
        receiver, session, message = event.value
        delivered[0] += 1
        add_bubble(receiver, session, message)

    next_message = [1]

    def sender(device):
        session = "s%d" % device
        for number in range(messages):
            due = number * round_ns + device * round_ns // devices
            if due > env.now:
                yield env.timeout(due - env.now)
            message = next_message[0]
            next_message[0] += 1
            add_bubble(device, session, message)
            for receiver in range(devices):
                if receiver == device:
                    continue
                copy = env.timeout(latency_ns, value=(receiver, session, message))
                copy.callbacks.append(arrive)

    for device in range(devices):
        env.process(sender(device))
    env.run()
    return delivered[0]


def measure(body, repeats):
    """The fastest of `repeats` runs on the wall clock and the least CPU time: (work, wall, cpu)."""
    best_wall, least_cpu, work = float("inf"), float("inf"), 0
    for _ in range(max(1, repeats)):
        wall, cpu = time.perf_counter(), time.process_time()
        work = body()
        best_wall = min(best_wall, time.perf_counter() - wall)
        least_cpu = min(least_cpu, time.process_time() - cpu)
    return work, best_wall, least_cpu


def groupsim_a(groupsim, messages):
    """`groupsim bench --only a`'s copies, wall rate and CPU rate."""
    result = subprocess.run([groupsim, "bench", "--only", "a", "--messages", str(messages)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("bench-simpy: %s bench failed (exit %d):\n%s" % (groupsim, result.returncode, result.stderr))
    line = next((l for l in result.stdout.splitlines() if l.startswith("(a) ")), None)
    found = line and re.search(r"copies delivered: ([\d,]+) in .*? = ([\d,]+) copies/s.*on CPU time .*? = ([\d,]+) copies/s", line)
    if not found:
        sys.exit("bench-simpy: no (a) line in:\n" + result.stdout)
    number = lambda text: float(text.replace(",", ""))
    return result.stdout, number(found.group(1)), number(found.group(2)), number(found.group(3))


def target():
    """The minimum of `a-over-simpy` in Benchmarks/Thresholds.json, or None."""
    try:
        with open(os.path.join(ROOT, "Benchmarks", "Thresholds.json")) as handle:
            ratios = json.load(handle)["ratios"]
        return next((r.get("min") for r in ratios if r.get("id") == "a-over-simpy"), None)
    except (OSError, ValueError, KeyError):
        return None


def main():
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--groupsim", default=os.path.join(ROOT, ".build", "release", "groupsim"),
                        help="the groupsim binary (default: .build/release/groupsim; build it with swift build -c release)")
    parser.add_argument("--messages", type=int, default=1000, help="messages each device sends (default 1,000, as bench's (a))")
    parser.add_argument("--repeats", type=int, default=3, help="SimPy repeats, the fastest counts (default 3, as bench's)")
    parser.add_argument("--venv", default=os.path.join(cache, "groupsim", "simpy-venv"),
                        help="where SimPy is installed when it is missing")
    args = parser.parse_args()
    if args.messages < 1:
        parser.error("--messages must be at least 1")
    if not os.path.exists(args.groupsim):
        parser.error("no groupsim at %s: run swift build -c release, or pass --groupsim PATH" % args.groupsim)
    ensure_simpy(args.venv)
    import simpy

    devices = 32
    copies, wall, cpu = measure(lambda: simpy_copies(devices, args.messages), args.repeats)
    expected = devices * (devices - 1) * args.messages
    if copies != expected:
        sys.exit("bench-simpy: SimPy delivered %d copies, not %d" % (copies, expected))
    peer_rate, peer_cpu_rate = copies / wall, copies / cpu if cpu > 0 else 0.0
    output, ours, rate, cpu_rate = groupsim_a(args.groupsim, args.messages)
    if ours != copies:
        sys.exit("bench-simpy: groupsim delivered %d copies, SimPy %d: not the same workload" % (ours, copies))
    goal = target()
    goal_text = "target >= %gx" % goal if goal is not None else "no target found in Benchmarks/Thresholds.json"
    print("SimPy %s (Python %s), (a)'s workload: %s copies in %.3f s = %s copies/s; on CPU time %.3f s = %s copies/s"
          % (simpy.__version__, sys.version.split()[0], format(copies, ","), wall, format(round(peer_rate), ","),
             cpu, format(round(peer_cpu_rate), ",")))
    print(output.rstrip("\n"))
    print("(a) over SimPy: %.1fx on the wall clock, %.1fx on CPU time (%s); the rates above hold for this machine only"
          % (rate / peer_rate, cpu_rate / peer_cpu_rate if peer_cpu_rate > 0 else 0.0, goal_text))


if __name__ == "__main__":
    main()
