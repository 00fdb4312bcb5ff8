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
#   skip_in_package_build WHAT   in a Debian package build (debian/rules
#                      exports REGIONSIM_PACKAGE_BUILD): "SKIP: ...", exit 77;
#                      a package build starts no browser, terminal or daemon
#   have_gnu_parallel  true when `parallel` is GNU parallel (Debian's
#                      moreutils has another program of that name)
#   sweep_formats, merge_matches   a local sweep in every format, and a
#                      plan's merge compared with it byte for byte (below)
#   host_bookworm_sources FILE   the host's Debian 12 mirror (below)
#   debian_root_network ROOT SOURCES CACHE   a debootstrapped root made ready
#                      for apt inside a mount namespace (below)
#   root_processes ROOT   the processes running in a chroot (below)
#   root_test_dirs DIR NAME   sets work (new, removed on exit) and cache
#   need_tools HINT TOOL...   skip unless every TOOL is on PATH
#   private_start LOG CMD...   CMD (a daemon, in the foreground) as this
#                      test's background job, in a PID namespace of its
#                      own when the kernel allows (root); private_stop
#                      ends it and everything it started (below)
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

skip_in_package_build() {
    if [ -n "${REGIONSIM_PACKAGE_BUILD:-}" ]; then
        say_ "SKIP: in a package build (debian/rules sets REGIONSIM_PACKAGE_BUILD), which starts no browser, terminal or daemon: $*"
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

# ---- daemons the tests start: nothing outlives the test ----
#
# private_start LOG CMD... runs CMD in the background (stdin /dev/null,
# stdout and stderr to LOG) under a small sh that stops it on SIGTERM,
# SIGINT or SIGHUP; sets private_job to that job's pid. When `unshare
# --pid` works (root, and a kernel that allows it), the job is a PID
# namespace of its own (with its own /proc): whatever CMD starts, even in
# a session of its own as daemons and sshd's logins do, is in it, and dies
# with it: private_stop's SIGKILL to the namespace's first process, or,
# when the test itself is killed (meson sends SIGTERM to the test's
# process group, then SIGKILL half a second later), unshare's death
# (--kill-child). Pids that CMD writes to files are then the namespace's
# numbers: never use them from outside. Without a namespace, the job is
# in the test's process group, which meson's signals reach, and
# private_stop sends it SIGTERM.
#
# A wait on something the test started has a wall-clock limit: `timeout
# --foreground N CMD` (without --foreground, timeout moves CMD out of the
# test's process group, out of reach of meson's signals).
#
# private_stop ends the job and waits until it and (in a namespace)
# everything in it are gone. Safe to call twice, or without a job; call
# it from the test's trap on EXIT, INT, TERM and HUP. One job per test.
private_job=""
private_in_ns=0

# private_mount_propagation: how `unshare --mount` may keep the new
# namespace's mounts (its /proc) from reaching the machine's: "private",
# or, where that fails because / is not a mount point (in a chroot, as in
# .ci/fresh-root) and no mount is shared, "unchanged" (nothing can
# propagate then); "" when neither holds (no mount namespace then).
private_mount_propagation() {
    if unshare --mount --propagation private true 2>/dev/null; then
        echo private
    elif ! grep -q ' shared:' /proc/self/mountinfo 2>/dev/null; then
        echo unchanged
    fi
}

# ---- fresh Debian 12 roots (tests/setup_services.sh, tests/deb_install.sh) ----

# host_bookworm_sources FILE: the host's Debian 12 mirror and suites, as
# its apt knows them ("URI SUITE" lines, bookworm, -updates, -security),
# into FILE; prints the bookworm mirror's URI (nothing: debootstrap's
# default). No host is named here: the mirror is the host's.
host_bookworm_sources() {
    apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' \
            'Component: main' 2>/dev/null | grep -E ' bookworm(-updates|-security)?$' |
        sort -u >"$1" || true
    awk '$2 == "bookworm" { print $1; exit }' "$1"
}

# debian_root_network ROOT SOURCES CACHE: in a mount namespace of the
# test's own, a root debootstrap made gets /proc, a fresh /run, CACHE/apt
# as its package cache, the host's resolv.conf and local CA certificates
# (/usr/local/share/ca-certificates: a network's own, e.g. a proxy's, which
# ca-certificates adds when installed) and SOURCES (host_bookworm_sources)
# as its apt sources.
debian_root_network() {
    mkdir -p "$3/apt/partial"
    mount -t proc proc "$1/proc"
    mount -t tmpfs -o mode=755 tmpfs "$1/run"
    mount --bind "$3/apt" "$1/var/cache/apt/archives"
    cat /etc/resolv.conf >"$1/etc/resolv.conf"
    if [ -d /usr/local/share/ca-certificates ]; then
        mkdir -p "$1/usr/local/share/ca-certificates"
        cp -R /usr/local/share/ca-certificates/. "$1/usr/local/share/ca-certificates/"
    fi
    if [ -s "$2" ]; then
        awk '{ print "deb", $1, $2, "main" }' "$2" >"$1/etc/apt/sources.list"
    fi
}

# root_test_dirs DIR NAME: sets work=DIR/NAME.PID (new and empty but for
# root/, both mode 755) and cache=DIR/NAME-cache (kept between runs);
# work is removed when the test exits, whatever ends it (rm
# --one-file-system: by then the namespace and its mounts are gone).
root_test_dirs() {
    mkdir -p "$1"
    work=$(cd "$1" && pwd -P)/$2.$$
    cache=$(cd "$1" && pwd -P)/$2-cache
    mkdir -p "$cache"
    rm -rf --one-file-system "$work"
    mkdir -p "$work/root"
    chmod 755 "$work" "$work/root"
    trap 'rm -rf --one-file-system "$work"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP
}

# need_tools HINT TOOL...: skip (fail under CI) unless every TOOL is a
# command; the message names the missing ones, then HINT (how to get them).
need_tools() {
    hint_=$1 missing_=""
    shift
    for t_ in "$@"; do
        command -v "$t_" >/dev/null 2>&1 || missing_="$missing_ $t_"
    done
    [ -z "$missing_" ] || skip "not installed:$missing_ ($hint_)"
}

# root_processes ROOT: " PID:NAME" for each process whose root is ROOT.
root_processes() {
    for p_ in /proc/[0-9]*; do
        [ "$(readlink "$p_/root" 2>/dev/null)" = "$1" ] || continue
        printf ' %s:%s' "${p_#/proc/}" "$(cat "$p_/comm" 2>/dev/null)"
    done
}

private_start() {
    log_=$1
    shift
    # shellcheck disable=SC2016
    wrap_='"$@" & p_=$!; trap "kill \$p_ 2>/dev/null; wait; exit 0" TERM INT HUP; wait $p_'
    prop_=$(private_mount_propagation)
    if [ -n "$prop_" ] &&
       unshare --pid --mount --propagation "$prop_" --fork --kill-child --mount-proc true 2>/dev/null; then
        private_in_ns=1
        unshare --pid --mount --propagation "$prop_" --fork --kill-child --mount-proc \
            sh -c "$wrap_" sh "$@" </dev/null >"$log_" 2>&1 &
    else
        private_in_ns=0
        sh -c "$wrap_" sh "$@" </dev/null >"$log_" 2>&1 &
    fi
    private_job=$!
}

private_stop() {
    [ -n "$private_job" ] || return 0
    if [ "$private_in_ns" = 1 ]; then
        # SIGKILL to the namespace's first process (unshare's child) kills
        # everything in it; unshare exits once all of it is gone. (unshare
        # itself ignores SIGTERM; its death kills the namespace too, but
        # without waiting for it.)
        init_=$(cat "/proc/$private_job/task/$private_job/children" 2>/dev/null || true)
        # shellcheck disable=SC2086
        kill -KILL ${init_:-"$private_job"} 2>/dev/null || true
    else
        kill -TERM "$private_job" 2>/dev/null || true
    fi
    wait "$private_job" 2>/dev/null || true # (its status is the signal: not an error)
    private_job=""
    return 0
}
