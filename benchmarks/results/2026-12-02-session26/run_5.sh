# Session 26 run 5: the small-call rule with 16-channel tiles (SMALL_CALL_CHANNELS):
# GPU time of the new plans among the candidates (small_calls.py), the small calls in
# CUDA graphs (graph_replay.py), then the full GPU test suite.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
(cd benchmarks && timeout 150 python3 small_calls.py > "$OUT/small_calls.txt" 2>&1)
echo "small rc=$?"; grep -E "^\S|\*" "$OUT/small_calls.txt"
timeout 100 python3 benchmarks/graph_replay.py > "$OUT/graph_replay.txt" 2>&1
echo "graph rc=$?"; cat "$OUT/graph_replay.txt"
OUT=$OUT/tests timeout 330 bash benchmarks/device_run.sh tests > /dev/null 2>&1
echo "tests rc=$?"; tail -4 "$OUT/tests/gpu_tests.log"
