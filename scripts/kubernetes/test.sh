#!/usr/bin/env bash
# The Kubernetes manifests, checked without a cluster (run by .ci/run; none can run on warsim's
# build machine): parses warsim-shards.yaml and warsim-merge.yaml (PyYAML, from PyPI into the
# virtual environment scripts/check-figures.sh uses), checks that the shard Job is Indexed,
# replaces a pod only once it has ended, has its pods exec warsim (so SIGTERM reaches it) and
# names its `completions` in --shard K/N, then runs each pod's own command as the Job would
# (JOB_COMPLETION_INDEX = 0 … N−1, /out a temporary folder, the batch cut to 20,000 games), runs
# one index again as a retry would (--continue: its outputs written again, not replayed), runs
# the merge Job's command, and compares the merged summary and the concatenated CSVs with the
# single run's; then the same for warsim-enumeration.yaml and its merge (4 × 3 cards instead of
# 4 × 5), whose merged JSON must be the whole enumeration's byte for byte.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/warsim-binary.sh
venv=target/check-figures-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c "import yaml" 2> /dev/null || "$venv/bin/pip" install -q "pyyaml>=6"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
games=20000
# Each manifest's shell command with /out and --games replaced, and the shard Job's completions.
"$venv/bin/python" - "$dir" "$games" > "$dir/commands" <<'PY'
import re, shlex, sys, yaml
out, games = sys.argv[1], sys.argv[2]
def job(path):
    with open(path) as f:
        spec = yaml.safe_load(f)
    assert spec["kind"] == "Job", path
    return spec["spec"]
def script(spec, size):
    (container,) = spec["template"]["spec"]["containers"]
    assert container["command"] == ["sh", "-c"], container["command"]
    (text,) = container["args"]
    assert "/out" in text and any(m["mountPath"] == "/out" for m in container["volumeMounts"])
    return re.sub(size[0], size[1], text.replace("/out", out))
def indexed(path, size):
    """The Indexed Job's completions and its pods' command, checked."""
    spec = job(path)
    assert spec["completionMode"] == "Indexed"
    assert spec.get("podReplacementPolicy") == "Failed", "a retry starts once its index's pod has ended"
    n = spec["completions"]
    pod = script(spec, size)
    assert f'--shard "$JOB_COMPLETION_INDEX/{n}"' in pod, pod
    assert "--continue" in pod, "a retried index continues its checkpoint"
    assert pod.startswith("exec warsim "), "warsim is the pod's first process, so it gets SIGTERM"
    return n, pod
# A run of 20,000 games; an enumeration of 4 × 3 cards instead of 4 × 5.
sizes = (r"--games \S+", f"--games {games}"), (r"--ranks \S+", "--ranks 3")
n, shard = indexed("scripts/kubernetes/warsim-shards.yaml", sizes[0])
parts, part = indexed("scripts/kubernetes/warsim-enumeration.yaml", sizes[1])
print(n)
print(shard)
print(script(job("scripts/kubernetes/warsim-merge.yaml"), sizes[0]))
print(re.search(r"--seed \S+", shard).group(0))
print(parts)
print(part)
print(script(job("scripts/kubernetes/warsim-enumeration-merge.yaml"), sizes[1]))
# The whole enumeration's flags: the part's but the part, its state and --continue.
flags = re.sub(r'--shard \S+|--state \S+|--continue|-q', "", part.removeprefix("exec warsim enumerate "))
print(" ".join(flags.split()))
PY
{ read -r n; read -r shard; read -r merge; read -r seed; read -r parts; read -r part; read -r merge_parts; read -r deck; } < "$dir/commands"
# The pods run `warsim` from their PATH: the binary to check, under that name.
mkdir "$dir/bin"
ln -s "$warsim" "$dir/bin/warsim"
export PATH="$dir/bin:$PATH"
# The pods' reports (their logs) are not needed here.
for k in $(seq 0 $((n - 1))); do JOB_COMPLETION_INDEX=$k sh -c "$shard" > /dev/null; done
JOB_COMPLETION_INDEX=1 sh -c "$shard" > /dev/null 2> "$dir/retry.err"
grep -q "the run is complete" "$dir/retry.err" || { cat "$dir/retry.err" >&2; exit 1; }
sh -c "$merge" > /dev/null
warsim run --games "$games" $seed -q --json "$dir/whole.json" --csv "$dir/whole.csv" > /dev/null
"$venv/bin/python" scripts/same_figures.py "$dir/whole.json" "$dir/summary.json"
for k in $(seq 0 $((n - 1))); do cat "$dir/games-$k.csv"; done | cmp -s - "$dir/whole.csv" \
  || { echo "error: the pods' CSVs do not concatenate to the single run's" >&2; exit 1; }

# The enumeration's manifests alike, on 4 × 3 cards instead of 4 × 5: every part, one again as a
# retry would (--continue: its state written again from itself), the merge, and the merged JSON
# against the whole enumeration's, byte for byte.
for k in $(seq 0 $((parts - 1))); do JOB_COMPLETION_INDEX=$k sh -c "$part" > /dev/null; done
JOB_COMPLETION_INDEX=1 sh -c "$part" > /dev/null 2> "$dir/retry.err"
grep -q "the enumeration is complete" "$dir/retry.err" || { cat "$dir/retry.err" >&2; exit 1; }
sh -c "$merge_parts" > /dev/null
eval "warsim enumerate $deck -q --json $dir/whole-enumeration.json" > /dev/null
cmp -s "$dir/whole-enumeration.json" "$dir/enumeration.json" \
  || { echo "error: the merged enumeration differs from the whole enumeration" >&2; exit 1; }
echo "kubernetes: the manifests' $n pods and merge, run here, give the single run's figures and CSV; the enumeration's $parts parts and merge, its exact figures"
