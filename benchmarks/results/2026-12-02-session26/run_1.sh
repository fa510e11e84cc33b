# Session 26 run 1: (a) CUDA graph capture of calls (torch.cuda.graph with the signature
# warm and cold, CuPy stream capture): the new GPU tests; (b) the 16-bit and float32 seeds
# with more blocks per item in the item loop (waves 4: 4 rows x 66 blocks, 8: 2 x 132),
# on today's rotated, flat walk (session 14 measured them before the rotation, float32
# only), and the evict-first policy off, in one process.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
timeout 240 python3 -m pytest -q tests/test_gpu.py -k "graph_capture" -p no:cacheprovider \
  > "$OUT/gpu_tests_graph.txt" 2>&1
echo "tests rc=$?"; tail -30 "$OUT/gpu_tests_graph.txt" | grep -E "Error|error|passed|failed|assert" | head -20
cd benchmarks
timeout 330 python3 ab_variant.py auto seed-bf16 seed-fp16 seed sd-s2d2k3-c16 up-32-16-s2 --rounds 5 \
  --variant w4=waves.ct1d_mma:4 --variant w8=waves.ct1d_mma:8 \
  --variant w8norot=waves.ct1d_mma:8,CT1D_MMA_ROTATE:0 \
  --variant noevict=CT1D_MMA_EVICT_FIRST:0 \
  > "$OUT/ab_rows.txt" 2>&1
echo "ab rc=$?"; grep -E "^[a-z].*torch|median" "$OUT/ab_rows.txt"
