# slurm_cluster.sh -- a one-node Slurm cluster in a private directory, for
# tests (sourced by sh). Needs root and Debian's slurmctld, slurmd,
# slurm-client and munge (Slurm 22.05, munge 0.5.15).
#
#   slurm_start DIR   starts munged, slurmctld and slurmd with every file
#                     (key, sockets, state, spool, logs, pid files) under
#                     DIR and free TCP ports, and waits until the node is
#                     idle; exports SLURM_CONF. Returns non-zero (with the
#                     logs on stderr) if it is not up within 30 s (wall
#                     clock). The caller must call slurm_stop on every exit
#                     path (a trap on EXIT, INT, TERM, HUP).
#   slurm_stop        stops every process the cluster started (the
#                     daemons, and any job step), and waits until they are
#                     gone. Safe to call twice, or before slurm_start.
#
# Names and addresses are the test's own, never the machine's: the host's
# name may resolve to nothing (a fresh Debian root has no /etc/hosts line
# for it; every getaddrinfo then fails after seconds, which made each
# sinfo take 11 s). The controller is `localhost(127.0.0.1)` (slurmctld
# takes "localhost" as the controller on any host), the node is
# regionsim-node at 127.0.0.1 (slurmd -N says which node it is), and
# munged's credentials name 127.0.0.1 as their origin (--origin): no name
# is looked up.
#
# The daemons run in the foreground (munged -F, slurmctld -D, slurmd -D),
# as children of one background job that lib.sh's private_start starts: in
# a PID namespace of its own when the kernel allows it (root normally
# may), so that slurm_stop leaves nothing behind, not even a job step that
# slurmd forked off in a session of its own, and nothing survives the test
# even when it is killed. (The pid files in DIR then hold the namespace's
# numbers: never read from outside.) Without a namespace the job's trap
# stops the three daemons (a job step may then outlive them). Sourced
# after lib.sh.
#
# Nothing outside DIR is touched: not /etc/slurm, /etc/munge, /run/munge
# nor systemd units, so a machine's own Slurm (if any) is left alone.

slurm_node=regionsim-node

slurm_free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

slurm_logs() {
    for f in "$1/slurmctld.log" "$1/slurmd.log" "$1/munge/munged.log" "$1/daemons.log"; do
        [ -s "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }
    done
    return 0
}

# The daemons, in the foreground, as children of this script (its trap
# stops them): run by sh -c with DIR as $1 and the node's name as $2.
slurm_daemons_script='
d=$1
munged -F --force --origin=127.0.0.1 --socket="$d/munge/munge.sock" \
    --key-file="$d/munge/munge.key" --pid-file="$d/munge/munged.pid" \
    --log-file="$d/munge/munged.log" --seed-file="$d/munge/munged.seed" &
m=$!
trap "kill \$m \${c:-} \${s:-} 2>/dev/null; wait; exit 0" TERM INT HUP
n=0
until [ -S "$d/munge/munge.sock" ]; do
    n=$((n + 1))
    [ $n -le 100 ] && kill -0 $m 2>/dev/null || { echo "munged did not start" >&2; kill $m 2>/dev/null; exit 1; }
    sleep 0.1
done
slurmctld -D -f "$SLURM_CONF" &
c=$!
slurmd -D -f "$SLURM_CONF" -N "$2" &
s=$!
wait
'

slurm_start() {
    d=$1
    mkdir -p "$d/state" "$d/spool" "$d/munge"
    chmod 700 "$d/munge"
    dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 2>/dev/null
    chmod 400 "$d/munge/munge.key"
    cpus=$(nproc)
    mem=$(awk '/MemTotal/ { printf "%d", $2 / 1024 / 2 }' /proc/meminfo)
    cat >"$d/slurm.conf" <<CONF
ClusterName=regionsim-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(slurm_free_port)
SlurmdPort=$(slurm_free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=$slurm_node NodeAddr=127.0.0.1 NodeHostname=$slurm_node CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$slurm_node Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$d/slurm.conf"
    private_start "$d/daemons.log" sh -c "$slurm_daemons_script" sh "$d" "$slurm_node"
    # up: the node idle, within 30 s of wall clock (each sinfo at most 5 s)
    deadline=$(($(date +%s) + 30))
    state=""
    while [ "$(date +%s)" -lt "$deadline" ]; do
        kill -0 "$private_job" 2>/dev/null || break
        state=$(timeout --foreground 5 sinfo -h -o '%T' 2>/dev/null | head -1)
        case $state in idle*) return 0 ;; esac
        sleep 0.2
    done
    if kill -0 "$private_job" 2>/dev/null; then
        echo "slurm: the node did not come up in 30 s (state '$state'); logs:" >&2
    else
        echo "slurm: the daemons exited; logs:" >&2
    fi
    slurm_logs "$d" >&2
    return 1
}

slurm_stop() { private_stop; }
