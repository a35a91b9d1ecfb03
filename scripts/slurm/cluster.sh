#!/usr/bin/env bash
# A single-node Slurm cluster in a folder of its own, for testing warsim's job arrays for real:
# munge and Slurm from Debian's packages (installed if missing; needs root), daemons started by
# hand (there is no systemd here), no accounting.
#
# Usage: scripts/slurm/cluster.sh start DIR    # prints the SLURM_CONF to export
#        scripts/slurm/cluster.sh stop DIR
#
# Facts this relies on: munged refuses to run as root, so it runs as the munge user with its
# socket, pid and log under DIR, and Slurm reaches it through AuthInfo=socket=...; slurmctld
# needs a MailProg; the node line comes from `slurmd -C` (else "reconfigured socket/core
# boundaries"); batch_sched_delay=0 starts array tasks at once; sacct needs slurmdbd, so exit
# codes are read with `scontrol show job`.
set -euo pipefail

command=${1:-}
dir=${2:-}
if [ -z "$command" ] || [ -z "$dir" ]; then
  echo "usage: scripts/slurm/cluster.sh start|stop DIR" >&2
  exit 2
fi

stop() {
  for pid in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munge/munged.pid; do
    [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
  done
  sleep 0.5
}

case "$command" in
  stop) stop; exit 0 ;;
  start) ;;
  *) echo "usage: scripts/slurm/cluster.sh start|stop DIR" >&2; exit 2 ;;
esac

# shellcheck source=scripts/packages.sh
. "$(dirname "$0")/../packages.sh"
if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
  install_missing scripts/slurm/cluster.sh slurm-wlm munge
fi
mkdir -p "$dir"/munge "$dir"/state "$dir"/spool
dir=$(cd "$dir" && pwd)
chmod 755 "$dir"
if ! runuser -u munge -- test -x "$dir"; then
  echo "error: $dir must be reachable by the munge user: make its parent folders searchable (chmod o+x)" >&2
  exit 1
fi
chown munge:munge "$dir"/munge
# munged wants its socket's folder searchable by all (root's Slurm reaches the socket).
chmod 711 "$dir"/munge
dd if=/dev/urandom of="$dir"/munge/munge.key bs=1024 count=1 status=none
chown munge:munge "$dir"/munge/munge.key
chmod 400 "$dir"/munge/munge.key
runuser -u munge -- munged --key-file="$dir"/munge/munge.key \
  --socket="$dir"/munge/munge.socket --pid-file="$dir"/munge/munged.pid \
  --log-file="$dir"/munge/munged.log --seed-file="$dir"/munge/munged.seed

host=$(hostname -s)
node=$(slurmd -C | head -1)
cat > "$dir"/slurm.conf <<CONF
ClusterName=warsim
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
MailProg=/bin/true
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0
ReturnToService=2
$node State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf
slurmctld -c
slurmd
for _ in $(seq 100); do
  if sinfo -h -o %T 2>/dev/null | grep -q idle; then
    srun -Q true
    echo "$SLURM_CONF"
    exit 0
  fi
  sleep 0.2
done
echo "error: the Slurm node did not come up (see $dir/slurmctld.log and $dir/slurmd.log)" >&2
stop
exit 1
