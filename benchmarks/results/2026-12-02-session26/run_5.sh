# Session 26 run 5: (a) the small-call rule with 16-channel tiles (SMALL_CALL_CHANNELS):
# GPU time of the new plans among the candidates (small_calls.py) and the small calls in
# CUDA graphs (graph_replay.py); (b) warpgroup chunks past the row's end left out
# (CT1D_MMA_SKIP_DEAD, shipped on) against all chunks computed, on the calls whose last
# tile is mostly empty, in one process.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
(cd benchmarks && timeout 150 python3 small_calls.py > "$OUT/small_calls.txt" 2>&1)
echo "small rc=$?"; grep -E "^\S|\*" "$OUT/small_calls.txt"
timeout 100 python3 benchmarks/graph_replay.py > "$OUT/graph_replay.txt" 2>&1
echo "graph rc=$?"; cat "$OUT/graph_replay.txt"
cd benchmarks
timeout 300 python3 ab_variant.py auto g16-512-k16-s8 sd-s5d1k11 g8-256-k8-s4 up-32-32-s4 \
  hifigan-u4-b16 sd-s4d3k5 seed seed-bf16 --rounds 5 \
  --variant all=CT1D_MMA_SKIP_DEAD:0 > "$OUT/ab_skip_dead.txt" 2>&1
echo "ab rc=$?"; grep -E "^[a-z].*torch|median" "$OUT/ab_skip_dead.txt"
