# Session 21 run 5: run 4's L2 prefetch of x (CT1D_MMA_X_PREFETCH) on the warpgroup
# calls run 4 did not cover (float32; the seed again as the reference), and bf16 on two
# more, so that a rule (run 4: faster on float32 tap-group tiles and the 16-bit seed,
# slower on the float32 seed and on ungrouped transposed tiles) can be judged on all.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
cd benchmarks
V="--variant pf=CT1D_MMA_X_PREFETCH:1"
timeout 130 python3 ab_variant.py auto seed up-32-32-s4 encodec-s2 g8-256-k8-s4 g16-512-k16-s8 hifigan-u4-b4-long \
  sd-s1d4k3 sd-s4d3k5 sd-s5d1k11 sd-s2d4k4 sd-s2d1k7 seed-bias --rounds 5 $V > "$OUT/ab_prefetch_f32_rest.txt" 2>&1
echo "ab f32 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_prefetch_f32_rest.txt"
timeout 50 python3 ab_variant.py auto seed g4-128-k4-s2 hifigan-u4-b16 --dtype bfloat16 --rounds 5 $V > "$OUT/ab_prefetch_bf16_rest.txt" 2>&1
echo "ab bf16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_prefetch_bf16_rest.txt"
