#!/bin/sh
# sweep_parallel.sh -- a sweep planned (`regionsim sweep FILE --plan DIR`),
# run by GNU parallel (`parallel -j 2 < DIR/jobs.txt`) and merged
# (`regionsim merge DIR`) gives the local sweep's report byte for byte, in
# every format, options and assertions included, the same lines on stderr
# (but for the command's name) and the same --junit file, which is
# well-formed and valid against tests/data/junit.xsd (or
# $REGIONSIM_JUNIT_XSD; see tests/data/junit.md: without the schema or
# xmllint the test ends as skipped, exit 77, once every other check has
# passed; under CI, or with $REGIONSIM_REQUIRE_JUNIT_XSD set, it fails);
# the same --baseline comparison (stderr) and exit status; `sweep --plan`
# refuses --junit and --baseline; and merge refuses a plan with a missing,
# malformed or misplaced result (exit 2, naming the file and the point).
#
#   sh tests/sweep_parallel.sh REGIONSIM SOURCE_ROOT WORKDIR
#
# Without GNU parallel the test is skipped (exit 77, meson's skip code),
# except under CI (CI set and not "false"/"0"), where it fails: `sh
# setup.sh --tests` installs Debian's parallel. Registered in
# tests/meson.build (default suite: about a second).
set -eu
if [ $# -ne 3 ]; then
    echo "usage: sh sweep_parallel.sh REGIONSIM SOURCE_ROOT WORKDIR" >&2
    exit 2
fi
regionsim=$1
root=$2
. "$(dirname "$0")/lib.sh"
have_gnu_parallel || skip "GNU parallel is not installed (apt-get install parallel, or sh setup.sh --tests)"

mkdir -p "$3"
work=$(cd "$3" && pwd -P)/sweep-parallel.$$
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

cd "$root"
file=tests/data/sweep-small.ini
# An option of the sweep's (a setting under the variables) and assertions
# that fail at some points (one with a defined value, one undefined, whose
# reason the results must carry): all must reach every job.
set -- --read-fraction 0.08 --assert 'write_max_mean <= 2.5 for tsdb' \
    --assert 'steady over last 5000 windows for plain' --assert 'balance reads <= 4.5 over last 2 windows'

status=0
"$regionsim" sweep "$file" "$@" --plan "$work/plan" || status=$?
[ $status -eq 0 ] || fail "sweep --plan exited $status"
[ "$(wc -l <"$work/plan/jobs.txt")" -eq 6 ] || fail "jobs.txt: expected 6 lines"
# the jobs write results; the JUnit belongs to the merge
status=0
"$regionsim" sweep "$file" "$@" --plan "$work/plan-junit" --junit "$work/j.xml" 2>"$work/err" || status=$?
[ $status -eq 2 ] && grep -q "pass --junit .* to 'regionsim merge DIR'" "$work/err" &&
    [ ! -e "$work/plan-junit" ] && [ ! -e "$work/j.xml" ] || fail "sweep --plan --junit: exit $status: $(cat "$work/err")"
# a plan never goes into a directory that holds something
status=0
"$regionsim" sweep "$file" --plan "$work/plan" 2>"$work/err" || status=$?
[ $status -eq 2 ] && grep -q 'exists and is not empty' "$work/err" || fail "a second plan into the same directory: exit $status"

parallel --will-cite -j 2 --halt now,fail=1 <"$work/plan/jobs.txt" >/dev/null 2>&1 ||
    fail "parallel: a job failed"

sweep_formats 1 "$work/local" "$regionsim" "$file" "$@" # 1: a failed assertion
merge_matches 1 "$work/local" "$work/merged" "" "$regionsim" "$work/plan"
# the same failures in the same words: one line per failed result, the
# values with as many digits in both (only the command's name differs)
[ "$(grep -c FAILED "$work/local.err")" -ge 6 ] || fail "sweep: too few failures: $(cat "$work/local.err")"
grep -q 'value undefined (the run has fewer windows than asked for)' "$work/local.err" ||
    fail "sweep: no undefined value with its reason: $(cat "$work/local.err")"
sed 's/^regionsim sweep: /regionsim CMD: /' "$work/local.err" >"$work/local.err.cmd"
sed 's/^regionsim merge: /regionsim CMD: /' "$work/merged.err" >"$work/merged.err.cmd"
cmp "$work/local.err.cmd" "$work/merged.err.cmd" || fail "merge's stderr differs from sweep's: $(diff "$work/local.err.cmd" "$work/merged.err.cmd")"

# --junit: the same bytes from both, a testcase per assertion, scheme and point
status=0
"$regionsim" sweep "$file" "$@" --junit "$work/local.xml" >/dev/null 2>&1 || status=$?
[ $status -eq 1 ] || fail "sweep --junit exited $status, expected 1"
status=0
"$regionsim" merge "$work/plan" --junit "$work/merged.xml" >/dev/null 2>&1 || status=$?
[ $status -eq 1 ] || fail "merge --junit exited $status, expected 1"
cmp "$work/local.xml" "$work/merged.xml" || fail "merge --junit differs from sweep's"
# 6 points: write_max_mean for tsdb, steady for plain, balance for both
[ "$(grep -c '<testcase ' "$work/local.xml")" -eq 24 ] || fail "junit: expected 24 testcases"
grep -q '<testcase name="write_max_mean &lt;= 2.5 \[b=1 servers=4\]" classname="sweep-small.tsdb"' \
    "$work/local.xml" || fail "junit: no testcase named after its point"
[ "$(grep -c '<failure ' "$work/local.xml")" -eq "$(grep -c FAILED "$work/local.err")" ] ||
    fail "junit: not one failure per failed line"
# the schema check: required under CI and with REGIONSIM_REQUIRE_JUNIT_XSD;
# elsewhere, when it cannot run, the test ends as skipped (77) once every
# other check has passed, so that meson counts what did not run
junit_unchecked=""
junit_required() { [ -n "${REGIONSIM_REQUIRE_JUNIT_XSD:-}" ] || in_ci; }
if command -v xmllint >/dev/null 2>&1; then
    xmllint --noout "$work/local.xml" || fail "junit: not well-formed"
    xsd=${REGIONSIM_JUNIT_XSD:-$root/tests/data/junit.xsd}
    if [ -f "$xsd" ]; then
        xmllint --noout --schema "$xsd" "$work/local.xml" 2>"$work/xsd.err" ||
            fail "junit: not valid against $xsd: $(cat "$work/xsd.err")"
    elif junit_required; then
        fail "no JUnit schema at $xsd (sh setup.sh --tests fetches it)"
    else
        junit_unchecked="no JUnit schema at $xsd (sh setup.sh --tests fetches it): the --junit file was checked well-formed only"
    fi
elif junit_required; then
    fail "xmllint not found (libxml2-utils; sh setup.sh --tests installs it)"
else
    junit_unchecked="xmllint not found (libxml2-utils; sh setup.sh --tests installs it): the --junit file was not validated"
fi
grep -q 'assertions: 24 checked over the points' "$work/merged.text" || fail "no assertions in the merged text"

# --baseline: the same comparison, in the same words, from both (a
# baseline whose write_max_mean was 1.5 everywhere: a regression at every
# point and scheme but the one below it, b=4 servers=4 tsdb); and the
# report on stdout unchanged by it
sed 's/"write_max_mean": [0-9.e+-]*/"write_max_mean": 1.5/' "$work/local.json" >"$work/base.json"
for side in local merged; do
    status=0
    if [ $side = local ]; then
        "$regionsim" sweep "$file" "$@" --baseline "$work/base.json" >"$work/$side.b.text" 2>"$work/$side.b.err" || status=$?
    else
        "$regionsim" merge "$work/plan" --baseline "$work/base.json" >"$work/$side.b.text" 2>"$work/$side.b.err" || status=$?
    fi
    [ $status -eq 1 ] || fail "$side --baseline exited $status, expected 1: $(cat "$work/$side.b.err")"
    cmp "$work/$side.text" "$work/$side.b.text" || fail "$side: --baseline changed the report"
done
grep -q "^baseline $work/base.json: [0-9]* figures compared at 6 points, 11 regressions$" "$work/local.b.err" ||
    fail "sweep --baseline: no totals line: $(cat "$work/local.b.err")"
grep -q '^  b=1 servers=4 tsdb  *write_max_mean  *1.5  *-  *<= 1.575  *4  *+166.7%  REGRESSION$' "$work/local.b.err" ||
    fail "sweep --baseline: no regression at b=1 servers=4: $(cat "$work/local.b.err")"
sed 's/^regionsim sweep: /regionsim CMD: /' "$work/local.b.err" >"$work/local.b.err.cmd"
sed 's/^regionsim merge: /regionsim CMD: /' "$work/merged.b.err" >"$work/merged.b.err.cmd"
cmp "$work/local.b.err.cmd" "$work/merged.b.err.cmd" ||
    fail "merge --baseline's stderr differs from sweep's: $(diff "$work/local.b.err.cmd" "$work/merged.b.err.cmd")"
# the merged JSON as its own baseline: nothing changed
status=0
"$regionsim" merge "$work/plan" --format json --baseline "$work/merged.json" --baseline-figures all \
    --tolerance 0 --tolerance-abs 0 >/dev/null 2>"$work/err" || status=$?
[ $status -eq 1 ] && grep -q ' figures within baseline .* at 6 points$' "$work/err" && ! grep -q 'REGRESSION\|changed\|better' "$work/err" ||
    fail "merge --baseline of its own JSON: exit $status: $(cat "$work/err")"
# refused: nothing on stdout, exit 2
status=0
"$regionsim" merge "$work/plan" --baseline "$work/plan/plan.json" >"$work/out" 2>"$work/err" || status=$?
[ $status -eq 2 ] && [ ! -s "$work/out" ] && grep -q "regionsim merge: --baseline $work/plan/plan.json: not a sweep's JSON report" "$work/err" ||
    fail "merge --baseline plan.json: exit $status: $(cat "$work/err")"
status=0
"$regionsim" sweep "$file" "$@" --plan "$work/plan-b" --baseline "$work/base.json" 2>"$work/err" || status=$?
[ $status -eq 2 ] && grep -q "pass --baseline .* to 'regionsim merge DIR'" "$work/err" && [ ! -e "$work/plan-b" ] ||
    fail "sweep --plan --baseline: exit $status: $(cat "$work/err")"

# -o writes the same bytes
"$regionsim" merge "$work/plan" --format json -o "$work/merged-o.json" 2>/dev/null || true
cmp "$work/local.json" "$work/merged-o.json" || fail "merge -o differs"

# the results hold every figure exactly (17 significant digits), not the
# report's 6
grep -Eq '"write_cov": [0-9]\.[0-9]{14,}' "$work/plan/results/0000.json" ||
    fail "results/0000.json: write_cov not written exactly"

# a file without a `name`: the report names the scenario after the sweep's
# file, not after a point's
cat >"$work/noname.ini" <<'INI'
[sweep]
seed = 1..2
[workload]
duration = 2m
[scheme salted]
key = salt(4) ts
INI
"$regionsim" sweep "$work/noname.ini" --plan "$work/noname" || fail "sweep --plan noname.ini"
parallel --will-cite -j 2 --halt now,fail=1 <"$work/noname/jobs.txt" >/dev/null 2>&1 ||
    fail "parallel: a job of noname.ini failed"
"$regionsim" sweep "$work/noname.ini" >"$work/local.noname" || fail "sweep noname.ini"
"$regionsim" merge "$work/noname" >"$work/merged.noname" || fail "merge noname"
cmp "$work/local.noname" "$work/merged.noname" || fail "merge of a file without a name differs"

# a missing result: every missing point named, nothing on stdout
mv "$work/plan/results/0002.json" "$work/r2"
mv "$work/plan/results/0004.json" "$work/r4"
status=0
"$regionsim" merge "$work/plan" >"$work/out" 2>"$work/err" || status=$?
[ $status -eq 2 ] || fail "merge with two results missing exited $status"
[ ! -s "$work/out" ] || fail "merge with results missing wrote a report"
grep -q '2 of 6 results missing' "$work/err" || fail "missing: $(cat "$work/err")"
grep -q 'results/0002.json (point 2: b=2 servers=4)' "$work/err" || fail "point 2 not named"
grep -q 'results/0004.json (point 4: b=4 servers=4)' "$work/err" || fail "point 4 not named"

# a result at another point's name (swapped), and a malformed one
cp "$work/r4" "$work/plan/results/0002.json"
cp "$work/r2" "$work/plan/results/0004.json"
status=0
"$regionsim" merge "$work/plan" >"$work/out" 2>"$work/err" || status=$?
[ $status -eq 2 ] && grep -q 'point 2 (b=2 servers=4): the result is for b=4' "$work/err" ||
    fail "swapped results: exit $status: $(cat "$work/err")"
cp "$work/r2" "$work/plan/results/0002.json"
cp "$work/r4" "$work/plan/results/0004.json"
printf '{"sweep": ' >"$work/plan/results/0003.json"
status=0
"$regionsim" merge "$work/plan" >"$work/out" 2>"$work/err" || status=$?
[ $status -eq 2 ] && grep -q 'results/0003.json: not JSON' "$work/err" && grep -q 'point 3' "$work/err" ||
    fail "a malformed result: exit $status: $(cat "$work/err")"
# a result whose assertion does not parse, or whose reason is unknown
cp "$work/r2" "$work/plan/results/0003.json"
sed -i 's/"expression": "write_max_mean <= 2.5"/"expression": "write_max_men <= 2.5"/' "$work/plan/results/0002.json"
status=0
"$regionsim" merge "$work/plan" >"$work/out" 2>"$work/err" || status=$?
[ $status -eq 2 ] && [ ! -s "$work/out" ] && grep -q 'results/0002.json: point 2 (b=2 servers=4): assertions\[0\]: "expression": unknown figure' "$work/err" ||
    fail "an expression that does not parse: exit $status: $(cat "$work/err")"
cp "$work/r2" "$work/plan/results/0002.json"
sed -i 's/"why": "the run has fewer windows than asked for"/"why": "it rained"/' "$work/plan/results/0002.json"
status=0
"$regionsim" merge "$work/plan" >"$work/out" 2>"$work/err" || status=$?
[ $status -eq 2 ] && grep -q 'point 2 (b=2 servers=4): assertions\[1\]: "why": expected one of the reasons' "$work/err" ||
    fail "an unknown why: exit $status: $(cat "$work/err")"
if [ -n "$junit_unchecked" ]; then
    echo "SKIP: every other check passed, but $junit_unchecked"
    exit 77
fi
echo "ok: GNU parallel's merged sweep equals the local sweep in text, json, csv, html, stderr and --junit"
