#!/bin/sh
# sweep_sshd.sh -- a sweep planned (`regionsim sweep FILE --plan DIR`),
# run by GNU parallel over REAL ssh to a private sshd this test starts,
# then merged (`regionsim merge DIR`): the local sweep's report byte for
# byte, in every format.
#
#   sh tests/sweep_sshd.sh REGIONSIM SOURCE_ROOT WORKDIR
#
# The logins read no rc file of root's: bash reads ~/.bashrc for a command
# sent over ssh only when it is the first shell (SHLVL below 2), and the
# sshd sets SHLVL=1 (SetEnv). So the test does not depend on what root's
# ~/.bashrc does (it may take seconds, or wait for a lock), and a login
# ended mid-way by the test's end cannot leave that half-done.
#
# The sshd (`/usr/sbin/sshd -D -f CONFIG`, in the background, in a PID
# namespace of its own with every login it forks: lib.sh's private_start;
# stopped by the trap on EXIT, INT, TERM and HUP, so that meson's SIGTERM
# leaves nothing running; tests/sigterm_cleanup.py checks it) listens on 127.0.0.1 and 127.0.0.2 (two "hosts": Linux routes
# all of 127/8 to the loopback) on a free high port, with every file in
# a temporary directory of the test's (mktemp -d under /tmp, removed by
# the trap): a host key and a client key made by
# ssh-keygen, the authorized_keys, a known_hosts naming the host key (so
# the client checks the host key, as a user's would), the pid file and
# the log. The client is `ssh -F /dev/null` with every option on its
# command line, so neither /etc/ssh nor ~/.ssh is read or written. The
# one thing outside the test's directories is /run/sshd, the empty directory
# Debian's sshd needs for privilege separation: created (as Debian's own
# ssh service would) when missing, and left there.
#
# Run 1 is the `--sshloginfile` form with the ssh command and its options
# on each line (`2/ssh -p PORT -i KEY ... root@127.0.0.1`); run 2 the
# `--ssh 'ssh -p PORT -i KEY ...'` form with `--sshlogin` on the command
# line. The plan's directory has spaces and a quote in its name. The
# joblog says every job exited 0 and which host ran it: both hosts must
# have run jobs.
#
# Needs root (sshd logs the user in as itself: root, with a key only;
# `PermitRootLogin prohibit-password`), Debian's openssh-server and
# openssh-client, python3 (a free port) and GNU parallel. Without them the
# test is skipped (exit 77, meson's skip code) with the reason, except
# under CI (CI set and not "false"/"0", where it runs as root), where a
# missing package fails it: `sh setup.sh --tests` installs them.
# Every wait has a wall-clock limit (10 s for the first logins, 120 s for
# each parallel run). Registered in tests/meson.build, suite 'slow' (a
# few seconds).
set -eu
if [ $# -ne 3 ]; then
    echo "usage: sh sweep_sshd.sh REGIONSIM SOURCE_ROOT WORKDIR" >&2
    exit 2
fi
regionsim=$1
root=$2
. "$(dirname "$0")/lib.sh"
skip_in_package_build "this test starts sshd"
unset PARALLEL_SSH PARALLEL SSH_AUTH_SOCK 2>/dev/null || true

skip_unless_root "the private sshd of this test logs in as root and needs root (CI runs it as root)"
missing=""
[ -x /usr/sbin/sshd ] || missing="$missing /usr/sbin/sshd"
for p in ssh ssh-keygen python3 perl; do
    command -v "$p" >/dev/null 2>&1 || missing="$missing $p"
done
have_gnu_parallel || missing="$missing parallel"
[ -z "$missing" ] ||
    skip "not installed:$missing (apt-get install openssh-server openssh-client parallel python3)"

mkdir -p "$3"
work=$(cd "$3" && pwd -P)/sweep-sshd.$$
rm -rf "$work"
mkdir -p "$work"
# the keys, the configuration and the sshd's files: in a directory of
# their own under /tmp, since ssh's options name files in it and parallel
# splits sshlogins at spaces, whatever the build directory is called
d=$(mktemp -d /tmp/regionsim-sweep-sshd.XXXXXX) || { echo "FAIL: mktemp -d" >&2; exit 1; }
# every exit path (meson's SIGTERM on a timeout included) stops the sshd and
# every login it forked (private_stop: they are in the sshd's PID
# namespace when there is one) and removes the files
trap 'private_stop; rm -rf "$work" "$d"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

ssh-keygen -q -t ed25519 -N '' -C regionsim-test-host -f "$d/host_key" || fail "ssh-keygen (host key)"
ssh-keygen -q -t ed25519 -N '' -C regionsim-test-client -f "$d/client_key" || fail "ssh-keygen (client key)"
cp "$d/client_key.pub" "$d/authorized_keys"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
hostkey=$(cut -d' ' -f1,2 <"$d/host_key.pub")
printf '[127.0.0.1]:%s %s\n[127.0.0.2]:%s %s\n' "$port" "$hostkey" "$port" "$hostkey" >"$d/known_hosts"
cat >"$d/sshd_config" <<CONF
Port $port
ListenAddress 127.0.0.1
ListenAddress 127.0.0.2
HostKey $d/host_key
PidFile $d/sshd.pid
AuthorizedKeysFile $d/authorized_keys
PermitRootLogin prohibit-password
AllowUsers root
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PrintMotd no
X11Forwarding no
AllowTcpForwarding no
MaxStartups 50:30:100
MaxSessions 20
AcceptEnv ASAN_OPTIONS UBSAN_OPTIONS
SetEnv SHLVL=1
CONF
# Debian's sshd refuses to start without its privilege separation
# directory (the ssh service's unit makes it: RuntimeDirectory=sshd).
if [ ! -d /run/sshd ]; then
    mkdir -p /run/sshd && chmod 755 /run/sshd || fail "cannot create /run/sshd"
fi
/usr/sbin/sshd -t -f "$d/sshd_config" 2>"$d/sshd.log" || fail "sshd -t: $(cat "$d/sshd.log")"
private_start "$d/sshd.out" /usr/sbin/sshd -D -f "$d/sshd_config" -E "$d/sshd.log"

ssh="ssh -F /dev/null -p $port -i $d/client_key -o IdentitiesOnly=yes -o BatchMode=yes -o ConnectTimeout=5"
ssh="$ssh -o StrictHostKeyChecking=yes -o UserKnownHostsFile=$d/known_hosts -o LogLevel=ERROR"
# the sanitizers' options (meson test sets them) reach the jobs, so that
# an ASan build's job fails on a finding as it does locally
ssh="$ssh -o SendEnv=ASAN_OPTIONS -o SendEnv=UBSAN_OPTIONS"
# up: a login on each address runs a command (10 s of wall clock at most)
deadline=$(($(date +%s) + 10))
for host in 127.0.0.1 127.0.0.2; do
    until [ "$(timeout --foreground 10 $ssh "root@$host" echo up 2>"$d/ssh.err")" = up ]; do
        kill -0 "$private_job" 2>/dev/null || fail "sshd exited: $(cat "$d/sshd.out" "$d/sshd.log")"
        [ "$(date +%s)" -lt "$deadline" ] ||
            fail "no login on $host:$port in 10 s: $(cat "$d/ssh.err" "$d/sshd.log")"
        sleep 0.2
    done
done

cd "$root"
file=tests/data/sweep-small.ini
set -- --read-fraction 0.08 --assert 'write_max_mean <= 2.5 for tsdb'
sweep_formats 1 "$work/local" "$regionsim" "$file" "$@" # 1: the failed assertion

# check_run NAME PLAN: the joblog has 6 jobs, all exited 0, run on both
# hosts; merge is the local sweep in every format.
check_run() {
    name=$1
    plan=$2
    log=$plan/logs/joblog
    # joblog columns: Seq Host Starttime JobRuntime Send Receive Exitval Signal Command
    [ "$(awk -F'\t' 'NR > 1 && $7 == 0 && $8 == 0' "$log" | wc -l)" -eq 6 ] ||
        fail "$name: expected 6 jobs that exited 0 in the joblog: $(cat "$log")"
    hosts=$(awk -F'\t' 'NR > 1 { n = split($2, w, " "); print w[n] }' "$log" | sort -u | tr '\n' ' ')
    [ "$hosts" = "root@127.0.0.1 root@127.0.0.2 " ] || fail "$name: jobs ran on '$hosts', expected both hosts"
    [ "$(ls "$plan/results" | wc -l)" -eq 6 ] || fail "$name: expected 6 results: $(ls "$plan/results")"
    merge_matches 1 "$work/local" "$work/merged" "$name" "$regionsim" "$plan"
}

# 1. --sshloginfile, the ssh command and its options on each line
plan1="$work/plan dir 'q'"
"$regionsim" sweep "$file" "$@" --plan "$plan1" || fail "sweep --plan '$plan1'"
printf '2/%s root@127.0.0.1\n2/%s root@127.0.0.2\n' "$ssh" "$ssh" >"$work/hosts"
timeout --foreground 120 parallel --will-cite --sshloginfile "$work/hosts" --halt now,fail=1 \
    --joblog "$plan1/logs/joblog" <"$plan1/jobs.txt" >"$work/parallel.out" 2>&1 ||
    fail "parallel --sshloginfile: $(cat "$work/parallel.out")"
check_run "--sshloginfile" "$plan1"

# 2. --ssh 'ssh OPTIONS' and --sshlogin on the command line
plan2="$work/plan2 \$x \"y\""
"$regionsim" sweep "$file" "$@" --plan "$plan2" || fail "sweep --plan '$plan2'"
timeout --foreground 120 parallel --will-cite --ssh "$ssh" --sshlogin 2/root@127.0.0.1,2/root@127.0.0.2 --halt now,fail=1 \
    --joblog "$plan2/logs/joblog" <"$plan2/jobs.txt" >"$work/parallel.out" 2>&1 ||
    fail "parallel --ssh --sshlogin: $(cat "$work/parallel.out")"
check_run "--ssh --sshlogin" "$plan2"
# every job logged in through the sshd: 2 logins checking it is up, 12 jobs
logins=$(grep -c 'Accepted publickey for root' "$d/sshd.log" || true)
[ "$logins" -ge 14 ] || fail "the sshd logged $logins logins, expected 14 or more: $(cat "$d/sshd.log")"
echo "ok: GNU parallel over a real sshd: merged sweep equals the local sweep in text, json, csv and html"
