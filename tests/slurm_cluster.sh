# slurm_cluster.sh -- a one-node Slurm cluster in a private directory, for
# tests (sourced by sh). Needs root and Debian's slurmctld, slurmd,
# slurm-client and munge.
#
#   slurm_start DIR   starts munged, slurmctld and slurmd with every file
#                     (key, sockets, state, spool, logs, pid files) under
#                     DIR and free TCP ports, and waits until the node is
#                     idle; exports SLURM_CONF. Returns non-zero (with the
#                     logs on stderr) if it does not come up in 30 s.
#   slurm_stop DIR    stops the three daemons.
#
# Nothing outside DIR is touched: not /etc/slurm, /etc/munge, /run/munge
# nor systemd units, so a machine's own Slurm (if any) is left alone.

slurm_free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

slurm_start() {
    d=$1
    mkdir -p "$d/state" "$d/spool" "$d/munge"
    chmod 700 "$d/munge"
    dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 2>/dev/null
    chmod 400 "$d/munge/munge.key"
    munged --force --socket="$d/munge/munge.sock" --key-file="$d/munge/munge.key" \
        --pid-file="$d/munge/munged.pid" --log-file="$d/munge/munged.log" \
        --seed-file="$d/munge/munged.seed" || return 1
    host=$(hostname -s)
    cpus=$(nproc)
    mem=$(awk '/MemTotal/ { printf "%d", $2 / 1024 / 2 }' /proc/meminfo)
    cat >"$d/slurm.conf" <<CONF
ClusterName=regionsim-test
SlurmctldHost=$host
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
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$d/slurm.conf"
    slurmctld -f "$SLURM_CONF" || return 1
    slurmd -f "$SLURM_CONF" || return 1
    i=0
    while [ $i -lt 60 ]; do
        state=$(sinfo -h -o '%T' 2>/dev/null | head -1)
        case $state in idle*) return 0 ;; esac
        sleep 0.5
        i=$((i + 1))
    done
    echo "slurm: the node did not come up in 30 s (state '$state'); logs:" >&2
    tail -n 20 "$d/slurmctld.log" "$d/slurmd.log" "$d/munge/munged.log" >&2
    return 1
}

slurm_stop() {
    d=$1
    for f in "$d/slurmd.pid" "$d/slurmctld.pid" "$d/munge/munged.pid"; do
        [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
    done
    sleep 0.5
    return 0
}
