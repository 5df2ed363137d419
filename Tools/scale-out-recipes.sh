#!/usr/bin/env bash
# The README's scale-out recipes (Batch and the CI gate, "Scale-out"), run here on the bundled
# corpus: the Hadoop Streaming mapper, the GitHub Actions matrix's shard and merge steps and the
# Kubernetes Indexed Job's pod command and merge, each taken from README.md as written, with
# N = 4, the mount points (/mnt/corpus, /corpus, /out) replaced by local folders and no cluster.
# Each merge must equal one `tracekit batch` over the same input byte for byte (the table or the
# gate's report, and the exit status). Hadoop, GitHub and Kubernetes themselves are not run.
#
#   Tools/scale-out-recipes.sh [TRACEKIT]        (default .build/release/tracekit; make test-spark runs it)
#
# One line per check, then "N passed, N failed"; exit 1 when a check fails.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TK=$(cd "$(dirname "${1:-.build/release/tracekit}")" && pwd)/$(basename "${1:-.build/release/tracekit}")
README=$ROOT/README.md
R=$(mktemp -d)
trap 'rm -rf "$R"' EXIT
mkdir -p "$R/bin" && ln -s "$TK" "$R/bin/tracekit" && export PATH=$R/bin:$PATH
passed=0 failed=0
check() { # NAME OK DETAIL
  if [ "$2" = 1 ]; then echo "ok   $1: $3"; passed=$((passed + 1)); else echo "FAIL $1: $3"; failed=$((failed + 1)); fi
}
same() { # NAME FILE-A STATUS-A FILE-B STATUS-B
  if cmp -s "$2" "$4" && [ "$3" = "$5" ]; then check "$1" 1 "$(wc -c <"$2") bytes identical, exit $3"
  else check "$1" 0 "differ (exit $3 and $5): $(diff "$2" "$4" | head -3 | tr '\n' ' ')"; fi
}
# The README's text between two lines (the first matching START, to the next matching END).
block() { awk -v s="$1" -v e="$2" 'f && $0 ~ e { exit } f { print } !f && $0 ~ s { f = 1 }' "$README"; }

# The corpus as the recipes name it: a manifest of the 12 trips of Traces/, in a copy of it.
cd "$R" && cp -r "$ROOT/Traces" corpus
tracekit batch corpus/ --jsonl --jobs 1 | python3 -c '
import json, sys
for line in sorted(sys.stdin, key=lambda l: json.loads(l)["index"]): print(json.loads(line)["trip"])' >corpus/manifest.txt
tracekit batch "$R/corpus/manifest.txt" --jobs 1 >one.txt; one=$?
tracekit batch "$R/corpus/manifest.txt" --jobs 1 --baseline corpus/baseline.json >one-gate.txt; one_gate=$?

# Hadoop Streaming: the mapper script, n=4; fed lines as NLineInputFormat gives them (offset, tab,
# shard number) and plain shard numbers; its output lines ended by a tab, as Hadoop's text output may.
mkdir hadoop && ln -s "$TK" hadoop/tracekit
block "^  cat > shard-mapper.sh <<'EOF'" "^  EOF$" | sed 's/^  //; s|/mnt/corpus/manifest.txt|'"$R"'/corpus/manifest.txt|; s/^n=64$/n=4/' >hadoop/shard-mapper.sh
grep -q 'n=4' hadoop/shard-mapper.sh && grep -q "$R/corpus/manifest.txt" hadoop/shard-mapper.sh
check "hadoop: the mapper script found in README.md" $((1 - $?)) "$(wc -l <hadoop/shard-mapper.sh) lines"
for i in 0 1 2 3; do
  (cd hadoop && printf '%d\t%d\n' $((i * 2)) $i | sh shard-mapper.sh | sed 's/$/\t/' >part-0000$i)
  (cd hadoop && echo $i | sh shard-mapper.sh >plain-$i)
done
cat hadoop/part-* | tracekit merge - --baseline corpus/baseline.json --junit hadoop/gate.xml --markdown hadoop/gate.md >merged.txt
same "hadoop: 4 map tasks (offset-tab-number input, tab-ended output) merged with the gate = batch MANIFEST --baseline" merged.txt $? one-gate.txt $one_gate
cat hadoop/plain-* | tracekit merge - >merged.txt
same "hadoop: 4 map tasks (plain shard numbers) merged = batch MANIFEST --jobs 1" merged.txt $? one.txt $one

# GitHub Actions: the matrix's shard step for shards 0 to 3, then the gate job's merge step, under a
# policy that fails the gate against the committed baseline.
mkdir gha && cp -r "$ROOT/Traces" gha/traces
printf '{"format": "tracekit-policy", "version": 2, "name": "quiet", "states": {"enRoute": {"distanceFilterMetres": 100}}}' >gha/policy.json
step=$(grep -o 'run: tracekit batch traces/ --policy policy.json --shard .*' "$README" | head -1 | sed 's/^run: //')
merge=$(grep -o 'run: tracekit merge shard-\*.jsonl .*' "$README" | head -1 | sed 's/^run: //')
check "github actions: the shard and merge steps found in README.md" $([ -n "$step" ] && [ -n "$merge" ] && echo 1 || echo 0) "${step:0:60}…"
statuses=""
for s in 0 1 2 3; do (cd gha && bash -eo pipefail -c "${step//\$\{\{ matrix.shard \}\}/$s}"); statuses="$statuses$?"; done
check "github actions: the 4 shard steps succeed" $([ "$statuses" = 0000 ] && echo 1 || echo 0) "exit $statuses"
(cd gha && bash -c "$merge") >merged.txt 2>/dev/null
m=$?
(cd gha && tracekit batch traces/ --policy policy.json --baseline traces/baseline.json) >one-gha.txt 2>/dev/null
same "github actions: 4 shards merged with the gate = batch traces/ --policy --baseline (failing)" merged.txt $m one-gha.txt $?

# Kubernetes: the pod's command with JOB_COMPLETION_INDEX 0 to 3 (64 -> 4), then the merge step.
mkdir -p k8s/out
pod=$(grep 'command: \["sh", "-c", "tracekit batch /corpus/manifest.txt' "$README" | head -1 | sed 's/^.*command: \["sh", "-c", "//; s/"\]$//')
merge=$(grep -o 'tracekit merge /out/shard-\*.jsonl --baseline[^`]*' "$README" | head -1)
check "kubernetes: the pod's command and the merge found in README.md" $([ -n "$pod" ] && [ -n "$merge" ] && echo 1 || echo 0) "${pod:0:60}…"
local_paths() { sed 's| /corpus/| '"$R"'/corpus/|g; s| /out/| '"$R"'/k8s/out/|g; s|/64 |/4 |'; }
for i in 0 1 2 3; do JOB_COMPLETION_INDEX=$i sh -c "$(echo "$pod" | local_paths)"; done
check "kubernetes: each pod's file complete, none left aside" $([ "$(ls k8s/out)" = "$(printf 'shard-%d.jsonl\n' 0 1 2 3)" ] && echo 1 || echo 0) "$(ls k8s/out | tr '\n' ' ')"
sh -c "$(echo " $merge" | local_paths | sed 's|'"$R"'/corpus/baseline.json|corpus/baseline.json|')" >merged.txt
same "kubernetes: 4 pods' files merged with the gate = batch MANIFEST --baseline" merged.txt $? one-gate.txt $one_gate
rm k8s/out/shard-2.jsonl
tracekit merge k8s/out/shard-*.jsonl >lost.txt 2>/dev/null
m=$?
check "kubernetes: a pod's file missing fails the merge with its trips not run" $([ $m = 1 ] && grep -q 'Trips not run (3)' lost.txt && echo 1 || echo 0) "exit $m"

echo "recipes: $passed passed, $failed failed"
[ "$failed" = 0 ]
