#!/usr/bin/env python3
"""Fuzz groupsim's reader, simulation and options with mutated scenario files.

Every input is a mutation of a file in Scenarios/ (lessons included): lines deleted,
duplicated, swapped or moved, bytes flipped, YAML punctuation, control characters and
invalid UTF-8 inserted, numbers and durations replaced by values at the edges of every
range, names made long, steps repeated, stickers pointed at FIFOs, folders, links and
missing files. Each input is given to the built binary's `run`, which reads it as `check`
does (the same reader, the same budget): exit 0 or 1 accepts it, exit 2 rejects it at a
located error. One input in ten is also given to `check`, whose verdict must be run's;
one input in five instead fuzzes options (`--seed`, `--runs`, `--attempts`,
`--max-copies`, `--format`, and `--output` paths of every kind: new and existing files,
links, dangling links, folders, FIFOs, missing folders, the input itself) with `run`,
`explore`, `shrink` or `check`, after `check` decided whether it is accepted (every
accepted input, and one rejected input in ten, gets that command). The other modes:
one accepted input in eight is explored `--exhaustive` (with `--limit`, `--no-factor` and
`--max-memory` fuzzed, under the same memory and time limits); one in twelve is explored
as two shards whose JSON reports are mutated (numbers at the edges, lines deleted, bytes
flipped) and merged; one in ten is run by `test` in a folder of mutated files with
subfolders it cannot read (mode 000, a path past PATH_MAX), dangling links and FIFOs
named *.yaml, with `--junit` onto any target; and `--output` (and `--junit`) also aim at
every input: the scenario, its sticker file (directly and through a link), a shard,
and the file standard input is for `-`.

Every command runs under a memory limit (ulimit -v, --memory-mb: set on this script's own
process, which every command inherits, so that each spawn is a plain one) and a time limit
(--timeout). A finding is:
  crash     the process died of a signal, or printed "Fatal error"
  hang      it ran past the time limit
  status    an exit status other than 0, 1 or 2
  unlocated exit 2 for a scenario file without a FILE:LINE:COLUMN: error: message
  silent    exit 2 with nothing on standard error
  input-overwritten  a file the command read (scenario, sticker, shard, standard input) changed
  disagree  `check` accepted an input that `run` rejected, or the other way round
Other areas are counted as notes, not findings: `escape` when standard error or a text
report echoes a raw ESC byte (terminal escaping). What was a note, `--output` that
replaced the scenario file itself is now a finding (`input-overwritten`): the
scenario, a sticker file, a shard or the file behind standard input changed.

Everything is written inside one temporary folder the script creates; it is removed at
the end unless something was found, and then its path is printed (the findings are in
findings/, one folder per input with the file and the command line).

Usage:
  scripts/fuzz.py [--binary PATH] [--inputs N] [--seed S] [--jobs J] [--timeout SEC]
                  [--memory-mb MB] [--quick]

  The documented full run is 100,000 inputs:   scripts/fuzz.py --inputs 100000
  CI runs the short one (300 inputs):            scripts/fuzz.py --quick

  Most of a command's cost is its start, the dynamic linking of the Swift libraries: a
  release binary with them linked in (swift build -c release --static-swift-stdlib)
  starts in 5 ms of CPU instead of 10, and the fuzzer takes about 17 ms of CPU per input
  with it (35 ms before `run` decided alone and the limits were set once), so the full
  run is about a quarter of an hour of 2 idle cores.

Ctrl-C stops it after the inputs under way, with the counts so far.

Exit status: 0 nothing found; 1 a finding; 2 usage error (no binary, no Scenarios/);
130 interrupted, nothing found in the inputs done.
"""

import argparse
import concurrent.futures
import os
import random
import re
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time

# The largest mutated input, in bytes.
MAXIMUM_INPUT_BYTES = 256 * 1024

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

LOCATED = re.compile(rb"^[^\n]*:\d+:\d+: error: ", re.MULTILINE)

# Values at the edges of every range the format has.
EDGE_INTEGERS = [
    "0", "1", "-1", "2", "3", "150", "151", "299", "300", "618", "619", "511999", "512000", "512001",
    "1000000000", "1000000001", "2147483647", "2147483648", "4294967296",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "18446744073709551615", "18446744073709551616", "99999999999999999999999999", "1e309", "0x10",
    "+5", "007", "1.5", "-0", "nan", "inf",
]
EDGE_DURATIONS = [
    "0ms", "1ns", "0.5ns", "1.0000000001s", "-1ms", "-0ms", "525600m", "525601m", "31536000s",
    "31536000.000000001s", "6307200000s", "9223372036854ms", "9223372036854775807ns",
    "9223372036854775808ns", "18446744073709551616ns", "99999999999999999999m", "1.5s", "2m", "80",
    "80 ms", "ms", ".5s", "5.s", "1..2s", "1e3ms", "0x10ms", "∞s",
]
EDGE_SEEDS = [
    "0", "1", "7", "9223372036854775807", "9223372036854775808", "18446744073709551615",
    "18446744073709551616", "-1", "abc", "", " 1", "1 ", "+1", "0x1", "1e3", "٣",
]
EDGE_COUNTS = ["0", "1", "2", "3", "100000000", "100000001", "-1", "x", "", "99999999999999999999"]
NASTY_TEXT = [
    "\x1b[2J\x1b]0;pwned\x07", "\x1b[31mred\x1b[0m", "\x00", "\x07", "\r", "\u202e", "\ufeff", "é",
    "👋🏽", "$me", "$alice", "$zz", "$", "${x}", "\\", "\"", "'", "<script>x</script>", "&amp;", "-->",
    "%00", "%ZZ", "msg://x", "https://example.invalid/" + "a" * 5000, "a" * 201, "a" * 200,
]
PUNCTUATION = [
    ":", "{", "}", "[", "]", ",", "-", "- ", "#", "&a", "*a", "!tag", "|", ">", "'", "\"", "\t",
    "---", "...", "? ", "%YAML", "@", "`", "\\u00", "\\x", "\x00", "\x1b", "\u2028", "\xa0",
]


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=None, help="the groupsim binary (default: .build/release or .build/debug)")
    parser.add_argument("--inputs", type=int, default=100_000, help="how many mutated inputs (default 100000)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the mutations (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="inputs at once (default: every core)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per command before it counts as a hang (default 20)")
    parser.add_argument("--memory-mb", type=int, default=4096, help="ulimit -v per command, in MiB (default 4096)")
    parser.add_argument("--quick", action="store_true", help="the short run for CI: 300 inputs")
    parser.add_argument("--max-findings", type=int, default=200, help="stop after this many findings (default 200)")
    parser.add_argument("--only", type=int, action="append", default=[], metavar="N",
                        help="run input N of the seed's sequence only (repeatable): to look again at one input")
    options = parser.parse_args()
    if options.quick:
        options.inputs = 300
    if options.only:
        options.inputs = len(options.only)
    # The limit is this script's own too (see limit_resources): it must leave room for Python.
    if options.inputs < 1 or options.jobs < 1 or options.timeout <= 0 or options.memory_mb < 512:
        parser.error("--inputs, --jobs, --timeout and --memory-mb must be positive (memory at least 512)")
    return options


def find_binary(given):
    candidates = [given] if given else [
        os.path.join(ROOT, ".build", "release", "groupsim"),
        os.path.join(ROOT, ".build", "debug", "groupsim"),
    ]
    for candidate in candidates:
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
    return None


def scenario_files():
    found = []
    for folder, _, names in os.walk(os.path.join(ROOT, "Scenarios")):
        for name in names:
            if name.endswith(".yaml"):
                found.append(os.path.join(folder, name))
    return sorted(found)


class Mutator:
    """Makes one mutated scenario from the corpus; every choice comes from its generator."""

    def __init__(self, corpus, generator):
        self.corpus = corpus
        self.random = generator
        self.all_lines = [line for _, text in corpus for line in text.split(b"\n") if line.strip()]

    def pick(self, values):
        return values[self.random.randrange(len(values))]

    def mutate(self, text):
        # Half the inputs change only values (numbers, durations, seeds, texts, names,
        # repeats, stickers), so that many of them are valid and reach the simulation.
        gentle = [
            self.replace_number, self.replace_duration, self.replace_seed, self.nasty_text, self.long_name,
            self.repeat_steps, self.sticker_path, self.replace_word,
        ]
        if self.random.random() < 0.5:
            mutated = self.pick(gentle)(text)
            return mutated if len(mutated) <= MAXIMUM_INPUT_BYTES else text
        operations = [
            self.delete_line, self.duplicate_line, self.swap_lines, self.foreign_line, self.flip_byte,
            self.insert_punctuation, self.replace_number, self.replace_duration, self.replace_word,
            self.nasty_text, self.repeat_steps, self.indent, self.truncate, self.sticker_path,
            self.invalid_utf8, self.long_name, self.replace_seed,
        ]
        for _ in range(1 + self.random.randrange(3)):
            mutated = self.pick(operations)(text)
            # Inputs stay small (a file of a few thousand steps), so that each command
            # fits the time limit even in a debug build on a busy machine; large files
            # are the budget's business, tested on their own.
            if len(mutated) <= MAXIMUM_INPUT_BYTES:
                text = mutated
        return text

    def lines(self, text):
        return text.split(b"\n")

    def delete_line(self, text):
        lines = self.lines(text)
        if len(lines) > 1:
            del lines[self.random.randrange(len(lines))]
        return b"\n".join(lines)

    def duplicate_line(self, text):
        lines = self.lines(text)
        index = self.random.randrange(len(lines))
        lines.insert(index, lines[index])
        return b"\n".join(lines)

    def swap_lines(self, text):
        lines = self.lines(text)
        a, b = self.random.randrange(len(lines)), self.random.randrange(len(lines))
        lines[a], lines[b] = lines[b], lines[a]
        return b"\n".join(lines)

    def foreign_line(self, text):
        lines = self.lines(text)
        lines.insert(self.random.randrange(len(lines) + 1), self.pick(self.all_lines))
        return b"\n".join(lines)

    def flip_byte(self, text):
        if not text:
            return text
        data = bytearray(text)
        data[self.random.randrange(len(data))] = self.random.randrange(256)
        return bytes(data)

    def insert_punctuation(self, text):
        at = self.random.randrange(len(text) + 1)
        return text[:at] + self.pick(PUNCTUATION).encode() + text[at:]

    def replace_matching(self, text, pattern, values):
        matches = list(re.finditer(pattern, text))
        if not matches:
            return text
        match = self.pick(matches)
        return text[:match.start()] + self.pick(values).encode() + text[match.end():]

    def replace_number(self, text):
        return self.replace_matching(text, rb"(?<![A-Za-z0-9_.-])-?\d+(?![A-Za-z0-9_.])", EDGE_INTEGERS)

    def replace_duration(self, text):
        return self.replace_matching(text, rb"\b\d+(\.\d+)?(ns|us|ms|s|m)\b", EDGE_DURATIONS)

    def replace_seed(self, text):
        return self.replace_matching(text, rb"(?<=seed: )\S+", EDGE_SEEDS)

    def replace_word(self, text):
        words = list(re.finditer(rb"[A-Za-z][A-Za-z0-9_-]{2,}", text))
        if len(words) < 2:
            return text
        a, b = self.pick(words), self.pick(words)
        return text[:a.start()] + b.group(0) + text[a.end():]

    def nasty_text(self, text):
        return self.replace_matching(text, rb"(?<=: )[A-Za-z\"][^,}\n]*", [json_quote(value) for value in NASTY_TEXT] + NASTY_TEXT)

    def long_name(self, text):
        names = list(re.finditer(rb"\b[a-z]+-(phone|ipad|mac|watch)\b", text))
        if not names:
            return text
        name = self.pick(names).group(0)
        longer = name + b"x" * self.pick([1, 150, 200, 300, 5000])
        return text.replace(name, longer, 1 + self.random.randrange(3))

    def repeat_steps(self, text):
        at = text.find(b"\nsteps:\n")
        end = text.find(b"\nexpect:", at + 1)
        if at < 0:
            return text
        end = len(text) if end < 0 else end
        steps = text[at + len(b"\nsteps:\n"):end]
        if not steps.strip():
            return text
        times = self.pick([2, 5, 20, 100])
        return text[:end] + (b"\n" + steps) * times + text[end:]

    def indent(self, text):
        lines = self.lines(text)
        index = self.random.randrange(len(lines))
        lines[index] = self.pick([b" ", b"  ", b"\t", b""]) + lines[index].lstrip(b" ") if self.random.random() < 0.5 else b" " + lines[index]
        return b"\n".join(lines)

    def truncate(self, text):
        return text[:self.random.randrange(len(text) + 1)]

    def invalid_utf8(self, text):
        at = self.random.randrange(len(text) + 1)
        return text[:at] + self.pick([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xef\xbb\xbf"]) + text[at:]

    def sticker_path(self, text):
        # The special files are made in the input's own folder (see Fuzzer.prepare).
        target = self.pick(["fifo.png", "folder.png", "link-to-fifo.png", "dangling.png", "missing.png",
                            "big.png", "link-to-folder.png", "assets/pickle.png"])
        sticker = ("\n  - at: 9s\n    device: %s\n    sticker: { file: %s, description: fuzz }\n" % (
            self.pick(["alice-phone", "bob-phone", "carol-phone"]), target)).encode()
        at = text.find(b"\nexpect:")
        if b"\nsteps:\n" not in text:
            return text
        at = len(text) if at < 0 else at
        return text[:at] + sticker + text[at:]


def json_quote(value):
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\x1b", "\\u001b").replace("\x00", "\\u0000") \
        .replace("\x07", "\\u0007").replace("\r", "\\r") + '"'


def fresh(make, *arguments):
    """Makes a link or FIFO (`make(*arguments)`, the path last) where one input's earlier
    command may have made it already (one input runs several commands, each choosing an
    output target): what was there goes first. Without this, the second choice of the same
    kind was an error of this script and skipped the input (3 in 100,000)."""
    path = arguments[-1]
    if os.path.lexists(path) and not os.path.isdir(path):
        os.unlink(path)
    make(*arguments)


class Fuzzer:
    def __init__(self, options, binary, folder):
        self.options = options
        self.binary = binary
        self.folder = folder
        self.lock = threading.Lock()
        self.counts = {"inputs": 0, "commands": 0, "accepted": 0, "rejected": 0, "findings": 0}
        self.kinds = {}
        self.notes = {}
        # The inputs skipped by an error of this script, by number (rerun one with --only N).
        self.skipped = []
        corpus = [(path, open(path, "rb").read()) for path in scenario_files()]
        self.corpus = corpus

    def limit_resources(self):
        """The memory limit and no core files, for this process and so for every command it
        starts. Set once here rather than in each child (preexec_fn): a preexec_fn makes every
        spawn a full fork that runs Python in the child, about 2.4 ms of CPU per command, a
        sixth of a short command's whole cost; without it the spawn is a vfork."""
        limit = self.options.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    def prepare(self, number, source, text):
        """A folder for one input: the file, and the special files stickers may name."""
        work = os.path.join(self.folder, "inputs", str(number))
        os.makedirs(work)
        if os.path.isdir(os.path.join(os.path.dirname(source), "assets")):
            # Copied, not linked: --output is aimed at the sticker files, and must never reach the repository's.
            shutil.copytree(os.path.join(os.path.dirname(source), "assets"), os.path.join(work, "assets"))
        os.mkfifo(os.path.join(work, "fifo.png"))
        os.mkdir(os.path.join(work, "folder.png"))
        os.symlink("fifo.png", os.path.join(work, "link-to-fifo.png"))
        os.symlink("folder.png", os.path.join(work, "link-to-folder.png"))
        os.symlink("nothing-here.png", os.path.join(work, "dangling.png"))
        with open(os.path.join(work, "big.png"), "wb") as big:
            # A PNG signature and 600,000 bytes in all, as a sparse file: cheap to make.
            big.write(b"\x89PNG\r\n\x1a\n")
            big.truncate(600_000)
        path = os.path.join(work, os.path.basename(source))
        with open(path, "wb") as file:
            file.write(text)
        return work, path

    def output_target(self, generator, work, scenario):
        kind = generator.choice(["new", "existing", "link", "dangling", "folder", "missing-folder", "fifo", "input",
                                 "relative", "hidden-dot", "long-name", "sticker", "sticker-link", "input-link"])
        sticker = os.path.join(work, "assets", "pickle.png")
        if kind in ("sticker", "sticker-link") and os.path.isfile(sticker):
            if kind == "sticker":
                return kind, sticker
            fresh(os.symlink, sticker, os.path.join(work, "to-sticker.out"))
            return kind, os.path.join(work, "to-sticker.out")
        if kind in ("sticker", "sticker-link", "input-link"):
            link = os.path.join(work, "to-input-%d.out" % generator.randrange(1 << 30))
            os.symlink(scenario, link)
            return "input-link", link
        if kind == "new":
            return kind, os.path.join(work, "report.out")
        if kind == "existing":
            path = os.path.join(work, "existing.out")
            with open(path, "w") as file:
                file.write("old\n")
            os.chmod(path, 0o640)
            return kind, path
        if kind == "link":
            target = os.path.join(work, "link-target.out")
            with open(target, "w") as file:
                file.write("old\n")
            fresh(os.symlink, "link-target.out", os.path.join(work, "link.out"))
            return kind, os.path.join(work, "link.out")
        if kind == "dangling":
            fresh(os.symlink, "nowhere/x.out", os.path.join(work, "dangling.out"))
            return kind, os.path.join(work, "dangling.out")
        if kind == "folder":
            return kind, os.path.join(work, "folder.png")
        if kind == "missing-folder":
            return kind, os.path.join(work, "no-such-folder", "report.out")
        if kind == "fifo":
            path = os.path.join(work, "output-fifo")
            fresh(os.mkfifo, path)
            return kind, path
        if kind == "input":
            return kind, scenario
        if kind == "relative":
            return kind, "relative.out"  # the command runs in the input's folder
        if kind == "hidden-dot":
            return kind, os.path.join(work, ".")
        return kind, os.path.join(work, "n" * 300)

    def run(self, arguments, cwd, fifo=None, stdin=None):
        """Runs one command; drains `fifo` (an --output FIFO) while it runs."""
        stop = threading.Event()
        reader = None
        if fifo:
            def drain():
                descriptor = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
                try:
                    while not stop.is_set():
                        try:
                            if not os.read(descriptor, 65536):
                                time.sleep(0.01)
                        except BlockingIOError:
                            time.sleep(0.01)
                finally:
                    os.close(descriptor)
            reader = threading.Thread(target=drain, daemon=True)
            reader.start()
            time.sleep(0.01)
        started = time.monotonic()
        try:
            with open(stdin, "rb") if stdin else open(os.devnull, "rb") as source:
                process = subprocess.run([self.binary] + arguments, cwd=cwd, stdin=source,
                                         capture_output=True, timeout=self.options.timeout, start_new_session=True)
            result = (process.returncode, process.stdout, process.stderr, time.monotonic() - started)
        except subprocess.TimeoutExpired as expired:
            result = (None, expired.stdout or b"", expired.stderr or b"", time.monotonic() - started)
        finally:
            stop.set()
            if reader:
                reader.join()
        with self.lock:
            self.counts["commands"] += 1
        return result

    def judge(self, arguments, result, scenario_input):
        """The finding for one command's result, or None; and notes."""
        status, stdout, stderr, _ = result
        notes = []
        if b"\x1b" in stderr or (b"\x1b" in stdout and "--format" not in arguments):
            notes.append("escape")
        if status is None:
            return "hang", notes
        if status < 0 or b"Fatal error" in stderr or b"Fatal error" in stdout:
            return "crash", notes
        if status not in (0, 1, 2):
            return "status", notes
        if status == 2:
            # `test` reports an invalid file or an unreadable folder as an ERROR line of its output.
            if not stderr.strip() and not (arguments[:1] == ["test"] and b"ERROR " in stdout):
                return "silent", notes
            if scenario_input and not LOCATED.search(stderr) and not stderr.startswith(b"groupsim: error:"):
                return "unlocated", notes
        return None, notes

    def record(self, number, kind, arguments, result, work):
        with self.lock:
            self.counts["findings"] += 1
            self.kinds[kind] = self.kinds.get(kind, 0) + 1
            keep = self.kinds[kind] <= 20
        if not keep:
            return
        destination = os.path.join(self.folder, "findings", "%s-%d" % (kind, number))
        shutil.copytree(work, destination, symlinks=True, ignore=lambda _, names: [
            n for n in names if n in ("fifo.png", "output-fifo", "big.png", "fifo.yaml", "locked") or n.startswith("ddddd")])
        status, stdout, stderr, seconds = result
        with open(os.path.join(destination, "command.txt"), "w") as file:
            file.write("groupsim %s\nstatus: %s after %.1fs\n--- stderr (first 4000 bytes)\n" % (" ".join(arguments), status, seconds))
            file.write(stderr[:4000].decode("utf-8", "replace"))
            file.write("\n--- stdout (first 2000 bytes)\n" + stdout[:2000].decode("utf-8", "replace"))

    def note(self, notes):
        with self.lock:
            for note in notes:
                self.notes[note] = self.notes.get(note, 0) + 1

    def one(self, number):
        try:
            self.one_input(number)
        except Exception as error:  # a bug of this script: say so, and go on with the next input
            with self.lock:
                self.counts["script-errors"] = self.counts.get("script-errors", 0) + 1
                self.skipped.append(number)
                if self.counts["script-errors"] <= 3 or self.options.only:
                    print("fuzz: input %d: script error: %r" % (number, error), file=sys.stderr, flush=True)

    def one_input(self, number):
        generator = random.Random(self.options.seed * 1_000_003 + number)
        source, original = self.corpus[generator.randrange(len(self.corpus))]
        text = Mutator(self.corpus, generator).mutate(original)
        work, path = self.prepare(number, source, text)
        fuzz_options = generator.random() < 0.2
        try:
            if fuzz_options:
                # `check` decides whether the input is accepted; the command with fuzzed
                # options runs for every accepted input and one rejected input in ten.
                status = self.checked(number, ["check", path], work, path, scenario_input=True)
                if status is None:
                    return
                accepted = status == 0
                if accepted or generator.random() < 0.1:
                    command = self.option_command(generator, work, path)
                    stdin = None
                    if command[1:2] == [path] and generator.random() < 0.1:
                        command[1], stdin = "-", path
                    if self.checked(number, command, work, path, stdin=stdin) is None:
                        return
            else:
                # `run` reads the input as `check` does: its status decides, and one input in
                # ten is checked too, which must agree.
                command, stdin = ["run", path], None
                if generator.random() < 0.1:
                    command, stdin = ["run", "-"], path
                status = self.checked(number, command, work, path, stdin=stdin, scenario_input=True)
                if status is None:
                    return
                accepted = status in (0, 1)
                if generator.random() < 0.1 and self.checked(number, ["check", path], work, path, scenario_input=True,
                                                             accepted=accepted) is None:
                    return
            with self.lock:
                self.counts["accepted" if accepted else "rejected"] += 1
            if accepted and generator.random() < 1 / 8:
                self.exhaustive(number, generator, work, path)
            if accepted and generator.random() < 1 / 12:
                self.merge(number, generator, work, path)
            if generator.random() < 1 / 10:
                self.test_folder(number, generator, work, path, text)
        finally:
            shutil.rmtree(work, ignore_errors=True)
            with self.lock:
                self.counts["inputs"] += 1

    @staticmethod
    def inputs(work, path, files=None):
        """The bytes of every file a command reads: the scenario and the sticker it names, the
        shards; or `files`."""
        if files is None:
            files = [path, os.path.join(work, "assets", "pickle.png")]
            if os.path.isfile(path) and b"pickle.png" not in open(path, "rb").read():
                files = files[:1]
            files += [os.path.join(work, name) for name in sorted(os.listdir(work)) if name.startswith("shard-")]
        return [open(file, "rb").read() if os.path.isfile(file) else None for file in files]

    def checked(self, number, arguments, work, path, stdin=None, scenario_input=False, files=None, accepted=None):
        """Runs one command and records what it finds; its exit status, or None when it found something.
        `accepted`: whether `run` accepted the input, which this `check` must say too."""
        fifo = next((value for value in arguments if value.endswith("output-fifo")), None)
        mode = "exhaustive" if "--exhaustive" in arguments else arguments[0]
        with self.lock:
            self.counts["mode " + mode] = self.counts.get("mode " + mode, 0) + 1
        before = self.inputs(work, path, files)
        result = self.run(arguments, work, fifo=fifo, stdin=stdin)
        finding, notes = self.judge(arguments, result, scenario_input)
        self.note(notes)
        if not finding and self.inputs(work, path, files) != before:
            finding = "input-overwritten"
        if not finding and accepted is not None and (result[0] == 0) != accepted:
            finding = "disagree"
        if finding:
            self.record(number, finding, arguments, result, work)
            return None
        return result[0]

    def exhaustive(self, number, generator, work, path):
        """`explore --exhaustive` with its options fuzzed: it must stop, refuse or report, never be killed."""
        # A large --limit goes with a small budget, so that every search ends within the time limit: by its
        # orders, its estimate or its memory.
        limit, memory = generator.choice([("1", "1G"), ("50", "64M"), ("2000", "4M"), ("100000000", "1M"), ("100000000", "4M"),
                                          ("0", "1G"), ("x", "1G"), ("50", "0"), ("50", "x"), ("50", "1.5G"),
                                          ("50", "99999999999T"), ("20", "")])
        arguments = ["explore", path, "--exhaustive", "--limit", limit, "--max-memory", memory]
        if generator.random() < 0.2:
            arguments.append("--no-factor")
        if generator.random() < 0.3:
            arguments += ["--format", generator.choice(["text", "json", "html"])]
        if generator.random() < 0.3:
            _, target = self.output_target(generator, work, path)
            arguments += ["--output", target]
        self.checked(number, arguments, work, path)

    def merge(self, number, generator, work, path):
        """Two shards of a short exploration, their JSON mutated, merged."""
        shards = []
        for index in range(2):
            shard = os.path.join(work, "shard-%d.json" % index)
            self.run(["explore", path, "--runs", "4", "--shard", "%d/2" % index, "--format", "json", "--output", shard, "--quiet"], work)
            if not os.path.isfile(shard):
                return
            shards.append(shard)
        victim = generator.choice(shards)
        text = open(victim, "rb").read()
        mutator = Mutator(self.corpus, generator)

        def edge(match):
            return generator.choice(EDGE_INTEGERS).encode() if generator.random() < 0.3 else match.group(0)
        for _ in range(generator.randint(1, 3)):
            choice = generator.random()
            if choice < 0.5:
                text = re.sub(rb"\d+", edge, text)
            elif choice < 0.7:
                text = mutator.delete_line(text)
            elif choice < 0.85:
                text = mutator.flip_byte(text)
            else:
                text = mutator.swap_lines(text)
        with open(victim, "wb") as file:
            file.write(text)
        arguments = ["merge"] + (shards if generator.random() < 0.5 else [work])
        if generator.random() < 0.3:
            arguments.append("--partial")
        if generator.random() < 0.3:
            arguments += ["--format", generator.choice(["text", "json", "html"])]
        if generator.random() < 0.3:
            arguments += ["--output", generator.choice(shards + [os.path.join(work, "merged.out")])]
        self.checked(number, arguments, work, path)

    def test_folder(self, number, generator, work, path, text):
        """`test` of a folder of mutated files, unreadable subfolders and odd names."""
        folder = os.path.join(work, "suite")
        os.makedirs(os.path.join(folder, "nested"))
        mutator = Mutator(self.corpus, generator)
        for index in range(generator.randint(1, 3)):
            with open(os.path.join(folder, "nested" if index % 2 else "", "t%d.yaml" % index), "wb") as file:
                file.write(mutator.mutate(text))
        if generator.random() < 0.3:
            locked = os.path.join(folder, "locked")
            os.mkdir(locked)
            with open(os.path.join(locked, "hidden.yaml"), "wb") as file:
                file.write(text)
            os.chmod(locked, 0)
        if generator.random() < 0.2:
            deep = os.open(folder, os.O_RDONLY)
            for _ in range(22):
                os.mkdir("d" * 200, dir_fd=deep)
                following = os.open("d" * 200, os.O_RDONLY, dir_fd=deep)
                os.close(deep)
                deep = following
            os.close(deep)
        if generator.random() < 0.2:
            os.symlink("nowhere.yaml", os.path.join(folder, "dangling.yaml"))
        if generator.random() < 0.1:
            os.mkfifo(os.path.join(folder, "fifo.yaml"))
        arguments = ["test", folder]
        if generator.random() < 0.3:
            arguments += ["--junit", self.output_target(generator, work, path)[1]]
        if generator.random() < 0.2:
            arguments += ["--explore", generator.choice(["1", "3", "0", "x"])]
        suite = [os.path.join(root, name) for root, _, names in os.walk(folder) for name in names
                 if name.endswith(".yaml") and os.path.isfile(os.path.join(root, name))]
        try:
            self.checked(number, arguments, work, path, files=suite)
        finally:
            for root, folders, _ in os.walk(folder):
                for name in folders:
                    try:
                        os.chmod(os.path.join(root, name), 0o755)
                    except OSError:
                        pass

    def option_command(self, generator, work, path):
        command = generator.choice(["run", "run", "explore", "shrink", "check"])
        arguments = [command, path]
        if command in ("run", "explore", "shrink") and generator.random() < 0.7:
            arguments += ["--seed", generator.choice(EDGE_SEEDS)]
        if command == "explore":
            arguments += ["--runs", generator.choice(EDGE_COUNTS[:4] + ["5", "20", "0", "-1", "100000001", "x"])]
            if generator.random() < 0.3:
                arguments += ["--workers", generator.choice(["1", "2", "0", "4097"])]
            if generator.random() < 0.2:
                arguments += ["--shard", generator.choice(["0/2", "1/2", "2/2", "0/0", "-1/2", "x", "18446744073709551615/2"])]
        if command == "shrink":
            arguments += ["--attempts", generator.choice(["1", "5", "20", "0", "1000001", "x"])]
        if generator.random() < 0.3:
            arguments += ["--max-copies", generator.choice(["0", "1", "100", "12000000", "-1", "x", "99999999999999999999"])]
        if generator.random() < 0.2:
            arguments.append("--all-errors")
        if command in ("run", "explore") and generator.random() < 0.5:
            formats = ["text", "json", "mermaid", "html", "sides", "xml", ""] if command == "run" else ["text", "json", "html"]
            arguments += ["--format", generator.choice(formats)]
        if command in ("run", "explore", "shrink") and generator.random() < 0.6:
            _, target = self.output_target(generator, work, path)
            arguments += ["--output", target]
        if generator.random() < 0.05:
            arguments.append(generator.choice(["--seed", "--bogus", "-x", "--", "--output"]))
        return arguments


def main():
    options = parse_arguments()
    binary = find_binary(options.binary)
    if binary is None:
        print("fuzz: no groupsim binary; build first (swift build) or pass --binary PATH", file=sys.stderr)
        return 2
    if not scenario_files():
        print("fuzz: no scenario files under %s/Scenarios" % ROOT, file=sys.stderr)
        return 2
    folder = tempfile.mkdtemp(prefix="groupsim-fuzz-")
    fuzzer = Fuzzer(options, binary, folder)
    fuzzer.limit_resources()
    started = time.monotonic()
    print("fuzz: %d inputs from %d files, seed %d, %d jobs, %gs and %d MiB per command, binary %s" % (
        options.inputs, len(fuzzer.corpus), options.seed, options.jobs, options.timeout, options.memory_mb, binary), flush=True)
    last_report = started
    interrupted = False
    with concurrent.futures.ThreadPoolExecutor(max_workers=options.jobs) as pool:
        pending = set()
        numbers = iter(options.only or range(options.inputs))
        left = options.inputs
        try:
            while left or pending:
                while left and len(pending) < options.jobs * 4:
                    pending.add(pool.submit(fuzzer.one, next(numbers)))
                    left -= 1
                done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    future.result()
                if fuzzer.counts["findings"] >= options.max_findings:
                    print("fuzz: stopping after %d findings" % fuzzer.counts["findings"], flush=True)
                    for future in pending:
                        future.cancel()
                    break
                if time.monotonic() - last_report > 60:
                    last_report = time.monotonic()
                    print("fuzz: %d inputs, %d commands, %d findings, %.0fs, %.1f inputs/s" % (
                        fuzzer.counts["inputs"], fuzzer.counts["commands"], fuzzer.counts["findings"], last_report - started,
                        fuzzer.counts["inputs"] / (last_report - started)), flush=True)
        except KeyboardInterrupt:
            # Ctrl-C (the commands run in sessions of their own and do not get it): the
            # inputs under way finish, the others are dropped, and the counts so far are told.
            interrupted = True
            print("fuzz: interrupted; finishing the inputs under way", flush=True)
            for future in pending:
                future.cancel()
    counts = fuzzer.counts
    seconds = time.monotonic() - started
    print("fuzz: %d inputs (%d accepted, %d rejected), %d commands in %.0fs: %.1f inputs/s" % (
        counts["inputs"], counts["accepted"], counts["rejected"], counts["commands"], seconds, counts["inputs"] / max(seconds, 1e-9)))
    modes = sorted((key[5:], value) for key, value in counts.items() if key.startswith("mode "))
    if modes:
        print("fuzz: of those, " + ", ".join("%d %s" % (value, name) for name, value in modes))
    if counts.get("script-errors"):
        print("fuzz: %d inputs were skipped by errors of this script: %s (rerun one with --seed %d --only N)" % (
            counts["script-errors"], ", ".join(str(number) for number in sorted(fuzzer.skipped)), options.seed))
    if fuzzer.notes:
        print("fuzz: notes (other areas): " + ", ".join("%s %d" % item for item in sorted(fuzzer.notes.items())))
    if interrupted:
        print("fuzz: INTERRUPTED after %d of %d inputs" % (counts["inputs"], options.inputs))
    if counts["findings"]:
        print("fuzz: FOUND %d: %s" % (counts["findings"], ", ".join("%s %d" % item for item in sorted(fuzzer.kinds.items()))))
        print("fuzz: the inputs and command lines are in %s/findings" % folder)
        shutil.rmtree(os.path.join(folder, "inputs"), ignore_errors=True)
        return 1
    shutil.rmtree(folder, ignore_errors=True)
    print("fuzz: no crash, no hang, every rejected input located")
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
