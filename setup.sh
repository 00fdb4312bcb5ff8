#!/bin/sh
# setup.sh -- install what a fresh Debian 12 lacks, then build regionsim.
#
# Installs only missing packages (with sudo when not root), configures
# ./build once and compiles. Safe to run again: the second time it only
# rebuilds what changed. The build log goes to build.log and is shown when
# something fails.
set -eu
cd "$(dirname "$0")"

PKGS="gcc libc6-dev pkg-config meson ninja-build libjemalloc-dev uthash-dev
libinih-dev libcmocka-dev libmd-dev libjson-c-dev"

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

if ! { [ -f build/build.ninja ] || meson setup build; } >build.log 2>&1 ||
   ! meson compile -C build >>build.log 2>&1; then
    cat build.log >&2
    echo "setup.sh: the build failed (log above, also in build.log)" >&2
    exit 1
fi
echo "setup.sh: built build/regionsim" >&2
