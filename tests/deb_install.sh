#!/bin/sh
# deb_install.sh -- the Debian package, built from this tree and installed
# into a fresh Debian 12 root, works as a user meets it.
#
#   sh tests/deb_install.sh SOURCE_ROOT WORKDIR
#
#  1. The tracked files (git ls-files, with the working tree's changes; no
#     build directory) are copied to WORKDIR, and `dpkg-buildpackage -us
#     -uc` builds the source and binary packages there, running the tests
#     as a package build does (debian/rules): the log must show the
#     browser and tmux tests skipped, saying why.
#  2. lintian on the .changes (the .dsc and the .deb): no error and no
#     warning (overrides, if any, in debian/, each with its reason).
#  3. debootstrap makes a minimal Debian 12 root (--variant=minbase; from
#     the Debian mirror the host's apt uses, else debootstrap's default), in
#     a mount, PID and UTS namespace of its own: every mount and process in
#     it ends with the test, whatever ends it, and the root is removed by
#     the trap (rm --one-file-system, after the namespace is gone). In it,
#     apt-get installs the .deb with man-db and bash-completion (and what
#     the .deb depends on), then:
#       - `regionsim compare` runs the default scenario and prints its table;
#       - `man -w regionsim` finds /usr/share/man/man1/regionsim.1.gz, and
#         man renders it with a section per command;
#       - bash-completion's loader finds the completion, and its function,
#         called as bash calls it, offers compare for `regionsim com<TAB>`;
#       - the examples are under /usr/share/doc/regionsim/examples and run.
# The debootstrap and apt downloads are kept in WORKDIR/deb-install-cache
# between runs (about 150 MB). About 4 minutes on two cores, most of it the
# package build's own test run; the times of each step are printed.
#
# Needs root, dpkg-buildpackage (dpkg-dev, debhelper and the build
# dependencies of debian/control), lintian, git, debootstrap, unshare and
# the network (the mirror). Without them it is skipped (exit 77), except
# under CI, where it fails (CI runs it as root; `sh setup.sh --tests`
# installs them). Registered in tests/meson.build, suite 'slow'.
set -eu

# ---- in the namespace (`deb_install.sh --inside WORK CACHE MIRROR DEB`) ----

in_root() {
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 TERM=dumb \
        chroot "$r" "$@"
}

inside() {
    work=$1 cache=$2 mirror=$3 deb=$4
    r=$work/root
    fail() { echo "deb_install: FAIL: $*" >&2; exit 1; }
    hostname regionsim-deb-test
    mkdir -p "$cache/debootstrap"
    t=$(date +%s)
    # shellcheck disable=SC2086
    debootstrap --variant=minbase --cache-dir="$cache/debootstrap" bookworm "$r" ${mirror:+"$mirror"} \
            >"$work/debootstrap.log" 2>&1 ||
        fail "debootstrap: $(tail -n 20 "$work/debootstrap.log")"
    echo "deb_install: debootstrap --variant=minbase bookworm ${mirror:-(its default mirror)}: $(($(date +%s) - t)) s"
    debian_root_network "$r" "$work/sources" "$cache"
    cp "$deb" "$r/tmp/"
    t=$(date +%s)
    in_root sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends /tmp/${deb##*/} man-db bash-completion" \
            >"$work/apt.log" 2>&1 || fail "apt-get install: $(tail -n 20 "$work/apt.log")"
    echo "deb_install: apt-get install ./${deb##*/} man-db bash-completion: $(($(date +%s) - t)) s"

    in_root regionsim compare >"$work/compare.out" 2>"$work/compare.err" ||
        fail "regionsim compare: $(cat "$work/compare.err")"
    for s in monotonic salted md5; do
        grep -q "^ *$s " "$work/compare.out" || fail "regionsim compare printed no row for $s: $(cat "$work/compare.out")"
    done
    echo "deb_install: regionsim compare ran the default scenario"
    page=$(in_root man -w regionsim) || fail "man -w regionsim found no page"
    [ "$page" = /usr/share/man/man1/regionsim.1.gz ] || fail "man -w regionsim: '$page'"
    in_root env MANWIDTH=80 man regionsim >"$work/man.txt" 2>"$work/man.err" ||
        fail "man regionsim: $(cat "$work/man.err")"
    for c in COMPARE RUN KEYS WATCH SWEEP MERGE FIGURES ADVISE; do
        grep -q "^REGIONSIM $c\$" "$work/man.txt" || fail "man regionsim has no section REGIONSIM $c"
    done
    echo "deb_install: man -w regionsim: $page"
    # bash-completion's loader finds the file by the command's name; the
    # function `complete -p` names, called as bash calls it
    in_root bash --norc --noprofile -c '
        . /usr/share/bash-completion/bash_completion
        _completion_loader regionsim
        func=$(complete -p regionsim | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
        [ -n "$func" ] || { echo "no completion function for regionsim" >&2; exit 1; }
        COMP_WORDS=(regionsim com) COMP_CWORD=1 COMP_LINE="regionsim com" COMP_POINT=13
        "$func" regionsim com regionsim
        printf "%s\n" "${COMPREPLY[@]}"' >"$work/complete.out" 2>"$work/complete.err" ||
        fail "the completion: $(cat "$work/complete.err")"
    [ "$(cat "$work/complete.out")" = compare ] ||
        fail "'regionsim com<TAB>' offers '$(cat "$work/complete.out")', expected compare"
    echo "deb_install: 'regionsim com<TAB>' offers compare"
    in_root regionsim keys /usr/share/doc/regionsim/examples/classroom.ini --scheme salted -n 3 \
            >"$work/keys.out" 2>&1 || fail "an installed example: $(cat "$work/keys.out")"
    left=$(root_processes "$r")
    [ -z "$left" ] || fail "processes left running in the root:$left"
}

if [ "${1:-}" = --inside ]; then
    shift
    . "$(dirname "$0")/lib.sh"
    inside "$@"
    exit
fi
if [ $# -ne 2 ]; then
    echo "usage: sh deb_install.sh SOURCE_ROOT WORKDIR" >&2
    exit 2
fi
root_src=$(cd "$1" && pwd -P)
test_name=deb_install
. "$root_src/tests/lib.sh"
skip_in_package_build "this test builds the package itself"
skip_unless_root "debootstrap and chroot need root (CI runs this test as root)"
need_tools "apt-get install dpkg-dev debhelper lintian git debootstrap, or sh setup.sh --tests" \
    dpkg-buildpackage dpkg-parsechangelog dh lintian git debootstrap unshare chroot mount
git -C "$root_src" rev-parse --git-dir >/dev/null 2>&1 || skip "$root_src is not a git checkout (the test builds its tracked files)"

root_test_dirs "$2" deb-install

# ---- 1. the packages, from the tracked files ----
version=$(dpkg-parsechangelog -l "$root_src/debian/changelog" -S Version)
src=$work/src/regionsim-$version
mkdir -p "$src"
(cd "$root_src" && git ls-files -z | xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
    tar --null -T - -cf -) | tar -xf - -C "$src"
t=$(date +%s)
(cd "$src" && env -u DEB_BUILD_OPTIONS dpkg-buildpackage -us -uc) >"$work/build.log" 2>&1 ||
    fail "dpkg-buildpackage -us -uc: $(tail -n 60 "$work/build.log")"
echo "deb_install: dpkg-buildpackage -us -uc (the tests included): $(($(date +%s) - t)) s"
deb=$work/src/regionsim_${version}_$(dpkg --print-architecture).deb
changes=$work/src/regionsim_${version}_$(dpkg --print-architecture).changes
[ -f "$deb" ] && [ -f "$changes" ] && [ -f "$work/src/regionsim_$version.dsc" ] ||
    fail "no .deb, .changes or .dsc: $(ls "$work/src")"
testlog=$(ls "$src"/obj-*/meson-logs/testlog.txt 2>/dev/null | head -n 1)
[ -n "$testlog" ] || fail "the package build ran no tests (no meson-logs/testlog.txt)"
grep -q "^ *[0-9]*/[0-9]* regionsim:.* install  *OK" "$work/build.log" ||
    fail "the package build's tests did not run the install test: $(grep -c ' OK ' "$work/build.log") OK"
for t_ in watch_tmux browser; do
    grep -q "^ *[0-9]*/[0-9]* regionsim:.* $t_  *SKIP" "$work/build.log" ||
        fail "the package build did not skip $t_: $(grep " $t_ " "$work/build.log")"
done
grep -q "SKIP: in a package build" "$testlog" || fail "no skipped test says why in $testlog"
echo "deb_install: the package build's tests: $(grep -c '  *OK  ' "$work/build.log") OK;" \
     "skipped: $(grep '  *SKIP  ' "$work/build.log" | awk '{ print $4 }' | tr '\n' ' ')"

# ---- 2. lintian ----
t=$(date +%s)
lintian --fail-on error,warning "$changes" >"$work/lintian.log" 2>&1 ||
    fail "lintian: $(grep -v 'root privileges' "$work/lintian.log")"
echo "deb_install: lintian on the .dsc and the .deb, no error or warning: $(($(date +%s) - t)) s"

# ---- 3. a fresh Debian 12 root ----
mirror=$(host_bookworm_sources "$work/sources")
prop=$(private_mount_propagation)
[ -n "$prop" ] || skip "no private mount namespace here (/ is not a mount point, and mounts are shared)"
start=$(date +%s)
status=0
unshare --mount --pid --uts --fork --kill-child --propagation "$prop" \
    sh "$root_src/tests/deb_install.sh" --inside "$work" "$cache" "$mirror" "$deb" || status=$?
echo "deb_install: the fresh root: $(($(date +%s) - start)) s"
[ "$status" -eq 0 ] || fail "see above (exit status $status)"
echo "ok: the package builds, passes lintian, and installs into a fresh Debian 12 root with its man page and completion"
