#!/bin/sh
# sweep_ssh.sh -- a sweep planned (`regionsim sweep FILE --plan DIR`) and
# run by GNU parallel ACROSS HOSTS (`--sshloginfile HOSTS`, `--sshlogin
# 1/node1,1/node2`), then merged (`regionsim merge DIR`), gives the local
# sweep's report byte for byte in every format.
#
#   sh tests/sweep_ssh.sh REGIONSIM SOURCE_ROOT WORKDIR
#
# The hosts are stand-ins: parallel's own remote code path runs (it wraps
# each job for a remote shell and calls `ssh [OPTIONS] HOST -- COMMAND`),
# but the ssh it calls (`--ssh`, $PARALLEL_SSH, or a command on an
# sshlogin line) is fake-ssh, which this test writes into a temporary
# directory (mktemp -d under /tmp). fake-ssh does what ssh and sshd do with that call: it skips
# ssh's options, takes the host, joins the rest with spaces (ssh sends
# one string) and runs it with `sh -c` in a clean environment (HOME,
# PATH, SHELL, USER, LOGNAME, as sshd sets them) from the host's own home
# directory, and logs the host. So the test checks that jobs.txt's lines
# survive parallel's remote wrapping and a remote shell, with the plan's
# directory named by a path holding spaces, quotes, `$` and a backslash;
# that the jobs depend on neither the caller's directory nor its
# environment; and that the jobs went to more than one host.
#
# What it cannot check: a real ssh transport (tests/sweep_sshd.sh, suite
# 'slow', starts a real sshd) and separate file systems (every stand-in
# host sees this machine's files, as hosts on a shared file system do).
#
# Without GNU parallel the test is skipped (exit 77, meson's skip code),
# except under CI (CI set and not "false"/"0"), where it fails: `sh
# setup.sh --tests` installs Debian's parallel. Registered in
# tests/meson.build (default suite: about a second).
set -eu
if [ $# -ne 3 ]; then
    echo "usage: sh sweep_ssh.sh REGIONSIM SOURCE_ROOT WORKDIR" >&2
    exit 2
fi
regionsim=$1
root=$2
. "$(dirname "$0")/lib.sh"
unset PARALLEL_SSH PARALLEL 2>/dev/null || true

missing=""
have_gnu_parallel || missing="$missing parallel"
# parallel's remote wrapper is a perl program the remote host runs
command -v perl >/dev/null 2>&1 || missing="$missing perl"
[ -z "$missing" ] || skip "not installed:$missing (apt-get install parallel, or sh setup.sh --tests)"

mkdir -p "$3"
work=$(cd "$3" && pwd -P)/sweep-ssh.$$
rm -rf "$work"
mkdir -p "$work"
# fake-ssh, its log and the hosts' homes: in a directory of their own
# under /tmp, since sshlogin lines name fake-ssh by its path and parallel
# splits them at spaces, whatever the build directory is called.
aux=$(mktemp -d /tmp/regionsim-sweep-ssh.XXXXXX) || fail "mktemp -d"
trap 'rm -rf "$work" "$aux"' EXIT
mkdir "$aux/bin"

# fake-ssh [OPTIONS] HOST [--] COMMAND...: ssh's option letters that take
# an argument (OpenSSH 9's `-B bind_interface -b bind_address -c ciphers
# -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w`) skip it, as
# their next word or attached (`-p2222`, `-oBatchMode=yes`); other
# options are flags. The log's and the homes' paths are written into the
# script: parallel runs it with the test's environment, but the command
# runs with a clean one, as sshd gives.
cat >"$aux/bin/fake-ssh" <<EOF
#!/bin/sh
set -eu
log='$aux/ssh.log'
homes='$aux/homes'
EOF
cat >>"$aux/bin/fake-ssh" <<'EOF'
while [ $# -gt 0 ]; do
    case $1 in
    -[BbcDEeFIiJLlmOopQRSWw]) [ $# -ge 2 ] || { echo "fake-ssh: $1 needs an argument" >&2; exit 255; }; shift 2 ;;
    -[BbcDEeFIiJLlmOopQRSWw]?*) shift ;;
    --) shift; break ;;
    -*) shift ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "fake-ssh: no host" >&2; exit 255; }
host=${1#*@}
shift
[ "${1:-}" != -- ] || shift
[ $# -ge 1 ] || { echo "fake-ssh: no command (this stand-in runs no login shell)" >&2; exit 255; }
case $host in
node[0-9]) ;;
*) echo "fake-ssh: $host: Name or service not known" >&2; exit 255 ;;
esac
echo "$host" >>"$log"
mkdir -p "$homes/$host"
cd "$homes/$host"
# sshd: the user's shell runs the joined words in a fresh environment
# (the sanitizers' options pass, so that an ASan build still reports)
exec env -i HOME="$homes/$host" PATH=/usr/local/bin:/usr/bin:/bin SHELL=/bin/sh \
    USER=tester LOGNAME=tester \
    ${ASAN_OPTIONS+"ASAN_OPTIONS=$ASAN_OPTIONS"} \
    ${UBSAN_OPTIONS+"UBSAN_OPTIONS=$UBSAN_OPTIONS"} \
    sh -c "$*"
EOF
chmod +x "$aux/bin/fake-ssh"

cd "$root"
file=tests/data/sweep-small.ini
# An option of the sweep's and an assertion that fails at some points:
# both must reach every job through the remote shell.
set -- --read-fraction 0.08 --assert 'write_max_mean <= 2.5 for tsdb'
sweep_formats 1 "$work/local" "$regionsim" "$file" "$@" # 1: the failed assertion

# check_run NAME PLAN HOSTS: the plan's jobs all ran, on HOSTS hosts or
# more, and its merge is the local sweep in every format. (parallel fills
# every job slot at the start, one a host here, so with 6 jobs every host
# gets at least one.)
check_run() {
    name=$1
    plan=$2
    want_hosts=$3
    n=$(ls "$plan/results" | wc -l)
    [ "$n" -eq 6 ] || fail "$name: expected 6 results, found $n: $(ls "$plan/results")"
    [ "$(wc -l <"$aux/ssh.log")" -ge 6 ] || fail "$name: fewer ssh calls than jobs: $(cat "$aux/ssh.log")"
    hosts=$(sort -u "$aux/ssh.log" | wc -l)
    [ "$hosts" -ge "$want_hosts" ] ||
        fail "$name: jobs went to $hosts hosts, expected $want_hosts: $(sort "$aux/ssh.log" | uniq -c)"
    merge_matches 1 "$work/local" "$work/merged" "$name" "$regionsim" "$plan"
    [ -d "$aux/homes/node1" ] || fail "$name: no home directory for node1"
    for h in "$aux"/homes/*; do
        [ -z "$(ls -A "$h")" ] || fail "$name: a job left files in the host's home $h: $(ls -A "$h")"
    done
}

# 1. --sshloginfile: two hosts through --ssh, a third with its own ssh
# command and options on its line (the form for `ssh -p PORT -i KEY`);
# a comment and a blank line, which parallel ignores. The plan's
# directory has spaces and single quotes in its name.
plan1="$work/plan dir 'q' it's"
"$regionsim" sweep "$file" "$@" --plan "$plan1" || fail "sweep --plan '$plan1'"
cat >"$work/hosts" <<EOF
# stand-in hosts for tests/sweep_ssh.sh
1/node1
1/tester@node2

1/$aux/bin/fake-ssh -p 2222 -oBatchMode=yes -l tester -i $aux/no-key node3
EOF
: >"$aux/ssh.log"
parallel --will-cite --ssh "$aux/bin/fake-ssh" --sshloginfile "$work/hosts" \
    --halt now,fail=1 <"$plan1/jobs.txt" >"$work/parallel.out" 2>&1 ||
    fail "parallel --sshloginfile: a job failed: $(cat "$work/parallel.out")"
check_run "--sshloginfile" "$plan1" 3

# 2. --sshlogin on the command line, ssh from $PARALLEL_SSH; a directory
# with a double quote, a `$`, a backslash and a glob character.
plan2="$work/plan \"\$HOME\" \\n *"
"$regionsim" sweep "$file" "$@" --plan "$plan2" || fail "sweep --plan '$plan2'"
: >"$aux/ssh.log"
PARALLEL_SSH="$aux/bin/fake-ssh" parallel --will-cite --sshlogin 1/node1,1/node2 \
    --halt now,fail=1 <"$plan2/jobs.txt" >"$work/parallel.out" 2>&1 ||
    fail "parallel --sshlogin: a job failed: $(cat "$work/parallel.out")"
check_run "--sshlogin" "$plan2" 2

# 3. A host that cannot be reached (ssh exits 255): parallel fails, and
# merge names the results that are missing rather than printing a report.
plan3="$work/plan3"
"$regionsim" sweep "$file" "$@" --plan "$plan3" || fail "sweep --plan plan3"
status=0
parallel --will-cite --ssh "$aux/bin/fake-ssh" --sshlogin 1/node1,1/unknown-host \
    <"$plan3/jobs.txt" >"$work/parallel.out" 2>&1 || status=$?
[ $status -ne 0 ] || fail "parallel with an unreachable host exited 0"
status=0
"$regionsim" merge "$plan3" >"$work/out" 2>"$work/err" || status=$?
[ $status -eq 2 ] && [ ! -s "$work/out" ] && grep -q 'results missing' "$work/err" ||
    fail "merge after an unreachable host: exit $status: $(cat "$work/err")"
echo "ok: GNU parallel across stand-in ssh hosts: merged sweep equals the local sweep in text, json, csv and html"
