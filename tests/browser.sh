#!/bin/sh
# browser.sh -- the HTML report in a real browser.
#
#   sh tests/browser.sh REGIONSIM PNG_CHECK DIR
#
# Writes the default scenario's compare report as HTML to DIR/report.html,
# has Debian's chromium render it headless into DIR/report.png, and checks
# with PNG_CHECK that the picture has the window's size and is not blank.
# Chromium runs with a fresh profile, no sandbox (CI runs as root), no GPU,
# and every host name resolving to nothing: the page is self-contained and
# nothing may touch the network.
#
# Without chromium the test is skipped (exit 77, meson's skip code), except
# under CI (CI set and not "false"), where it fails: `sh setup.sh --tests`
# installs it. Registered in tests/meson.build (suite e2e). CHROMIUM=PATH
# runs another browser binary.
set -eu

WIDTH=1400
HEIGHT=2000

if [ $# -ne 3 ]; then
    echo "usage: sh browser.sh REGIONSIM PNG_CHECK DIR" >&2
    exit 2
fi
regionsim=$1
png_check=$2
mkdir -p "$3"
dir=$(cd "$3" && pwd -P)

in_ci() { [ -n "${CI:-}" ] && [ "${CI:-}" != false ] && [ "${CI:-}" != 0 ]; }

# The browser: $CHROMIUM if set, else chromium on PATH, else Debian's
# /usr/bin/chromium.
chromium=${CHROMIUM:-$(command -v chromium || echo /usr/bin/chromium)}
if ! [ -x "$chromium" ]; then
    if in_ci; then
        echo "browser: FAIL: chromium is not installed ($chromium not found), and CI must run this test" >&2
        echo "browser: CI runs 'sh setup.sh --tests', which installs it (Debian package chromium)" >&2
        exit 1
    fi
    echo "browser: SKIP: chromium is not installed ($chromium not found); run 'sh setup.sh --tests' to install it" >&2
    exit 77
fi

html=$dir/report.html
png=$dir/report.png
log=$dir/chromium.log
rm -f "$html" "$png" "$log"

echo "browser: $regionsim compare --format html -o $html"
start=$(date +%s)
"$regionsim" compare --format html -o "$html"
if [ ! -s "$html" ]; then
    echo "browser: FAIL: regionsim wrote no HTML to $html" >&2
    exit 1
fi
echo "browser: report.html is $(wc -c <"$html") bytes"

# The page is XHTML syntax (see reports/report.h): check it is well-formed
# XML when xmllint is here (setup.sh --tests installs it).
if command -v xmllint >/dev/null 2>&1; then
    if ! xmllint --noout --nonet "$html"; then
        echo "browser: FAIL: $html is not well-formed (xmllint above)" >&2
        exit 1
    fi
    echo "browser: xmllint: well-formed"
elif in_ci; then
    echo "browser: FAIL: xmllint is not installed (Debian package libxml2-utils; sh setup.sh --tests)" >&2
    exit 1
fi

profile=$(mktemp -d "${TMPDIR:-/tmp}/regionsim-chromium.XXXXXX")
trap 'rm -rf "$profile"' EXIT
trap 'exit 1' HUP INT TERM

echo "browser: $("$chromium" --version 2>/dev/null || echo chromium) renders it at ${WIDTH}x$HEIGHT"
t0=$(date +%s)
status=0
# HOME and XDG_* point into the fresh profile too, so chromium writes
# nothing outside it (crash reports, caches).
HOME=$profile XDG_CONFIG_HOME=$profile XDG_CACHE_HOME=$profile \
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
    --no-first-run --disable-background-networking --disable-component-update \
    --disable-sync --disable-dev-shm-usage --hide-scrollbars \
    --host-resolver-rules='MAP * ~NOTFOUND' \
    --user-data-dir="$profile/profile" --window-size="$WIDTH,$HEIGHT" \
    --screenshot="$png" "file://$html" >"$log" 2>&1 || status=$?
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
echo "browser: ok in $(($(date +%s) - start)) s: $png"
