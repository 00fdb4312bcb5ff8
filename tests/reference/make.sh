#!/bin/sh
# make.sh -- rebuilds the reference values of tests/data from the released
# upstream jars (pom.xml: site.ycsb:core, net.opentsdb:opentsdb,
# org.apache.phoenix:phoenix-core-client) and writes them into OUTDIR
# (default: a new temporary folder). Prints each command before it runs it.
#
#   sh tests/reference/make.sh [--compare] [OUTDIR]
#
# --compare: then compares each file's rows (the lines not starting with
# '#') with the committed tests/data file of the same name; exits 1 if any
# differ. The '#' lines differ by design (the first names what made them).
# Needs Java 17 and Maven (mvn) reaching Maven Central; a first run fetches
# the jars (about 160 MB, mostly Phoenix's Hadoop and HBase dependencies).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
data=$(cd "$here/../data" && pwd)
compare=0
out=
for arg in "$@"; do
    case $arg in
        --compare) compare=1 ;;
        -*) echo "make.sh: unknown option '$arg' (usage: make.sh [--compare] [OUTDIR])" >&2; exit 2 ;;
        *) if [ -n "$out" ]; then
               echo "make.sh: one OUTDIR only, got '$out' and '$arg'" >&2; exit 2
           fi
           out=$arg ;;
    esac
done
if [ -z "$out" ]; then
    out=$(mktemp -d "${TMPDIR:-/tmp}/regionsim-reference.XXXXXX")
elif [ ! -d "$out" ]; then
    echo "make.sh: OUTDIR '$out' is not a directory" >&2; exit 2
fi
out=$(cd "$out" && pwd)

run() {
    echo "+ $*"
    "$@"
}

cd "$here"
run mvn -B -q -Dstyle.color=never package
run mvn -B -q -Dstyle.color=never dependency:build-classpath -Dmdep.outputFile=target/classpath.txt
# --add-opens: java.lang for Thread.threadLocalRandomSeed (seeding YCSB's
# ThreadLocalRandom), java.nio for HBase's Bytes (Phoenix's classes load it).
echo "+ java --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED" \
     "-cp \"target/classes:\$(cat target/classpath.txt)\" regionsim.reference.Main $out"
java --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
    -cp "target/classes:$(cat target/classpath.txt)" regionsim.reference.Main "$out"
echo "reference files written to $out"

[ "$compare" = 1 ] || exit 0
status=0
for f in "$out"/*.tsv; do
    name=$(basename "$f")
    if [ ! -f "$data/$name" ]; then
        echo "$name: new (no tests/data/$name)"; status=1; continue
    fi
    if grep -v '^#' "$f" > "$out/.rows.new" && grep -v '^#' "$data/$name" > "$out/.rows.old" \
       && cmp -s "$out/.rows.old" "$out/.rows.new"; then
        echo "$name: rows identical to tests/data/$name ($(wc -l < "$out/.rows.new") rows)"
    else
        echo "$name: rows differ from tests/data/$name:"
        diff "$out/.rows.old" "$out/.rows.new" | head -20
        status=1
    fi
done
rm -f "$out/.rows.new" "$out/.rows.old"
exit $status
