# Session 26 run 5: the small-call rule with 16-channel tiles (SMALL_CALL_CHANNELS):
# GPU time of the new plans among the candidates (small_calls.py), the small calls in
# CUDA graphs (graph_replay.py), then the sweep on the final code (into h200/).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
mkdir -p "$OUT/h200"
(cd benchmarks && timeout 150 python3 small_calls.py > "$OUT/small_calls.txt" 2>&1)
echo "small rc=$?"; grep -E "^\S|\*" "$OUT/small_calls.txt"
timeout 100 python3 benchmarks/graph_replay.py > "$OUT/graph_replay.txt" 2>&1
echo "graph rc=$?"; cat "$OUT/graph_replay.txt"
OUT=$OUT/h200 timeout 200 bash benchmarks/device_run.sh bench > "$OUT/bench_stdout.txt" 2>&1
echo "bench rc=$?"
grep -A10 "^issue 4's targets" "$OUT/h200/bench.log" | cut -c1-200
grep -E "^(seed|small|geometric)" "$OUT/h200/bench.log" | cut -c1-140
