# Session 27 run 5: run 4's winner (3 positions per thread at S = 8, 12 KB segments, 2 per
# block) as a rule: segments of at most 12 KB (_DEPTHWISE_SMEM, was 32 KB), which moves only
# calls with S * 4 positions * 128 threads * element bytes > 12 KB (float32 S >= 7,
# float64 S >= 4, 16-bit S >= 13). A/B on such calls besides the sweep's dw-64-k16-s8:
# float32 S = 7, 8 (batch 16), 16; float64 S = 4, 8 (16-bit calls of S <= 12 keep u = 4).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
t0=$SECONDS
V=(--variant smem12=dispatch._DEPTHWISE_SMEM:12288
   --variant smem12b48=dispatch._DEPTHWISE_SMEM:12288,dispatch.DEPTHWISE_BLOCK_BYTES:49152)
CALLS=(--call dw-s7=8,64,64,14,16384,7,3,1,64 --call dw-s8-n16=16,128,128,16,8192,8,4,1,128
       --call dw-s16=4,64,64,32,8192,16,8,1,64)
(cd benchmarks && timeout 120 python3 ab_variant.py ct1d_depthwise dw-64-k16-s8 --rounds 7 "${CALLS[@]}" "${V[@]}" \
  > "$OUT/ab_dw_float32.txt" 2>&1)
echo "f32 rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z].*torch|median" "$OUT/ab_dw_float32.txt"
(cd benchmarks && timeout 100 python3 ab_variant.py ct1d_depthwise dw-64-k16-s8 --rounds 5 --dtype float64 \
  --call dw-s4=8,64,64,8,16384,4,2,1,64 "${V[@]}" > "$OUT/ab_dw_float64.txt" 2>&1)
echo "f64 rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z].*torch|median" "$OUT/ab_dw_float64.txt"
# Outcome (medians, ms; every round agrees): float32 dw-64-k16-s8 0.100 -> 0.097 (smem12),
# dw-s8-n16 0.175 -> 0.170, dw-s16 0.054 = 0.054, but dw-s7 0.085 -> 0.088 (slower);
# float64 dw-64-k16-s8 0.177 = 0.176, dw-s4 0.105 -> 0.100. 4 segments per block (b48)
# lose everywhere. Registers (nvcc 13): S = 7 72 -> 55 and S = 8 70 -> 56 at u 4 -> 3,
# i.e. 7 -> 9 blocks per SM in both, so occupancy does not explain S = 7. Not shipped as a
# segment cap; run 6 measures u = 3 and 2 directly across strides.
