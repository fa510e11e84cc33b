# Session 22 run 7: the L2 prefetch with the evict-last policy (CT1D_MMA_X_PREFETCH_KEEP:
# keep), so that prefetched x lines outlast the output's evict-first lines (run 6: 3-4
# tiles ahead lost, as if early prefetches were evicted before use); keep3 = that, 3
# tiles ahead; allkeep = on every warpgroup tile with the policy (the float32 seed).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
cd benchmarks
V="--variant keep=CT1D_MMA_X_PREFETCH_KEEP:1 --variant keep3=CT1D_MMA_X_PREFETCH_KEEP:1,CT1D_MMA_X_PREFETCH_AHEAD:3"
timeout 100 python3 ab_variant.py auto seed --dtype bfloat16 --rounds 9 $V > "$OUT/ab_bf16.txt" 2>&1
echo "ab bf16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_bf16.txt"
timeout 80 python3 ab_variant.py auto seed --dtype float16 --rounds 7 $V > "$OUT/ab_f16.txt" 2>&1
echo "ab f16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_f16.txt"
timeout 150 python3 ab_variant.py auto seed up-32-16-s2 encodec-s2 g4-128-k4-s2 hifigan-u4-b16 --rounds 5 $V \
  --variant allkeep=CT1D_MMA_X_PREFETCH:2,CT1D_MMA_X_PREFETCH_KEEP:1 > "$OUT/ab_f32.txt" 2>&1
echo "ab f32 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_f32.txt"
