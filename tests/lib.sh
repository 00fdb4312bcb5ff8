# lib.sh -- what the shell tests share. A test sources it first:
#
#   . "$(dirname "$0")/lib.sh"
#   test_name=sweep_ssh      (optional: prefixes the messages)
#
# It sets the environment every test's children run in (TZ, LC_ALL,
# NO_COLOR, TERM=dumb; REGIONSIM_JOBS unset), and gives:
#
#   in_ci              true under CI: CI set and not "false" or "0"
#   fail MSG           "FAIL: MSG" on stderr, exit 1 (a test may define its
#                      own fail after sourcing, e.g. to show a screen)
#   skip MSG           a tool the test needs is missing: "SKIP: MSG",
#                      exit 77 (meson's skip code); under CI, where
#                      `sh setup.sh --tests` installs every tool, "FAIL:
#                      MSG", exit 1, since CI must run every test
#   skip_unless_root WHY   not root: "SKIP: WHY", exit 77 (CI runs as root)
#   have_gnu_parallel  true when `parallel` is GNU parallel (Debian's
#                      moreutils has another program of that name)
#   sweep_formats, merge_matches   a local sweep in every format, and a
#                      plan's merge compared with it byte for byte (below)
export TZ=UTC LC_ALL=C NO_COLOR=1 TERM=dumb
unset REGIONSIM_JOBS 2>/dev/null || true
test_name=${test_name:-}

in_ci() { [ -n "${CI:-}" ] && [ "${CI:-}" != false ] && [ "${CI:-}" != 0 ]; }

say_() { echo "${test_name:+$test_name: }$*"; }

fail() { say_ "FAIL: $*" >&2; exit 1; }

skip() {
    if in_ci; then
        say_ "FAIL: $* (CI must run this test: sh setup.sh --tests installs what it needs)" >&2
        exit 1
    fi
    say_ "SKIP: $*"
    exit 77
}

skip_unless_root() {
    if [ "$(id -u)" -ne 0 ]; then
        say_ "SKIP: $*"
        exit 77
    fi
}

have_gnu_parallel() {
    command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q 'GNU parallel'
}

# sweep_formats WANT LOCAL REGIONSIM ARGS...: `REGIONSIM sweep ARGS
# --format F` for F in text, json, csv and html into LOCAL.F (stderr into
# LOCAL.err, the last one's kept); each must exit WANT.
sweep_formats() {
    want_=$1 local_=$2 bin_=$3
    shift 3
    for fmt_ in text json csv html; do
        status_=0
        "$bin_" sweep "$@" --format "$fmt_" >"$local_.$fmt_" 2>"$local_.err" || status_=$?
        [ "$status_" -eq "$want_" ] ||
            fail "sweep --format $fmt_ exited $status_, expected $want_: $(cat "$local_.err")"
    done
}

# merge_matches WANT LOCAL MERGED LABEL REGIONSIM PLAN: `REGIONSIM merge
# PLAN --format F` for every format into MERGED.F (stderr MERGED.err)
# exits WANT and is LOCAL.F (sweep_formats') byte for byte.
merge_matches() {
    want_=$1 local_=$2 merged_=$3 label_=$4 bin_=$5 plan_=$6
    for fmt_ in text json csv html; do
        status_=0
        "$bin_" merge "$plan_" --format "$fmt_" >"$merged_.$fmt_" 2>"$merged_.err" || status_=$?
        [ "$status_" -eq "$want_" ] ||
            fail "${label_:+$label_: }merge --format $fmt_ exited $status_, expected $want_: $(cat "$merged_.err")"
        cmp "$local_.$fmt_" "$merged_.$fmt_" ||
            fail "${label_:+$label_: }merge --format $fmt_ differs from sweep's"
    done
}
