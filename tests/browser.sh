#!/bin/sh
# browser.sh -- the HTML report in a real browser.
#
#   sh tests/browser.sh REGIONSIM PNG_CHECK DIR [SCENARIO.ini]
#
# Writes a compare report (of SCENARIO.ini, or without one the default
# scenario's, as docs/report.png shows it) as HTML to DIR/report.html
# and as JSON to DIR/report.json, and has Debian's chromium (headless):
#   1. build the page and print its DOM (--dump-dom), which
#      tests/browser_dom.py checks against the JSON: the summary table's
#      rows and figures, one panel per scheme, the legends;
#   2. render it into DIR/report.png, which PNG_CHECK checks: the window's
#      size, not blank, and the salted panel's server heatmap (an even
#      scheme: max/mean 1.00) drawn in one shade.
# Both load DIR/probe.html: the page with a script added at its end that
# stores that heatmap's box on the root element (data-box), so the test
# knows where to look in the picture; the script changes nothing drawn.
# Chromium runs with a fresh profile, no sandbox (CI runs as root), no GPU,
# and every host name resolving to nothing: the page is self-contained and
# nothing may touch the network.
#
# Without chromium the test is skipped (exit 77, meson's skip code), except
# under CI (CI set and not "false"), where it fails: `sh setup.sh --tests`
# installs it; likewise without xmllint, once every other check passed.
# Registered in tests/meson.build (suite e2e) with examples/classroom.ini:
# the default month's 36 runs, twice, take minutes under the sanitizers.
# CHROMIUM=PATH runs another browser binary.
set -eu

WIDTH=1400
HEIGHT=2800 # the summary (a range line a scheme), the regime statement, then the first two panels

if [ $# -ne 3 ] && [ $# -ne 4 ]; then
    echo "usage: sh browser.sh REGIONSIM PNG_CHECK DIR [SCENARIO.ini]" >&2
    exit 2
fi
regionsim=$1
png_check=$2
mkdir -p "$3"
dir=$(cd "$3" && pwd -P)
scenario=${4:-}

test_name=browser
. "$(dirname "$0")/lib.sh"
skip_in_package_build "this test runs chromium"

# The browser: $CHROMIUM if set, else chromium on PATH, else Debian's
# /usr/bin/chromium.
chromium=${CHROMIUM:-$(command -v chromium || echo /usr/bin/chromium)}
[ -x "$chromium" ] ||
    skip "chromium is not installed ($chromium not found; Debian package chromium, sh setup.sh --tests)"

html=$dir/report.html
png=$dir/report.png
log=$dir/chromium.log
rm -f "$html" "$png" "$log"

echo "browser: $regionsim compare $scenario --format html -o $html"
start=$(date +%s)
"$regionsim" compare $scenario --format html -o "$html"
if [ ! -s "$html" ]; then
    echo "browser: FAIL: regionsim wrote no HTML to $html" >&2
    exit 1
fi
echo "browser: report.html is $(wc -c <"$html") bytes"
json=$dir/report.json
"$regionsim" compare $scenario --format json -o "$json"
probe=$dir/probe.html
dom=$dir/dom.html
# The heatmap checked for one shade: the salted panel's first (server
# writes) grid of cells.
selector='section[data-scheme="salted"] svg.cells'
script="<script>(function(){var e=document.querySelector('$selector');if(!e)return;var r=e.getBoundingClientRect();document.documentElement.setAttribute('data-box',[r.left,r.top,r.width,r.height].map(Math.round).join(','));})();</script>"
awk -v s="$script" '{ i = index($0, "</body>"); if (i) { print substr($0, 1, i - 1) s substr($0, i) } else print }' "$html" >"$probe"
grep -q 'data-box' "$probe" || { echo "browser: FAIL: no </body> in $html to add the probe before" >&2; exit 1; }

# The page is XHTML syntax (see reports/report.h): check it is well-formed
# XML when xmllint is here (setup.sh --tests installs it); without it the
# test ends as skipped (77) once every other check has passed, so that
# meson counts what did not run, and fails under CI.
unchecked=""
if command -v xmllint >/dev/null 2>&1; then
    if ! xmllint --noout --nonet "$html"; then
        echo "browser: FAIL: $html is not well-formed (xmllint above)" >&2
        exit 1
    fi
    echo "browser: xmllint: well-formed"
elif in_ci; then
    echo "browser: FAIL: xmllint is not installed (Debian package libxml2-utils; sh setup.sh --tests)" >&2
    exit 1
else
    unchecked="xmllint is not installed (Debian package libxml2-utils; sh setup.sh --tests): the page was not checked well-formed"
fi

profile=$(mktemp -d "${TMPDIR:-/tmp}/regionsim-chromium.XXXXXX")
trap 'rm -rf "$profile"' EXIT
trap 'exit 1' HUP INT TERM

# run_chromium ARGS...: runs the browser headless on the probe page, its
# output (stderr) in $log, stdout where the caller sends it. HOME and
# XDG_* point into the fresh profile too, so chromium writes nothing
# outside it (crash reports, caches). timeout --foreground keeps the
# browser in the test's process group, where meson's SIGTERM (on the
# test's timeout) reaches it; plain timeout would move it out of reach.
run_chromium() {
    HOME=$profile XDG_CONFIG_HOME=$profile XDG_CACHE_HOME=$profile \
    timeout --foreground 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking --disable-component-update \
        --disable-sync --disable-dev-shm-usage --hide-scrollbars \
        --host-resolver-rules='MAP * ~NOTFOUND' \
        --user-data-dir="$profile/profile" --window-size="$WIDTH,$HEIGHT" \
        "$@" "file://$probe" 2>>"$log"
}

echo "browser: $("$chromium" --version 2>/dev/null || echo chromium) builds the page's DOM"
status=0
run_chromium --dump-dom >"$dom" || status=$?
if [ "$status" -ne 0 ] || [ ! -s "$dom" ]; then
    cat "$log" >&2
    echo "browser: FAIL: chromium --dump-dom exited $status (its output above)" >&2
    exit 1
fi
status=0
python3 "$(dirname "$0")/browser_dom.py" "$dom" "$json" --box >"$dir/dom.txt" || status=$?
sed 's/^/browser: /' "$dir/dom.txt"
[ "$status" -eq 0 ] || { echo "browser: FAIL: the page's DOM disagrees with the JSON report (above)" >&2; exit 1; }
box=$(sed -n 's/^box //p' "$dir/dom.txt" | tr ',' ' ')

echo "browser: chromium renders it at ${WIDTH}x$HEIGHT"
t0=$(date +%s)
status=0
run_chromium --screenshot="$png" >/dev/null || status=$?
t1=$(date +%s)
if [ "$status" -ne 0 ] || [ ! -s "$png" ]; then
    cat "$log" >&2
    if [ "$status" -eq 124 ]; then
        echo "browser: FAIL: chromium did not finish within 120 s (its output above)" >&2
    else
        echo "browser: FAIL: chromium exited $status and wrote ${png}: $( [ -s "$png" ] && echo yes || echo no) (its output above)" >&2
    fi
    exit 1
fi
echo "browser: chromium took $((t1 - t0)) s ($(wc -l <"$log") lines of chromium output in $log)"

"$png_check" "$png" "$WIDTH" "$HEIGHT" 16 2
# An even load looks even: the salted server heatmap in one shade.
# shellcheck disable=SC2086 # $box is four numbers
"$png_check" "$png" --shades $box 1
if [ -n "$unchecked" ]; then
    echo "browser: SKIP: every other check passed, but $unchecked"
    exit 77
fi
echo "browser: ok in $(($(date +%s) - start)) s: $png"
