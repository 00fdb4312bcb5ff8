#!/bin/sh
# sweep_slurm.sh -- a sweep planned with --slurm (`regionsim sweep FILE
# --plan DIR --slurm`), its DIR/sweep.sbatch job array run by a one-node
# Slurm this test starts (tests/slurm_cluster.sh), then `regionsim merge
# DIR`: the local sweep's report byte for byte, in every format.
#
#   sh tests/sweep_slurm.sh REGIONSIM SOURCE_ROOT WORKDIR
#
# Needs root (slurmd runs jobs as their user; the private cluster runs as
# root) and Debian's slurmctld, slurmd, slurm-client and munge. Without
# them the test is skipped (exit 77, meson's skip code) with the reason,
# except under CI (CI set and not "false"/"0", where it runs as root),
# where a missing package fails it: `sh setup.sh --tests` installs them.
# The cluster's names and addresses are its own (localhost, 127.0.0.1,
# regionsim-node), so the test takes as long on a host whose name does not
# resolve; every wait has a wall-clock limit (30 s for the cluster, 120 s
# for the jobs); a trap on EXIT, INT, TERM and HUP stops every process the
# cluster started and removes its files (tests/slurm_cluster.sh), and
# tests/sigterm_cleanup.py checks that meson's SIGTERM leaves nothing.
# SWEEP_SLURM_DURATION, when set, is given to both sweeps as --duration:
# tests/sigterm_cleanup.py sets it (1d, seconds a job) so that it can catch
# a job running; the default points take some 20 ms each.
# Registered in tests/meson.build, suite 'slow' (about 10 s).
set -eu
if [ $# -ne 3 ]; then
    echo "usage: sh sweep_slurm.sh REGIONSIM SOURCE_ROOT WORKDIR" >&2
    exit 2
fi
regionsim=$1
root=$2
. "$(dirname "$0")/lib.sh"
skip_in_package_build "this test starts munged, slurmctld and slurmd"

missing=""
for p in slurmctld slurmd sbatch sinfo munged python3; do
    command -v "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] || skip "Slurm is not installed (missing:$missing; apt-get install slurmctld slurmd slurm-client munge)"
skip_unless_root "the one-node Slurm of this test needs root (CI runs it as root)"

. "$root/tests/slurm_cluster.sh"
mkdir -p "$3"
work=$(cd "$3" && pwd -P)/sweep-slurm.$$
rm -rf "$work"
mkdir -p "$work"
# The cluster's files in a directory of their own under /tmp: slurmd's and
# munged's sockets are in it, and a socket's path has at most 107 bytes,
# which a build directory's path may exceed.
cluster=$(mktemp -d /tmp/regionsim-slurm.XXXXXX) || fail "mktemp -d"
# every exit path stops the cluster and removes its files: meson's SIGTERM
# on a timeout (then SIGKILL half a second later, which nothing in the
# cluster's PID namespace survives either: tests/slurm_cluster.sh) included
cleanup() { slurm_stop; rm -rf "$work" "$cluster"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

slurm_start "$cluster" || fail "the one-node Slurm did not start"

cd "$root"
file=tests/data/sweep-small.ini
longer=${SWEEP_SLURM_DURATION:+--duration $SWEEP_SLURM_DURATION}
# shellcheck disable=SC2086 # $longer: no option, or an option and its value
"$regionsim" sweep "$file" $longer --plan "$work/plan" --slurm || fail "sweep --plan --slurm"
grep -q '^#SBATCH --array=0-5$' "$work/plan/sweep.sbatch" || fail "sweep.sbatch: no --array=0-5"
# the six jobs take a few seconds; two minutes of wall clock at most
timeout --foreground 120 sbatch --wait --chdir="$work" "$work/plan/sweep.sbatch" >"$work/sbatch.out" 2>&1 ||
    fail "sbatch --wait (status $?; 124: not done in 120 s): $(cat "$work/sbatch.out"
        tail -n 5 "$work"/plan/logs/* 2>/dev/null; slurm_logs "$cluster")"
[ "$(ls "$work/plan/results" | wc -l)" -eq 6 ] || fail "expected 6 results, found: $(ls "$work/plan/results")"
# shellcheck disable=SC2086
sweep_formats 0 "$work/local" "$regionsim" "$file" $longer
merge_matches 0 "$work/local" "$work/merged" "" "$regionsim" "$work/plan"
echo "ok: the Slurm job array's merged sweep equals the local sweep in text, json, csv and html"
# Two submissions, as a plan past one array is submitted (PLAN_OFFSET): every
# task keeps its own log (logs/%A_%a.out), which names its point.
rm -f "$work"/plan/logs/*
sbatch --wait --chdir="$work" --array=0-2 "$work/plan/sweep.sbatch" >"$work/sbatch.out" 2>&1 &&
    sbatch --wait --chdir="$work" --export=ALL,PLAN_OFFSET=3 --array=0-2 "$work/plan/sweep.sbatch" \
        >>"$work/sbatch.out" 2>&1 || fail "sbatch --wait, two submissions: $(cat "$work/sbatch.out")"
[ "$(ls "$work/plan/logs" | wc -l)" -eq 6 ] || fail "expected 6 logs, one a task, found: $(ls "$work/plan/logs")"
for p in 0 1 2 3 4 5; do
    grep -l "point $p " "$work"/plan/logs/* >/dev/null || fail "no log names point $p"
done
echo "ok: two submissions of the array keep a log a task"
