#!/bin/sh
# watch_plain.sh -- `regionsim watch` when stdout is not a terminal.
#
#   sh tests/watch_plain.sh REGIONSIM CLASSROOM.ini
#
# Plain progress lines, one per report window, no escapes, exit 0, the same
# twice; the last line's figures are those `regionsim run` reports; --speed
# paces them; bad --speed values exit 2 with a message naming the option
# and the token, and print nothing on stdout. Every variable the binary
# reads is set here (TERM, NO_COLOR, LC_ALL, TZ). Registered in
# tests/meson.build (suite e2e); about half a second.
set -eu

if [ $# -ne 2 ]; then
    echo "usage: sh watch_plain.sh REGIONSIM CLASSROOM.ini" >&2
    exit 2
fi
regionsim=$1
classroom=$2 # 30 minutes, a window a minute (examples/classroom.ini)
dir=$(mktemp -d "${TMPDIR:-/tmp}/regionsim-watch.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'exit 1' HUP INT TERM

# TERM names a real terminal: only stdout not being one makes the lines plain
rs() { env -u NO_COLOR TERM=xterm-256color LC_ALL=C TZ=UTC "$regionsim" "$@"; }
fail() { echo "watch_plain: FAIL: $*" >&2; exit 1; }

# the balancer at whole periods (5, 10, .. min): the warm-up then ends on a
# window's edge, where the watch's window sums and the run's counts agree
# (a drawn phase measures from mid-window, which windows cannot split)
rs watch "$classroom" --scheme monotonic --balancer-phase 5m >"$dir/a" 2>"$dir/a.err" ||
    fail "exit $? (stderr: $(cat "$dir/a.err"))"
rs watch "$classroom" --scheme monotonic --balancer-phase 5m >"$dir/b" 2>/dev/null
cmp -s "$dir/a" "$dir/b" || fail "two runs printed different lines"
[ ! -s "$dir/a.err" ] || fail "stderr: $(cat "$dir/a.err")"
if grep -q "$(printf '\033')" "$dir/a"; then fail "an escape in the plain lines"; fi
lines=$(wc -l <"$dir/a")
[ "$lines" -eq 30 ] || fail "expected 30 lines (30 one-minute windows), found $lines"
# before the measured run (the warm-up, measure_from = auto) nothing is
# measured yet: its figures are "-", counted below against the run's start
bad=$(grep -cvE '^[0-9]{2}:[0-9]{2}:[0-9]{2} hot rs[0-9]+ \([0-9.]+%\) max/mean ([0-9.]+ window [0-9.]+|- window -) regions [0-9]+ splits [0-9]+ moves [0-9]+$' "$dir/a" || true)
[ "$bad" -eq 0 ] || fail "$bad lines not of the form expected:
$(head -3 "$dir/a")"
[ "$(head -1 "$dir/a" | cut -d' ' -f1)" = 00:01:00 ] || fail "the first line is not at 00:01:00"
[ "$(tail -1 "$dir/a" | cut -d' ' -f1)" = 00:30:00 ] || fail "the last line is not at 00:30:00"
# a timestamp key: the hot server moves (the balancer moves the tail region)
hot=$(sed 's/.* hot \(rs[0-9]*\) .*/\1/' "$dir/a" | sort -u | wc -l)
[ "$hot" -ge 2 ] || fail "the hot server never moved"

# the last line's figures are the run's report's
rs run "$classroom" --scheme monotonic --balancer-phase 5m --samples 1 >"$dir/run" 2>/dev/null # one seed, as watch
run_mm=$(sed -n 's/^  max\/mean \([0-9.]*\) .*/\1/p' "$dir/run" | head -1)
run_wm=$(sed -n 's/^  per-window max\/mean: mean \([0-9.]*\),.*/\1/p' "$dir/run" | head -1)
[ -n "$run_mm" ] && [ -n "$run_wm" ] || fail "no max/mean figures in the run report"
# the lines of the warm-up (figures "-") are the minutes before the run's
# measured span ("measured 10 min-30 min" in its report; a span from
# 8.1 min would leave the 9 windows that start before it unmeasured)
from=$(sed -n 's/^  measured \([0-9.]*\) min-.*/\1/p' "$dir/run")
[ -n "$from" ] || fail "no measured span in the run report"
from=$(awk -v m="$from" 'BEGIN { c = int(m); if (c < m) c++; print c }')
warm=$(grep -c ' max/mean - window - ' "$dir/a" || true)
[ "$warm" -eq "$from" ] || fail "$warm lines without figures, the run measured from $from min"
tail -1 "$dir/a" | grep -q " max/mean $run_mm window $run_wm " ||
    fail "last line '$(tail -1 "$dir/a")' differs from the run's max/mean $run_mm, window $run_wm"

# --speed paces them: 1 simulated minute at 2 min a second takes half a second
start=$(date +%s%N)
rs watch "$classroom" --scheme monotonic --duration 1m --window 10s --speed 2m >"$dir/paced" 2>/dev/null
took=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$(wc -l <"$dir/paced")" -eq 6 ] || fail "--speed: expected 6 lines, found $(wc -l <"$dir/paced")"
[ "$took" -ge 450 ] || fail "--speed 2m: a simulated minute took $took ms, expected at least 450"

# bad --speed values
for v in 0 -1 abc 1x 2000000 1e3 0x10 ""; do
    status=0
    rs watch --scheme monotonic --speed "$v" >"$dir/out" 2>"$dir/err" || status=$?
    [ "$status" -eq 2 ] || fail "--speed '$v': exit $status, expected 2"
    [ ! -s "$dir/out" ] || fail "--speed '$v': printed on stdout"
    grep -q -- "--speed: expected .* found '$v'" "$dir/err" || fail "--speed '$v': message: $(cat "$dir/err")"
done
status=0
rs run --scheme monotonic --speed 60 >/dev/null 2>"$dir/err" || status=$?
[ "$status" -eq 2 ] && grep -q -- "--speed: only with watch" "$dir/err" || fail "run --speed: exit $status"
echo "watch_plain: ok ($lines lines; --speed 2m: $took ms)"
