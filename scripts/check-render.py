#!/usr/bin/env python3
"""Checks a headless-Chromium render of a GroupSim HTML report (standard library only).

Usage: check-render.py DOM_FILE SCREENSHOT_PNG [DEVICE ...]

DOM_FILE is Chromium's --dump-dom output. The check fails (exit 1) unless:
  - the page holds the SVG message-flow diagram with at least one arrow per copy
    group, lanes and time rows;
  - it holds one transcript per device, at least three, drawn with bubbles, and
    every DEVICE named (default: the devices of Scenarios/pickles-race.yaml);
  - it holds the checks table and the pitfalls with their explanations;
  - its only <script> elements are its own two: the time slider's event list
    (type application/json, id timeline-data) and the slider's inline script, which
    has run (the slider bar is no longer hidden);
  - the PNG screenshot is not blank: many distinct colours, a fair share of
    non-white pixels, and pixels in the diagram's arrow colours.
"""

import html.parser
import struct
import sys
import zlib

DEFAULT_DEVICES = ["alice-phone", "bob-phone", "bob-ipad", "carol-phone"]
# The first colours of HTMLReport.palette: m1 blue, m2 red, m3 green, m4 purple.
ARROW_COLOURS = [(0x25, 0x63, 0xEB), (0xDC, 0x26, 0x26), (0x16, 0xA3, 0x4A), (0x93, 0x33, 0xEA)]


class Page(html.parser.HTMLParser):
    """Counts the elements the check cares about."""

    def __init__(self):
        super().__init__()
        self.stack = []
        self.flow_svgs = 0
        self.copy_lines = 0
        self.lanes = 0
        self.transcripts = 0
        self.bubbles = 0
        self.summaries = 0
        self.scripts = 0
        self.timeline_data = 0
        self.inline_scripts = 0
        self.scrubber_shown = False
        self.check_rows = 0
        self.pitfalls = 0
        self.transcript_names = []
        self.in_transcript_heading = False
        self.text = []

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        self.stack.append((tag, classes))
        in_copy = any(t == "g" and "copy" in c for t, c in self.stack[:-1])
        if tag == "script":
            self.scripts += 1
            if dict(attrs).get("type") == "application/json" and dict(attrs).get("id") == "timeline-data":
                self.timeline_data += 1
            elif not dict(attrs).get("src") and not dict(attrs).get("type"):
                self.inline_scripts += 1
        if tag == "nav" and dict(attrs).get("id") == "scrubber":
            self.scrubber_shown = "hidden" not in dict(attrs)
        if tag == "svg" and "flow" in classes:
            self.flow_svgs += 1
        if tag == "line" and in_copy:
            self.copy_lines += 1
        if tag == "line" and "lane-line" in classes:
            self.lanes += 1
        if tag == "div" and "device-transcript" in classes:
            self.transcripts += 1
        if tag == "div" and "bubble" in classes:
            self.bubbles += 1
        if tag == "div" and "summary" in classes:
            self.summaries += 1
        if tag == "tr" and any(t == "table" and "checks" in c for t, c in self.stack[:-1]):
            self.check_rows += 1
        if tag == "article" and "pitfall" in classes:
            self.pitfalls += 1
        if tag == "h3" and any(t == "div" and "device-transcript" in c for t, c in self.stack[:-1]):
            self.in_transcript_heading = True
            self.transcript_names.append("")

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag:
                break
        if tag == "h3":
            self.in_transcript_heading = False

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_data(self, data):
        if self.in_transcript_heading:
            self.transcript_names[-1] += data
        self.text.append(data)


def read_png(path):
    """Returns (width, height, rows of (r, g, b) tuples) for an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    position = 8
    idat = b""
    width = height = depth = colour = None
    while position < len(data):
        (length,) = struct.unpack(">I", data[position:position + 4])
        kind = data[position + 4:position + 8]
        body = data[position + 8:position + 8 + length]
        position += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (2, 6) or interlace != 0:
                raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows = []
    previous = bytearray(stride)
    offset = 0
    for _ in range(height):
        kind = raw[offset]
        line = bytearray(raw[offset + 1:offset + 1 + stride])
        offset += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                estimate = left + up - up_left
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - up_left)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
                line[i] = (line[i] + predictor) & 0xFF
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, channels)])
        previous = line
    return width, height, rows


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    dom_path, png_path = argv[1], argv[2]
    devices = argv[3:] or DEFAULT_DEVICES
    failures = []

    page = Page()
    with open(dom_path, encoding="utf-8") as handle:
        page.feed(handle.read())
    if (page.scripts, page.timeline_data, page.inline_scripts) != (2, 1, 1):
        failures.append(f"the page has {page.scripts} <script> element(s); it must have only its event list and its one inline script")
    if not page.scrubber_shown:
        failures.append("the time slider is still hidden: its script did not run")
    if page.flow_svgs != 1:
        failures.append(f"expected one <svg class=flow> diagram, found {page.flow_svgs}")
    if page.copy_lines < 3:
        failures.append(f"expected arrows for the delivered copies in the diagram, found {page.copy_lines}")
    if page.lanes < len(devices):
        failures.append(f"expected a lane per device ({len(devices)}), found {page.lanes}")
    if page.transcripts < max(3, len(devices)):
        failures.append(f"expected at least {max(3, len(devices))} device transcripts, found {page.transcripts}")
    names = [name.strip() for name in page.transcript_names]
    for device in devices:
        if device not in names:
            failures.append(f"no transcript for {device} (found {names})")
    if page.bubbles < len(devices):
        failures.append(f"expected a bubble per transcript, found {page.bubbles}")
    if page.check_rows < 2:
        failures.append("the checks table is missing or empty")
    if page.pitfalls < 1:
        failures.append("no pitfall is shown")
    text = " ".join(page.text)
    if "Why." not in text or "Fix." not in text:
        failures.append("the pitfalls' explanations and fixes are missing")

    width, height, rows = read_png(png_path)
    colours = set()
    non_white = 0
    arrow_pixels = 0
    total = 0
    for y in range(0, height, 2):
        for pixel in rows[y][::2]:
            total += 1
            colours.add(pixel)
            if sum(pixel) < 3 * 245:
                non_white += 1
            if any(sum(abs(a - b) for a, b in zip(pixel, colour)) < 40 for colour in ARROW_COLOURS):
                arrow_pixels += 1
    share = non_white / max(1, total)
    if len(colours) < 32:
        failures.append(f"the screenshot looks blank: only {len(colours)} distinct colours")
    if share < 0.02:
        failures.append(f"the screenshot looks blank: {share:.1%} non-white pixels")
    if arrow_pixels < 50:
        failures.append(f"the screenshot shows no diagram arrows ({arrow_pixels} pixels in the arrow colours)")

    print(f"check-render: DOM: 1 diagram with {page.copy_lines} arrows and {page.lanes} lanes; "
          f"{page.transcripts} transcripts ({', '.join(names)}) with {page.bubbles} bubbles and {page.summaries} summary lines; "
          f"{page.check_rows - 1} checks; {page.pitfalls} pitfalls")
    print(f"check-render: PNG {width}x{height}: {len(colours)} colours, {share:.1%} non-white, "
          f"{arrow_pixels} sampled pixels in arrow colours")
    for failure in failures:
        print(f"check-render: FAIL {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
