#!/usr/bin/env python3
"""Checks the HTML report's time slider in headless Chromium (standard library only).

Usage: check-timeline.py --groupsim BIN --chromium BIN --chromedriver BIN --out DIR SCENARIO...

For every scenario file: writes `groupsim run FILE --format html` and the run's own
screens after every event (`--format screens`) into DIR, opens the page from file:// in
headless Chromium through chromedriver (WebDriver over HTTP on 127.0.0.1), moves the
cursor to every event of the run and checks that each device's screen as the page draws
it (bubbles, summary lines, texts, stickers, plain lines, in order, with their message,
text, subcaption and state) equals that device's screen in the run at that event. For
every pair of lesson files (Scenarios/lessons/NAME-broken.yaml and NAME-fixed.yaml) it
also writes the lesson's page (`groupsim lessons NAME --format html`), which holds both
runs with a slider each, and steps both sliders event by event the same way. It
also checks that the page made no request but for itself (Chromium's network log) and
that its script ran under the page's content security policy. For the first scenario it
saves screenshots at three instants: the first event, the first pitfall moment (where
the views part in the pickles race), and the end; with --picture, also the README's
picture of that moment.

Exit status: 0 every check held; 1 a check failed; 2 usage or setup error.
"""

import argparse
import base64
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request


class WebDriver:
    """The few WebDriver commands this check needs, over HTTP to chromedriver."""

    def __init__(self, chromedriver, chromium, log_path, height=1600):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.log = open(log_path, "w")
        self.process = subprocess.Popen([chromedriver, f"--port={self.port}", "--allowed-ips=127.0.0.1"],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                self.call("GET", "/status")
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        else:
            raise RuntimeError("chromedriver did not start")
        args = ["--headless=new", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-extensions",
                "--mute-audio", f"--window-size=1280,{height}", "--force-device-scale-factor=1",
                "--disable-background-networking", "--disable-component-update", "--disable-default-apps",
                "--disable-sync", "--no-default-browser-check"]
        if os.geteuid() == 0:
            args.append("--no-sandbox")
        capabilities = {"browserName": "chrome",
                        "goog:chromeOptions": {"binary": chromium, "args": args},
                        "goog:loggingPrefs": {"performance": "ALL"}}
        answer = self.call("POST", "/session", {"capabilities": {"alwaysMatch": capabilities}})
        self.session = answer["value"]["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return json.loads(response.read().decode())
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"WebDriver {method} {path}: {error.read().decode()[:600]}") from None

    def command(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)["value"]

    def open(self, url):
        self.command("POST", "/url", {"url": url})

    def run(self, script, *args):
        return self.command("POST", "/execute/sync", {"script": script, "args": list(args)})

    def screenshot(self, path):
        with open(path, "wb") as file:
            file.write(base64.b64decode(self.command("GET", "/screenshot")))

    def network_requests(self):
        """Every URL the browser asked for since the last call (Chromium's performance log)."""
        entries = self.command("POST", "/se/log", {"type": "performance"})
        urls = []
        for entry in entries:
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.requestWillBeSent":
                urls.append(message["params"]["request"]["url"])
        return urls

    def quit(self):
        try:
            self.call("DELETE", f"/session/{self.session}")
        except Exception:
            pass
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


# What the page draws, read from the DOM: per device, its lines in order.
READ_SCREENS = """
const index = arguments[0], upto = arguments[1], run = arguments[2];
const timeline = window.groupsimTimelines[run];
const out = [];
for (let i = index; i < upto; i++) {
  timeline.seek(i);
  const cards = Array.from(document.getElementById(timeline.prefix + 'transcripts').querySelectorAll('.device-transcript'));
  out.push(cards.map(card => Array.from(card.querySelectorAll('.screen > *')).flatMap(node => {
    const text = sel => { const found = node.querySelector(sel); return found ? found.textContent : null; };
    if (node.classList.contains('conversation')) return [{kind: 'conversation', text: node.textContent}];
    if (node.classList.contains('empty')) return [];
    if (node.classList.contains('summary')) return [{kind: 'summary', message: node.title.split(',')[0], text: node.textContent}];
    const kind = ['sticker', 'plain', 'text'].find(k => node.classList.contains(k)) || 'bubble';
    const line = {kind: kind, message: text('.id'), text: text('.caption')};
    if (kind === 'bubble') { line.subcaption = text('.subcaption'); line.state = text('.state'); }
    return [line];
  })));
}
return out;
"""


def expected_line(line):
    """A run's screen line as the page must draw it."""
    if line["kind"] == "summary":
        return {"kind": "summary", "message": f"m{line['message']}", "text": line["text"]}
    drawn = {"kind": line["kind"], "message": f"m{line['message']}", "text": line["text"]}
    if line["kind"] == "bubble":
        if drawn["text"] is None:
            drawn["text"] = "(no caption)"
        drawn["subcaption"] = line["subcaption"]
        if line["state"]:
            drawn["state"] = " ".join(f"{key}={value}" for key, value in line["state"])
        elif line["url"] is not None:
            drawn["state"] = f"url {line['url']}"
        else:
            drawn["state"] = "no URL"
    return drawn


def expected_screens(dump):
    """Per event, per device, the lines the page must show (carrying unchanged screens on)."""
    several = len(dump["conversations"]) > 1
    current = {}
    per_event = []
    for event in dump["events"]:
        for device, conversations in event["screens"].items():
            lines = []
            for name, conversation in zip(dump["conversations"], conversations):
                if several:
                    lines.append({"kind": "conversation", "text": name})
                lines += [expected_line(line) for line in conversation]
            current[device] = lines
        per_event.append([current.get(device, []) for device in dump["devices"]])
    return per_event


def screens_of(args, scenario, name, failures):
    """The run's own screens after every event, or None when groupsim failed."""
    dump_path = os.path.join(args.out, f"{name}.screens.json")
    result = subprocess.run([args.groupsim, "run", scenario, "--format", "screens", "--output", dump_path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode not in (0, 1):
        failures.append(f"{scenario}: groupsim run --format screens exited {result.returncode}: {result.stderr.strip()}")
        return None
    with open(dump_path) as file:
        return json.load(file)


def check_lesson(driver, args, lesson, files, failures):
    """The lesson's page: both runs, each slider stepped through every event of its run."""
    page = os.path.join(args.out, f"lesson-{lesson}.html")
    result = subprocess.run([args.groupsim, "lessons", lesson, "--format", "html", "--dir", os.path.dirname(files[0])],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode not in (0, 1):
        failures.append(f"lesson {lesson}: groupsim lessons --format html exited {result.returncode}: {result.stderr.strip()}")
        return 0
    with open(page, "w") as file:
        file.write(result.stdout)
    dumps = []
    for scenario in files:
        dump = screens_of(args, scenario, "lessons-" + os.path.splitext(os.path.basename(scenario))[0], failures)
        if dump is None:
            return 0
        dumps.append(dump)
    driver.network_requests()
    url = "file://" + os.path.abspath(page)
    driver.open(url)
    runs = driver.run("return window.groupsimTimelines ? window.groupsimTimelines.length : -1;")
    if runs != len(files):
        failures.append(f"lesson {lesson}: the page has {runs} sliders, the lesson {len(files)} runs")
        return 0
    checked = 0
    for run, (scenario, dump) in enumerate(zip(files, dumps)):
        checked += check_slider(driver, f"lesson {lesson} ({os.path.basename(scenario)})", dump, run, failures)
    check_requests(driver, f"lesson {lesson}", url, failures)
    return checked


def check_slider(driver, label, dump, run, failures):
    """Steps slider `run` of the open page through every event, comparing each device's screen."""
    expected = expected_screens(dump)
    count = driver.run("const t = (window.groupsimTimelines || [])[arguments[0]]; return t ? t.count : -1;", run)
    if count != len(expected):
        failures.append(f"{label}: the page's script did not run or walks {count} events, the run has {len(expected)}")
        return 0
    checked = 0
    for start in range(0, count, 40):
        drawn = driver.run(READ_SCREENS, start, min(count, start + 40), run)
        for offset, devices in enumerate(drawn):
            index = start + offset
            at = dump["events"][index]["at"]
            if len(devices) != len(dump["devices"]):
                failures.append(f"{label}: event {index + 1} ({at}): the page shows {len(devices)} screens, the run has {len(dump['devices'])}")
                continue
            for device, shown, wanted in zip(dump["devices"], devices, expected[index]):
                checked += 1
                if shown != wanted:
                    failures.append(f"{label}: event {index + 1} ({at}): {device} shows {json.dumps(shown)[:400]}, "
                                    f"the run has {json.dumps(wanted)[:400]}")
    return checked


def check_requests(driver, label, url, failures):
    """The page asked for nothing but itself."""
    foreign = [request for request in driver.network_requests() if request != url and not request.startswith("data:")]
    resources = driver.run("return performance.getEntriesByType('resource').map(e => e.name);")
    for request in foreign + resources:
        failures.append(f"{label}: the page asked for {request}")


def check_scenario(driver, args, scenario, number, failures, shots):
    name = os.path.splitext(os.path.basename(scenario))[0]
    if scenario.startswith("Scenarios/lessons/"):
        name = "lessons-" + name
    page = os.path.join(args.out, f"{name}.html")
    result = subprocess.run([args.groupsim, "run", scenario, "--format", "html", "--output", page],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if result.returncode not in (0, 1):
        failures.append(f"{scenario}: groupsim run --format html exited {result.returncode}: {result.stderr.strip()}")
        return 0
    dump = screens_of(args, scenario, name, failures)
    if dump is None:
        return 0
    driver.network_requests()
    url = "file://" + os.path.abspath(page)
    driver.open(url)
    checked = check_slider(driver, scenario, dump, 0, failures)
    count = len(dump["events"])
    if checked == 0:
        return 0
    if number == 0:
        moments = driver.run("return JSON.parse(document.getElementById('timeline-data').textContent)"
                             ".events.map((e, i) => e.moment ? i : -1).filter(i => i >= 0);")
        instants = [("first", 0), ("parting", moments[0] if moments else count // 2), ("end", count - 1)]
        for label, index in instants:
            driver.run("window.groupsimTimeline.seek(arguments[0]); window.scrollTo(0, 0);", index)
            path = os.path.join(args.out, f"{name}-{label}.png")
            driver.screenshot(path)
            shots.append(path)
        if args.picture:
            # The README's picture: the instant the views part, the slider stuck at the top
            # over the message flow and every device's screen.
            driver.run("window.groupsimTimeline.seek(arguments[0]);"
                       "const flow = document.getElementById('flow');"
                       "window.scrollTo(0, flow.getBoundingClientRect().top + window.scrollY - 128);", instants[1][1])
            driver.screenshot(args.picture)
            shots.append(args.picture)
    check_requests(driver, scenario, url, failures)
    return checked


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--groupsim", required=True)
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--chromedriver", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--picture", help="also save the first scenario at its first pitfall moment here (the README's picture)")
    parser.add_argument("--height", type=int, default=1600, help="the browser window's height")
    parser.add_argument("scenarios", nargs="+")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    try:
        driver = WebDriver(args.chromedriver, args.chromium, os.path.join(args.out, "chromedriver.log"), args.height)
    except (RuntimeError, OSError) as error:
        print(f"check-timeline: could not start Chromium through chromedriver: {error}", file=sys.stderr)
        return 2
    failures, shots, screens, pages = [], [], 0, 0
    try:
        for number, scenario in enumerate(args.scenarios):
            checked = check_scenario(driver, args, scenario, number, failures, shots)
            screens += checked
            print(f"check-timeline: {scenario}: {checked} device screens checked")
        # Each lesson's page: its broken and fixed runs, one slider each.
        lessons = {}
        for scenario in args.scenarios:
            base = os.path.basename(scenario)
            for suffix, slot in (("-broken.yaml", 0), ("-fixed.yaml", 1)):
                if os.path.basename(os.path.dirname(scenario)) == "lessons" and base.endswith(suffix):
                    lessons.setdefault(base[:-len(suffix)], [None, None])[slot] = scenario
        for lesson, files in sorted(lessons.items()):
            if None in files:
                continue
            checked = check_lesson(driver, args, lesson, files, failures)
            screens += checked
            pages += 1
            print(f"check-timeline: lesson {lesson}: both runs, {checked} device screens checked")
    finally:
        driver.quit()
    for failure in failures[:40]:
        print("FAIL " + failure, file=sys.stderr)
    if len(failures) > 40:
        print(f"... and {len(failures) - 40} more", file=sys.stderr)
    print(f"check-timeline: {len(args.scenarios)} scenarios and {pages} lesson pages (both runs each), {screens} device screens at every event, "
          f"{len(failures)} failures; screenshots: {', '.join(shots)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
