#!/bin/sh
# hostile.sh -- issue 12's reproductions, end to end, as a user types them.
#
#   sh tests/hostile.sh REGIONSIM SANITIZED
#
# Each case runs the binary under `ulimit -v` of 4 GiB (not in a sanitizer
# build: ASan reserves terabytes of address space up front) and a 60 s
# watchdog (a hang detector, not a speed target: every case ends in well
# under a second on a quiet machine), and checks the exit status and that
# the message names what it should. Paths and devices are private to a
# temporary directory; device nodes (mknod) only when run as root.
set -u
bin=$1
sanitized=${2:-false}
tmp=$(mktemp -d)
# Cases that cannot run here (device nodes need root) are named in
# $unchecked: once every case that ran has passed, the test then ends as
# skipped (77), which meson counts, rather than passing (set in the EXIT
# trap, so that whatever the last line is, it stays the verdict's).
unchecked=""
trap 'rm -rf "$tmp"; [ "$failures" = 0 ] && [ -n "$unchecked" ] &&
      { echo "SKIP: every case that ran passed, but not:$unchecked"; exit 77; }' EXIT
export LC_ALL=C TZ=UTC TERM=dumb NO_COLOR=1
failures=0
cases=0

# run_case NAME WANT_STATUS WANT_TEXT -- ARGS...: stdout+stderr to $tmp/out.
run_case() {
    name=$1 want=$2 text=$3
    shift 4
    cases=$((cases + 1))
    started=$(date +%s%N)
    (
        if [ "$sanitized" != true ]; then ulimit -v 4194304; fi
        exec timeout --foreground 60 "$bin" "$@" # (--foreground: in meson's reach)
    ) >"$tmp/out" 2>&1 </dev/null
    got=$?
    took=" ($(( ($(date +%s%N) - started) / 1000000 )) ms)"
    if [ "$got" != "$want" ]; then
        echo "FAIL $name: exit $got, expected $want"
        sed 's/^/    /' "$tmp/out" | head -5
        failures=$((failures + 1))
    elif [ -n "$text" ] && ! grep -qF -- "$text" "$tmp/out"; then
        echo "FAIL $name: no '$text' in:"
        sed 's/^/    /' "$tmp/out" | head -5
        failures=$((failures + 1))
    else
        echo "ok   $name$took"
    fi
}

# check NAME CONDITION...: a condition on the files a case left.
check() {
    name=$1
    shift
    cases=$((cases + 1))
    if "$@"; then echo "ok   $name"; else echo "FAIL $name"; failures=$((failures + 1)); fi
}

# --- High: files the program did not create ---------------------------------
if [ "$(id -u)" = 0 ] && mknod "$tmp/full" c 1 7 2>/dev/null && mknod "$tmp/null" c 1 3; then
    run_case "-o onto a private full device" 2 "$tmp/full" -- \
        run --scheme salted --duration 1m -o "$tmp/full"
    check "  ...which stays a device" test -c "$tmp/full"
    run_case "-o onto a private null device" 0 "" -- \
        run --scheme salted --duration 1m -o "$tmp/null"
    check "  ...which stays a device" test -c "$tmp/null"
    run_case "--write-trace onto a device, the run failing" 2 "" -- \
        run --scheme salted --duration 1m --write-trace "$tmp/null" --size-scale 999999999
    check "  ...which is not removed" test -c "$tmp/null"
else
    echo "skip device nodes (not root, or mknod refused)"
    unchecked="$unchecked the device nodes (not root, or mknod refused)"
fi
if [ -w /dev/full ]; then
    run_case "-o /dev/full" 2 "/dev/full" -- run --scheme salted --duration 1m -o /dev/full
else
    unchecked="$unchecked -o /dev/full (not writable)"
fi
mkfifo "$tmp/fifo"
(cat "$tmp/fifo" >"$tmp/fifo.out") &
run_case "-o onto a FIFO" 0 "" -- run --scheme salted --duration 1m -o "$tmp/fifo"
wait
check "  ...which stays a FIFO and got the report" test -p "$tmp/fifo" -a -s "$tmp/fifo.out"
echo old >"$tmp/target"
ln -s target "$tmp/link"
run_case "-o through a symlink" 0 "" -- run --scheme salted --duration 1m -o "$tmp/link"
check "  ...which stays a link to a rewritten file" test -L "$tmp/link" -a "$(head -c 3 "$tmp/target")" != old
echo precious >"$tmp/trace.csv"
run_case "--write-trace onto a file, the run failing" 2 "" -- \
    run --scheme salted --duration 1m --write-trace "$tmp/trace.csv" --size-scale 999999999
check "  ...which keeps its contents" grep -qx precious "$tmp/trace.csv"

# --- Medium -----------------------------------------------------------------
run_case "closed loop with zero service time finishes" 0 "" -- \
    run --scheme salted --clients 1 --rpc-time 0us --duration 1ms
run_case "uid(entity, 4) over 2^32-1 records" 0 "" -- \
    run --scheme 'uid(entity, 4)' --records 4294967295 --duration 10ms
{
    echo "[cluster]"
    i=0
    while [ $i -lt 64 ]; do
        echo "[event e$i]"
        echo "at = 1m"
        echo "action = add"
        echo "servers = 100000"
        i=$((i + 1))
    done
} >"$tmp/events.ini"
run_case "64 events of 100,000 servers" 2 "100000" -- run "$tmp/events.ini" --scheme salted
run_case "4e9 operations of a sequence" 2 "rate" -- \
    run --scheme salted --pattern sequence --rate 1000000000/s --duration 4s
run_case "--split-keys-file /dev/zero" 2 "/dev/zero:1" -- \
    run --scheme salted --split-keys-file /dev/zero
mkdir "$tmp/dir"
run_case "compare DIR/" 2 "directory" -- compare "$tmp/dir/"
run_case "compare /dev/zero" 2 "/dev/zero:1" -- compare /dev/zero
long=$(awk 'BEGIN { s = "ts"; for (i = 0; i < 300; i++) s = s " \"x\""; print s }')
run_case "a valid scheme of 1500 characters" 0 "" -- run --scheme "$long" --duration 1m

# --- Low ---------------------------------------------------------------------
printf '[cluster\nservers = 4\n' >"$tmp/bracket.ini"
run_case "[cluster without ]" 2 "bracket.ini:1" -- run "$tmp/bracket.ini" --scheme salted
printf '[cluster]\nservers = 4\n   8\n' >"$tmp/continued.ini"
run_case "indented continuation line" 2 "continued.ini:3" -- run "$tmp/continued.ini" --scheme salted
printf '[cluster]\nserv\000ers = 4\n' >"$tmp/nul.ini"
run_case "NUL byte in a scenario" 2 "NUL" -- run "$tmp/nul.ini" --scheme salted
{ i=0; while [ $i -lt 65 ]; do printf '[scheme s%d]\nkey = ts\n' $i; i=$((i + 1)); done; } >"$tmp/schemes.ini"
run_case "a 65th [scheme]" 2 "64" -- compare "$tmp/schemes.ini"
printf '1\tput\tk\t10\n18446744073709551615\tput\tk\t10\n' >"$tmp/late.tsv"
run_case "a trace time of 2^64-1" 2 "late.tsv:2" -- run --trace "$tmp/late.tsv" --scheme key
printf '[phase warm]\nduration = 1m\n[phase replay]\ntrace = %s\n' "$tmp/end.tsv" >"$tmp/phases.ini"
printf '1\tput\tk\t10\n18446744073709551614\tput\tk\t10\n' >"$tmp/end.tsv"
run_case "a trace phase past the clock's end" 2 "clock's end" -- run "$tmp/phases.ini" \
    --scheme key --balancer-period 1000000000h --window 1000000000h
run_case "--size-scale 1000000" 2 "131072" -- run --scheme salted --size-scale 1000000
run_case "compare --servers 70000, bucketed presets" 0 "" -- \
    compare --servers 70000 --duration 1m --scheme salted --scheme opentsdb-salted
run_case "control bytes in a scheme's literal" 0 "" -- \
    run --scheme "$(printf 'ts "\033[2J"')" --duration 1m
check "  ...escaped in the report" sh -c "! grep -q \"\$(printf '\\033')\" '$tmp/out'"
printf '[scheme a\033[2J]\nkey = ts\n' >"$tmp/ctl.ini"
run_case "control bytes in a scheme's label" 2 "ctl.ini:1" -- compare "$tmp/ctl.ini"
check "  ...escaped in the message" sh -c "! grep -q \"\$(printf '\\033')\" '$tmp/out'"
printf '\357\273\277a\nb\n' >"$tmp/bom.txt"
run_case "split keys file with a BOM" 0 "" -- \
    keys --scheme salted --split-keys-file "$tmp/bom.txt" -n 1
run_case "--split-keys ''" 2 "list" -- run --scheme salted --split-keys ''
run_case "--split-keys ' , '" 2 "" -- run --scheme salted --split-keys ' , '
run_case "--split-keys and --split-keys-file" 2 "split" -- \
    run --scheme salted --split-keys a,b --split-keys-file "$tmp/bom.txt"
printf '[cluster]\nservers = 4\n[event late]\nat = 2h\nadd_servers = 1\n' >"$tmp/late.ini"
run_case "an event after the end of the run" 2 "late.ini:" -- \
    run "$tmp/late.ini" --scheme salted --duration 1h

echo "$cases checks, $failures failed"
[ "$failures" = 0 ]
