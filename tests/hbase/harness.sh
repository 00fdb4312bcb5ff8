#!/bin/sh
# tests/hbase/harness.sh -- builds the HBase mini-cluster harness (once, and
# again when a source is newer than the build) and runs it.
#
#   tests/hbase/harness.sh --trace FILE --out FILE [options]   (see README.md)
#   tests/hbase/harness.sh probe-counters                      (CounterProbe)
#
# HARNESS_JAVA_OPTS adds JVM options (e.g. another log4j configuration).
#
# Maven resolves hbase-testing-util and its dependencies by name into the
# default local repository (~/.m2); no shaded jar: the classes run on the
# classpath Maven resolved (target/classpath). The build is quiet; its
# errors are shown. Exit status: the harness's (0 done, 1 the cluster
# failed, 2 bad arguments), or the build's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
target="$here/target"

needs_build() {
    [ -f "$target/classpath" ] && [ -d "$target/classes" ] || return 0
    [ -n "$(find "$here/pom.xml" "$here/src" -newer "$target/classpath" -print 2>/dev/null | head -1)" ]
}

if needs_build; then
    log=$(mktemp)
    if ! mvn -B -q -f "$here/pom.xml" package -DskipTests \
            dependency:build-classpath -Dmdep.includeScope=runtime \
            -Dmdep.outputFile="$target/classpath.new" >"$log" 2>&1; then
        cat "$log" >&2
        rm -f "$log"
        echo "harness.sh: the Maven build failed" >&2
        exit 1
    fi
    rm -f "$log"
    mv "$target/classpath.new" "$target/classpath"
fi

main=org.regionsim.harness.Replay
if [ "${1:-}" = probe-counters ]; then
    shift
    main=org.regionsim.harness.CounterProbe
fi
# --add-opens: HBase's Bytes checks java.nio.Bits.unaligned() by reflection and logs a
# stack trace (and falls back to slower code) when Java 17 forbids it.
# HARNESS_JAVA_OPTS: more JVM options, e.g. -Dlog4j.configuration=file:/tmp/debug.properties
# shellcheck disable=SC2086
exec java -Xmx2g --add-opens java.base/java.nio=ALL-UNNAMED ${HARNESS_JAVA_OPTS:-} -cp "$target/classes:$(cat "$target/classpath")" "$main" "$@"
