#!/usr/bin/env bash
# Two offline readings of the example paper at once, in two library homes, against one: the
# bundled model's server is one per machine, so both share one model process.
#   bench/two_readings.sh [MODEL]     (default: qwen2.5-coder-0.5b-instruct-q4km)
# Prints wall seconds and the server's CPU seconds for one reading, then for two at once.
# The response cache is off (every call reaches the model); the server gets its own model
# folder (a link to the assembled GGUF), so a server already running elsewhere is not used.
set -uo pipefail
cd "$(dirname "$0")/.."
MODEL=${1:-qwen2.5-coder-0.5b-instruct-q4km}
WORK=$(mktemp -d)
export PAPERMIND_LLM__CACHE=false PAPERMIND_LLM__LOCAL__MODEL=$MODEL
CACHE=${PAPERMIND_MODEL_DIR:-$HOME/.cache/papermind/models}
export PAPERMIND_MODEL_DIR=$WORK/models
mkdir -p "$PAPERMIND_MODEL_DIR" && ln -s "$CACHE"/"$MODEL"-*.gguf "$PAPERMIND_MODEL_DIR"/
PM=.venv/bin/papermind
for h in a b; do
  ID=$(PAPERMIND_HOME=$WORK/$h $PM add examples/example_paper.pdf --json | .venv/bin/python -c 'import json, sys; print(json.load(sys.stdin)[0]["paper_id"])')
done
PAPERMIND_HOME=$WORK/a $PM read "$ID" --out "$WORK/warm" >/dev/null 2>&1   # starts the server
cpu() { .venv/bin/python -c "import json; from papermind.llm.local_server import server_cpu_seconds as c
print(c(json.load(open('$PAPERMIND_MODEL_DIR/server/server.json'))['pid']))"; }
c0=$(cpu); t0=$(date +%s.%N)
PAPERMIND_HOME=$WORK/b $PM read "$ID" --out "$WORK/one" >"$WORK/one.log" 2>&1
t1=$(date +%s.%N); c1=$(cpu)
PAPERMIND_HOME=$WORK/a $PM read "$ID" --out "$WORK/two-a" >"$WORK/two-a.log" 2>&1 & A=$!
PAPERMIND_HOME=$WORK/b $PM read "$ID" --out "$WORK/two-b" >"$WORK/two-b.log" 2>&1 & B=$!
wait $A; ra=$?; wait $B; rb=$?
t2=$(date +%s.%N); c2=$(cpu)
echo "one reading: wall $(echo "$t1 - $t0" | bc) s, server CPU $(echo "$c1 - $c0" | bc) s"
echo "two at once: wall $(echo "$t2 - $t1" | bc) s, server CPU $(echo "$c2 - $c1" | bc) s, exit codes $ra $rb"
echo "model server processes: $(pgrep -fc "local_server_main --folder $PAPERMIND_MODEL_DIR")"
uptime
.venv/bin/python -c "from papermind.llm.local_server import stop_server; stop_server(None)"
echo "reports and logs: $WORK"
