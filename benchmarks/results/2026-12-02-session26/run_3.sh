# Session 26 run 3: the small calls inside CUDA graphs (benchmarks/graph_replay.py):
# time per call on graph replay, cupyconv's public API against torch, and eager wall time.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
timeout 200 python3 benchmarks/graph_replay.py > "$OUT/graph_replay.txt" 2>&1
echo "rc=$?"; cat "$OUT/graph_replay.txt"
