# Session 21 run 2: where the bf16 seed's time goes, stage by stage and in pairs (the
# copy warp of run 1 showed the copy-issue stalls are not what holds it), and three cheap
# options in one process each: 16-bit warpgroup tiles of 128 positions (MMA_WG16_WIDE off)
# at two or at three blocks per SM (CT1D_MMA_WG16_MINB 3: 80 registers, no spills), and
# the bulk copies without the evict-first L2 policy.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
cd benchmarks
A=no_epi,no_wgcommit,no_xload,no_store,no_wgmma,no_store+no_xload,no_store+no_epi,no_xload+no_epi,no_wait
timeout 150 python3 ablate_calls.py seed --dtype bfloat16 --variants $A --rounds 3 > "$OUT/ablate_bf16.txt" 2>&1
echo "ablate bf16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ablate_bf16.txt"
timeout 120 python3 ablate_calls.py seed --variants $A --rounds 3 > "$OUT/ablate_f32.txt" 2>&1
echo "ablate f32 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ablate_f32.txt"
V="--variant w128=dispatch.MMA_WG16_WIDE:False --variant w128b3=dispatch.MMA_WG16_WIDE:False,CT1D_MMA_WG16_MINB:3 --variant noevict=CT1D_MMA_EVICT_FIRST:0"
timeout 90 python3 ab_variant.py auto seed sd-s2d2k3-c16 up-32-16-s2 --dtype bfloat16 --rounds 5 $V > "$OUT/ab_bf16.txt" 2>&1
echo "ab bf16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_bf16.txt"
timeout 60 python3 ab_variant.py auto seed --dtype float16 --rounds 5 $V > "$OUT/ab_f16.txt" 2>&1
echo "ab f16 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_f16.txt"
timeout 60 python3 ab_variant.py auto seed sd-s2d2k3-c16 --rounds 5 --variant noevict=CT1D_MMA_EVICT_FIRST:0 > "$OUT/ab_f32.txt" 2>&1
echo "ab f32 rc=$? at $((SECONDS - t0)) s"; grep -E "median" "$OUT/ab_f32.txt"
