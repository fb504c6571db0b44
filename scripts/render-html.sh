#!/usr/bin/env bash
# Renders the HTML report of Scenarios/pickles-race.yaml with headless Chromium and
# checks the render: the DOM must hold the SVG message-flow diagram and every device's
# transcript, and the screenshot must not be blank (scripts/check-render.py). Then does
# the same for the exploration page of Scenarios/pickles-race-window.yaml
# (`explore --format html`): bars, pitfalls, replay commands and embedded run reports
# (scripts/check-explore-render.py).
#
# Usage: scripts/render-html.sh [OUTPUT_DIR]     (default: .build/render-check)
#
# Needs Swift, python3 and Chromium. Debian's `chromium` package is installed when it
# is missing and the script runs as root; otherwise it says how to install it.
set -euo pipefail

cd "$(dirname "$0")/.."
out="${1:-.build/render-check}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

find_chromium() {
    for name in chromium chromium-browser google-chrome google-chrome-stable; do
        if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
    done
    return 1
}

if ! browser="$(find_chromium)"; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "render-html: installing Debian's chromium package" >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
        browser="$(find_chromium)"
    else
        echo "render-html: Chromium is not installed." >&2
        echo "  On Debian or Ubuntu: sudo apt-get update && sudo apt-get install -y chromium" >&2
        echo "  (or run this script as root and it installs the package itself)" >&2
        exit 2
    fi
fi

flags=(--headless --disable-gpu --hide-scrollbars --no-first-run --disable-extensions --mute-audio)
# Chromium refuses to run as root inside its sandbox.
if [ "$(id -u)" = 0 ]; then flags+=(--no-sandbox); fi

swift build --product groupsim >/dev/null
groupsim="$(swift build --show-bin-path)/groupsim"

"$groupsim" run Scenarios/pickles-race.yaml --format html --output "$out/race.html"

page="file://$out/race.html"
"$browser" "${flags[@]}" --window-size=1280,2200 --screenshot="$out/race.png" "$page" 2>"$out/chromium.log"
"$browser" "${flags[@]}" --dump-dom "$page" >"$out/race.dom.html" 2>>"$out/chromium.log"

python3 scripts/check-render.py "$out/race.dom.html" "$out/race.png"
echo "render-html: ok; page $out/race.html, screenshot $out/race.png"

"$groupsim" explore Scenarios/pickles-race-window.yaml --runs 1000 --quiet --format html --output "$out/explore.html" || test $? -eq 1
explore="file://$out/explore.html"
"$browser" "${flags[@]}" --window-size=1280,2200 --screenshot="$out/explore.png" "$explore" 2>>"$out/chromium.log"
"$browser" "${flags[@]}" --dump-dom "$explore" >"$out/explore.dom.html" 2>>"$out/chromium.log"

python3 scripts/check-explore-render.py "$out/explore.dom.html" "$out/explore.png"
echo "render-html: ok; page $out/explore.html, screenshot $out/explore.png"
