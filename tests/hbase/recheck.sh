#!/bin/sh
# recheck.sh -- the slow suite's check against a real HBase (issue 29,
# docs/validation.md): runs two committed pairs again on a new HBase mini
# cluster (tests/hbase/harness.sh, Maven and Java 17) and checks that the
# new HBase run is within the ranges of the committed one and of regionsim.
#
#   sh recheck.sh SOURCE_ROOT REGIONSIM
#
# Without java or mvn it skips (exit 77); under CI, where .ci/run installs
# them, it fails instead (tests/lib.sh skip).
test_name=hbase_recheck
. "$1/tests/lib.sh"
root=$1 regionsim=$2
command -v java >/dev/null 2>&1 || skip "java is not installed (.ci/run installs openjdk-17-jdk-headless)"
command -v mvn >/dev/null 2>&1 || skip "mvn is not installed (.ci/run installs maven)"
cd "$root" || fail "no source tree at $root"
python3 tests/hbase/paired.py recheck --regionsim "$regionsim" \
    tests/data/hbase/monotonic-simple.json tests/data/hbase/salted-stochastic.json \
    || fail "a new HBase run is outside the ranges of docs/validation.md (above)"
