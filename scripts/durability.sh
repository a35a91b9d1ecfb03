#!/usr/bin/env bash
# What warsim's files promise after a power cut, checked from its system calls (run by .ci/run):
# runs a checkpointed run, an interrupted one and its resume, a sweep and a merge under strace and
# checks, in the order the calls were made, that
#   - every file replaced by a rename (summaries, state files) was synced before the rename and
#     its folder synced after it, before anything else was renamed or the process ended: a
#     reported summary or checkpoint is on disk, not only in the machine's cache;
#   - every per-game file warsim creates has its folder synced before the first checkpoint, so
#     that the rows a checkpoint counts can be found after a reboot;
#   - no row is written to a per-game file (CSV or Parquet) between its last sync and the rename
#     of a checkpoint or a summary, so neither counts rows the disk may not hold, with or
#     without --state.
# Needs strace (installed with apt-get when missing and running as root) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/packages.sh
. scripts/packages.sh
command -v strace > /dev/null || install_missing scripts/durability.sh strace
source scripts/warsim-binary.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/out"
cd "$dir"

# Every thread's file calls, with the paths of their descriptors (-y) and no data (-s 0).
strace_files=(strace -f -y -s 0
  -e trace=openat,write,writev,pwrite64,fsync,fdatasync,rename,renameat,renameat2)
traced() { # NAME ARGS...: runs warsim under strace; its trace goes to NAME.trace
  local name=$1
  shift
  "${strace_files[@]}" -o "$name.trace" "$warsim" "$@" > /dev/null
}

traced plain run --games 200000 --threads 2 -q --csv out/plain.csv --parquet out/plain.parquet \
  --json out/plain.json --summary out/plain-summary.csv
traced run run --games 300000 --threads 2 -q --csv out/games.csv --state run.state \
  --checkpoint-every 0.02s --json out/run.json --summary out/run.csv --histogram out/hist.csv \
  --hdr out/run.hlog --plot out/run.svg
# Stopped by SIGTERM after its first checkpoints, then resumed. (Not `traced`: in the background,
# its shell would stand between $! and strace. Not SIGINT: a script starts a background job with
# SIGINT ignored, and warsim keeps an ignored signal ignored.)
"${strace_files[@]}" -o stopped.trace "$warsim" run --games 1e7 --threads 2 -q --csv out/stopped.csv --state stopped.state \
  --checkpoint-every 0.02s --json out/stopped.json > /dev/null 2>&1 &
sleep 1
# To warsim itself, strace's child (strace would detach on a signal of its own).
kill -TERM "$(pgrep -P $!)"
status=0
wait $! || status=$?
[ "$status" = 143 ] || { echo "error: the stopped run exited $status, not 143" >&2; exit 1; }
traced resumed resume stopped.state 2> resumed.err || { cat resumed.err >&2; exit 1; }
traced sweep sweep --players 2..3 --games 50000 -q --games-csv out/sweep.csv \
  --state sweep.state --checkpoint-every 0.02s --json out/sweep.json
"$warsim" run --games 20000 --shard 0/2 --state shard-0.state -q > /dev/null
"$warsim" run --games 20000 --shard 1/2 --state shard-1.state -q > /dev/null
traced merge merge shard-0.state shard-1.state --json out/merged.json

python3 - "$dir" plain run stopped resumed sweep merge <<'PY'
import os, re, sys

folder, names = sys.argv[1], sys.argv[2:]
# strace pads a pid of fewer than five digits: "5160  openat(…".
call = re.compile(r"^(\d+) +(\w+)\((.*)\) += (-?\d+)")
fd_path = re.compile(r"^[^<]*<(.*)>$")

def calls(name):
    """(syscall, argument list, result) in the order they ended; an unfinished call is joined
    with its resumption (strace -f writes both)."""
    pending = {}
    with open(os.path.join(folder, name + ".trace")) as f:
        for line in f:
            pid = line.split()[0]
            if line.rstrip().endswith("<unfinished ...>"):
                pending[pid] = line.rstrip()[: -len("<unfinished ...>")]
                continue
            resumed = re.match(r"^(\d+) +<\.\.\. \w+ resumed>(.*)$", line.rstrip())
            if resumed:
                line = pending.pop(pid) + resumed.group(2)
            m = call.match(line.rstrip())
            if m:
                yield m.group(2), [a.strip() for a in m.group(3).split(", ")], int(m.group(4))

def path_of(arg):
    m = fd_path.match(arg)
    return m.group(1) if m else None

def unquote(arg):
    return arg.strip('"')

failures = []
for name in names:
    seen = list(calls(name))
    creations, renames, synced_dirs = [], [], []
    for i, (sys_call, args, result) in enumerate(seen):
        if sys_call == "openat" and "O_CREAT|O_EXCL" in args[2] and result >= 0:
            path = os.path.realpath(os.path.join(path_of(args[0]), unquote(args[1])))
            if not os.path.basename(path).startswith(".warsim-"):
                creations.append((i, path))
        if sys_call.startswith("rename") and result == 0:
            if sys_call == "rename":
                old, new = unquote(args[0]), unquote(args[1])
                base = folder
            else:
                old, new = unquote(args[1]), unquote(args[3])
                base = path_of(args[2])
            renames.append((i, old, os.path.realpath(os.path.join(base, new))))
    if not renames:
        failures.append(f"{name}: no file was renamed into place")
    for n, (i, old, new) in enumerate(renames):
        end = renames[n + 1][0] if n + 1 < len(renames) else len(seen)
        synced = {path_of(a[0]) for s, a, r in seen[:i] if s == "fsync" and r == 0}
        if old not in synced and os.path.realpath(old) not in synced:
            failures.append(f"{name}: {new} was renamed into place before its data was synced")
        after = {path_of(a[0]) for s, a, r in seen[i:end] if s == "fsync" and r == 0}
        if os.path.dirname(new) not in after:
            failures.append(f"{name}: {new}'s folder was not synced after its rename")
    first_rename = renames[0][0] if renames else len(seen)
    for i, path in creations:
        if path.endswith(".lock"):
            continue
        synced = {path_of(a[0]) for s, a, r in seen[i:first_rename] if s == "fsync" and r == 0}
        if os.path.dirname(path) not in synced:
            failures.append(f"{name}: {path} was created and its folder not synced before the first rename")
    # A checkpoint's or a summary's rename with rows written to a per-game file since that
    # file's last sync (summaries go through a `.warsim-*.tmp`, so end in neither suffix).
    for i, old, new in renames:
        unsynced = set()
        for s, a, r in seen[:i]:
            path = path_of(a[0]) if a else None
            per_game = path and path.endswith((".csv", ".parquet"))
            if per_game and s in ("write", "writev", "pwrite64"):
                unsynced.add(path)
            if path and s == "fdatasync" and r == 0:
                unsynced.discard(path)
        for path in unsynced:
            failures.append(f"{name}: {new} was renamed into place with rows of {path} unsynced")
    print(f"durability: {name}: {len(renames)} renames, {len(creations)} files created, checked")
if failures:
    for failure in dict.fromkeys(failures):
        print("error:", failure, file=sys.stderr)
    sys.exit(1)
PY
echo "durability: every summary and state file synced with its folder; summaries and checkpoints count only synced rows"
