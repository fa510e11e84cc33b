# Session 20 run 2: the tail-aware tile step (_gpu.mma_tile_step, kernel argument
# tile_step). First the GPU tests that exercise it (forced random steps, overlapping
# tiles, item loop, warpgroup random calls), then in-process A/Bs of the rule: shipped
# (MMA_TAIL_TILE_COST 0.1), off, cost 0 and 0.3, and session 19's kernel (no tile_step
# argument; build/ct1d_mma_v19.cu, carried) with the rule off, in float32 and bfloat16.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1 CUPYCONV_REPORT_DIR=/tmp/rep
mkdir -p /tmp/rep
timeout 200 python3 -m pytest -q -n 16 -p no:cacheprovider -W ignore tests/test_gpu.py \
  -k "tile_steps or overlapping_tiles or item_loop or warpgroup_random or staged_and_strided" \
  > "$OUT/gpu_tests_tile_step.txt" 2>&1
echo "tests rc=$?"; tail -1 "$OUT/gpu_tests_tile_step.txt"; grep -E "FAILED|ERROR" "$OUT/gpu_tests_tile_step.txt" | head
cd benchmarks
V="--variant off=dispatch.MMA_TAIL_STEP:False --variant c0=dispatch.MMA_TAIL_TILE_COST:0 --variant c03=dispatch.MMA_TAIL_TILE_COST:0.3 --variant v19=source:$PWD/../build/ct1d_mma_v19.cu,dispatch.MMA_TAIL_STEP:False"
timeout 190 python3 ab_variant.py auto seed hifigan-u4-b16 sd-s1d4k3 sd-s2d4k4 sd-s5d1k11 g8-256-k8-s4 \
  g16-512-k16-s8 encodec-s2 g4-128-k4-s2 sd-s2d1k7 --rounds 3 $V > "$OUT/ab_tail_step_f32.txt" 2>&1
echo "ab f32 rc=$?"; grep -E "^\S|median" "$OUT/ab_tail_step_f32.txt"
timeout 150 python3 ab_variant.py auto seed g16-512-k16-s8 g8-256-k8-s4 sd-s5d1k11 sd-s2d1k7 up-32-16-s2 \
  g4-128-k4-s2 --dtype bfloat16 --rounds 3 $V > "$OUT/ab_tail_step_bf16.txt" 2>&1
echo "ab bf16 rc=$?"; grep -E "^\S|median" "$OUT/ab_tail_step_bf16.txt"
