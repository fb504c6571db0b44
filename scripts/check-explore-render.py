#!/usr/bin/env python3
"""Checks a headless-Chromium render of an exploration page (`explore --format html`),
standard library only.

Usage: check-explore-render.py DOM_FILE SCREENSHOT_PNG

DOM_FILE is Chromium's --dump-dom output. The check fails (exit 1) unless:
  - the page holds a failure-rate bar per check and outcome bars (inline SVG), with
    filled red and blue bars;
  - it holds the pitfalls table;
  - every failing outcome shows a replay command `groupsim run FILE --seed N` and an
    embedded run report that ends with the run's trace digest;
  - it has no <script> element and no link (<a href>, <link>);
  - the PNG screenshot is not blank and shows the bars' red and blue.
"""

import html.parser
import importlib.util
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("check_render", os.path.join(here, "check-render.py"))
check_render = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_render)

BAR_COLOURS = [(0xDC, 0x26, 0x26), (0x25, 0x63, 0xEB)]


class ExplorePage(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack = []
        self.bars = 0
        self.filled = {"bar-fail": 0, "bar-pass": 0}
        self.scripts = 0
        self.links = 0
        self.pitfall_rows = 0
        self.replays = []
        self.reports = []
        self.capture = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        self.stack.append((tag, classes))
        if tag == "script":
            self.scripts += 1
        if (tag == "a" and "href" in attributes) or tag == "link":
            self.links += 1
        if tag == "svg" and "bar" in classes:
            self.bars += 1
        if tag == "rect":
            width = float(attributes.get("width") or 0)
            for kind in self.filled:
                if kind in classes and width > 0:
                    self.filled[kind] += 1
        if tag == "tr" and any(t == "section" for t, _ in self.stack[:-1]) and self.in_section("pitfalls"):
            self.pitfall_rows += 1
        if tag == "pre" and "replay" in classes:
            self.capture = ("replay", [])
        if tag == "pre" and "run-report" in classes:
            self.capture = ("report", [])

    def in_section(self, name):
        return any(t == "section" and name in c for t, c in self.stack) or self.current_section == name

    current_section = None

    def handle_endtag(self, tag):
        if tag == "pre" and self.capture:
            kind, parts = self.capture
            (self.replays if kind == "replay" else self.reports).append("".join(parts))
            self.capture = None
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag:
                break

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_data(self, data):
        if self.capture:
            self.capture[1].append(data)


class SectionTracker(ExplorePage):
    """Remembers the id of the section being read, for the pitfalls table."""

    def handle_starttag(self, tag, attrs):
        if tag == "section":
            self.current_section = dict(attrs).get("id")
        super().handle_starttag(tag, attrs)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    dom_path, png_path = argv[1], argv[2]
    page = SectionTracker()
    with open(dom_path, encoding="utf-8") as handle:
        page.feed(handle.read())
    failures = []
    if page.scripts:
        failures.append(f"the page has {page.scripts} <script> element(s)")
    if page.links:
        failures.append(f"the page has {page.links} link(s); it must have none")
    if page.bars < 4:
        failures.append(f"expected bars for the checks and the outcomes, found {page.bars}")
    if page.filled["bar-fail"] < 1 or page.filled["bar-pass"] < 1:
        failures.append(f"expected filled failure and outcome bars, found {page.filled}")
    if page.pitfall_rows < 1:
        failures.append("the pitfalls table is missing or empty")
    if not page.replays:
        failures.append("no replay command is shown")
    for replay in page.replays:
        if not re.fullmatch(r"groupsim run \S+ --seed \d+", replay.strip()):
            failures.append(f"not a replay command: {replay!r}")
    if len(page.reports) != len(page.replays):
        failures.append(f"{len(page.replays)} failing outcomes but {len(page.reports)} embedded run reports")
    for report in page.reports:
        if not re.search(r"trace: [0-9a-f]{64}\s*$", report):
            failures.append("an embedded run report does not end with its trace digest")

    width, height, rows = check_render.read_png(png_path)
    colours = set()
    bar_pixels = {colour: 0 for colour in BAR_COLOURS}
    non_white = 0
    total = 0
    for y in range(0, height, 2):
        for pixel in rows[y][::2]:
            total += 1
            colours.add(pixel)
            if sum(pixel) < 3 * 245:
                non_white += 1
            for colour in BAR_COLOURS:
                if sum(abs(a - b) for a, b in zip(pixel, colour)) < 40:
                    bar_pixels[colour] += 1
    if len(colours) < 16:
        failures.append(f"the screenshot looks blank: only {len(colours)} distinct colours")
    if non_white / max(1, total) < 0.02:
        failures.append("the screenshot looks blank")
    if min(bar_pixels.values()) < 20:
        failures.append(f"the screenshot shows no red and blue bars ({bar_pixels})")

    print(f"check-explore-render: DOM: {page.bars} bars ({page.filled}), {page.pitfall_rows} pitfalls, "
          f"{len(page.replays)} replay commands, {len(page.reports)} run reports")
    print(f"check-explore-render: PNG {width}x{height}: {len(colours)} colours, bar pixels {list(bar_pixels.values())}")
    for failure in failures:
        print(f"check-explore-render: FAIL {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
