#!/bin/sh
# setup.sh -- install what a fresh Debian 12 lacks, then build regionsim.
#
#   sh setup.sh          the build's packages, then build
#   sh setup.sh --tests  also what only the tests need: chromium (the
#                        browser test renders the HTML report headless),
#                        a font for it to render text with, libxml2-utils
#                        (xmllint) and libpng-dev (the PNG checker)
#
# Installs only missing packages (with sudo when not root, without
# recommends), configures ./build once and compiles. When it installed
# something and ./build is already configured, it reconfigures ./build so
# that newly available dependencies (libpng) are found. Safe to run again:
# the second time it only rebuilds what changed. The build log goes to
# build.log and is shown when something fails.
set -eu
cd "$(dirname "$0")"

tests=0
for arg in "$@"; do
    case $arg in
    --tests) tests=1 ;;
    -h | --help)
        echo "usage: sh setup.sh [--tests]"
        echo "  --tests  also install the tests' tools (chromium, fonts, xmllint, libpng)"
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
TEST_PKGS="chromium fonts-dejavu-core libxml2-utils libpng-dev"
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
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    # shellcheck disable=SC2086
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
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
