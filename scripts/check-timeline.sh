#!/usr/bin/env bash
# Checks the HTML report's time slider in a real browser: for every scenario in Scenarios/
# (lessons included) and every event of its run, each device's screen as the page draws
# it must equal that device's screen in the run at that event (`groupsim run --format
# screens`); each lesson's page (`groupsim lessons NAME --format html`) holds its broken
# and its fixed run, and both sliders are stepped the same way, event by event; the page
# must ask for nothing outside itself; three screenshots of the
# pickles race are taken (first event, where the views part, the end). The driver is
# scripts/check-timeline.py: Python's standard library speaking WebDriver to chromedriver.
#
# Usage: scripts/check-timeline.sh [OUTPUT_DIR]
#   With OUTPUT_DIR the pages, screen dumps and screenshots stay there; without it they
#   go to a temporary folder that is removed at the end.
#
# Needs Swift, python3, Chromium and chromedriver. Run as root with apt-get at hand, it
# installs Debian's chromium and chromium-driver packages when they are missing.
#
# Exit status: 0 every check held; 1 a check failed; 2 setup error (the build, the
# driver); 3 Chromium or chromedriver is missing and could not be installed.
set -euo pipefail

cd "$(dirname "$0")/.."

find_tool() {
    for name in "$@"; do
        if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
    done
    return 1
}

browser="$(find_tool chromium chromium-browser || true)"
driver="$(find_tool chromedriver chromium-driver || true)"
if [ -z "$browser" ] || [ -z "$driver" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "check-timeline: installing Debian's chromium and chromium-driver packages" >&2
        if apt-get update -qq >/dev/null 2>&1 &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null 2>&1; then
            browser="$(find_tool chromium chromium-browser || true)"
            driver="$(find_tool chromedriver chromium-driver || true)"
        fi
    fi
fi
if [ -z "$browser" ] || [ -z "$driver" ]; then
    echo "check-timeline: Chromium and chromedriver are not installed and could not be installed here." >&2
    echo "  On Debian or Ubuntu: sudo apt-get update && sudo apt-get install -y chromium chromium-driver" >&2
    exit 3
fi

if [ $# -ge 1 ]; then
    out="$1"
    mkdir -p "$out"
else
    out="$(mktemp -d)"
    trap 'rm -rf "$out"' EXIT
fi

swift build --product groupsim >/dev/null || exit 2
groupsim="$(swift build --show-bin-path)/groupsim"

# The pickles race first: its screenshots are the ones kept.
scenarios=(Scenarios/pickles-race.yaml)
for file in Scenarios/*.yaml Scenarios/lessons/*.yaml; do
    [ "$file" = Scenarios/pickles-race.yaml ] || scenarios+=("$file")
done

python3 scripts/check-timeline.py --groupsim "$groupsim" --chromium "$browser" --chromedriver "$driver" \
    --out "$out" "${scenarios[@]}"
if [ $# -eq 0 ]; then
    echo "check-timeline: the pages and screenshots were in a temporary folder, now removed; pass OUTPUT_DIR to keep them"
fi
