# Session 26 run 5: (a) warpgroup chunks past the row's end left out (CT1D_MMA_SKIP_DEAD,
# shipped on) against all chunks computed, on calls whose last tile is mostly empty, in
# one process; (b) the small-call rule with 16-channel tiles (SMALL_CALL_CHANNELS): GPU time
# of the new plans among the candidates (small_calls.py) and the small calls in CUDA graphs
# (graph_replay.py); (c) the GPU tests of ct1d_mma's tiles, random calls and edge cases.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
t0=$SECONDS
(cd benchmarks && timeout 200 python3 ab_variant.py auto g16-512-k16-s8 sd-s5d1k11 g8-256-k8-s4 \
  up-32-32-s4 hifigan-u4-b16 seed-bf16 --rounds 5 \
  --variant all=CT1D_MMA_SKIP_DEAD:0 > "$OUT/ab_skip_dead.txt" 2>&1)
echo "ab rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z].*torch|median" "$OUT/ab_skip_dead.txt"
(cd benchmarks && timeout 100 python3 small_calls.py > "$OUT/small_calls.txt" 2>&1)
echo "small rc=$? at $((SECONDS - t0)) s"; grep -E "^\S|\*" "$OUT/small_calls.txt"
timeout 60 python3 benchmarks/graph_replay.py > "$OUT/graph_replay.txt" 2>&1
echo "graph rc=$? at $((SECONDS - t0)) s"; cat "$OUT/graph_replay.txt"
par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 16)
timeout 220 python3 -m pytest -q "${par[@]}" -p no:cacheprovider tests/test_gpu.py \
  -k "mma or random_configurations or edge_cases or graph or repeat or public_api" > "$OUT/gpu_tests.txt" 2>&1
echo "tests rc=$? at $((SECONDS - t0)) s"; tail -3 "$OUT/gpu_tests.txt"; grep -E "FAILED|ERROR" "$OUT/gpu_tests.txt" | head
