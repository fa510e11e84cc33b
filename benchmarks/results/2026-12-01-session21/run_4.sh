# Session 21 run 4: run 2's pair ablations put the remaining time in x's reads mixed into
# the stores (bf16 seed: the store skeleton 0.150 ms, x's 134 MB add 0.069, twice their
# share at the mixed-traffic floor). Variant pf: each warpgroup tile also bulk-prefetches
# into L2 the x window of the tile after the next (CT1D_MMA_X_PREFETCH, off in this tree),
# so that the register loads one tile ahead hit L2. A/B in one process (outputs checked
# against torch in float64 for each variant).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
cd benchmarks
V="--variant pf=CT1D_MMA_X_PREFETCH:1"
timeout 120 python3 ab_variant.py auto seed hifigan-u4-b16 up-64-64-s3 sd-s2d2k3-c64 sd-s2d2k3-c16 up-32-16-s2 \
  g4-128-k4-s2 sd-s3d2k5 --rounds 5 $V > "$OUT/ab_prefetch_f32.txt" 2>&1
echo "ab f32 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_prefetch_f32.txt"
timeout 80 python3 ab_variant.py auto seed up-64-64-s3 sd-s2d1k7 up-32-16-s2 --dtype bfloat16 --rounds 7 $V > "$OUT/ab_prefetch_bf16.txt" 2>&1
echo "ab bf16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_prefetch_bf16.txt"
timeout 40 python3 ab_variant.py auto seed --dtype float16 --rounds 7 $V > "$OUT/ab_prefetch_f16.txt" 2>&1
echo "ab f16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_prefetch_f16.txt"
