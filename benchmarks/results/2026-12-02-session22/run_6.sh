# Session 22 run 6: how far ahead the L2 prefetch should reach (CT1D_MMA_X_PREFETCH_AHEAD:
# shipped 2 = the tile after the next; a3, a4), and the prefetch on every warpgroup tile
# 3 ahead (all3) for the float32 calls the rule leaves out. A/B in one process.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
cd benchmarks
V="--variant a3=CT1D_MMA_X_PREFETCH_AHEAD:3 --variant a4=CT1D_MMA_X_PREFETCH_AHEAD:4"
V2="$V --variant all3=CT1D_MMA_X_PREFETCH:2,CT1D_MMA_X_PREFETCH_AHEAD:3"
timeout 100 python3 ab_variant.py auto seed --dtype bfloat16 --rounds 9 $V > "$OUT/ab_bf16.txt" 2>&1
echo "ab bf16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_bf16.txt"
timeout 80 python3 ab_variant.py auto seed --dtype float16 --rounds 7 $V > "$OUT/ab_f16.txt" 2>&1
echo "ab f16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_f16.txt"
timeout 150 python3 ab_variant.py auto seed up-32-16-s2 encodec-s2 g4-128-k4-s2 hifigan-u4-b16 sd-s2d2k3-c16 \
  sd-s3d2k5 up-64-64-s3 --rounds 5 $V2 > "$OUT/ab_f32.txt" 2>&1
echo "ab f32 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_f32.txt"
