# Session 27 run 3: ct1d_depthwise launch bounds again, against the shipped kernel (no
# bound: 44-45 registers for the sweep's S = 2-3 instances, 70-72 at S = 8, i.e. 7 blocks of
# 128 threads per SM there). mb8: 64 registers everywhere; mb10: 47-48 (float32, no spill;
# bf16 S = 8 spills 132 B). Also 64- and 256-thread blocks.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
t0=$SECONDS
V=(--variant mb8=CT1D_DW_MIN_BLOCKS:8 --variant mb10=CT1D_DW_MIN_BLOCKS:10
   --variant t64=dispatch._DEPTHWISE_THREADS:64 --variant t256=dispatch._DEPTHWISE_THREADS:256)
C=(dw-512-k6-s3 dw-256-k4-s2 dw-64-k16-s8 dw-128-k3-s2d2)
(cd benchmarks && timeout 200 python3 ab_variant.py ct1d_depthwise "${C[@]}" --rounds 7 "${V[@]}" \
  > "$OUT/ab_dw_f32.txt" 2>&1)
echo "f32 rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z].*torch|median" "$OUT/ab_dw_f32.txt"
(cd benchmarks && timeout 150 python3 ab_variant.py ct1d_depthwise dw-64-k16-s8 dw-256-k4-s2 --rounds 7 --dtype bfloat16 "${V[@]}" \
  > "$OUT/ab_dw_bf16.txt" 2>&1)
echo "bf16 rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z].*torch|median" "$OUT/ab_dw_bf16.txt"
# Outcome: the shipped kernel is best or equal everywhere (medians of 7, ms, f32):
# dw-512-k6-s3 0.082 (mb8 0.085, mb10 0.082, t64 0.083, t256 0.094); dw-256-k4-s2 0.119
# (0.125 / 0.120 / 0.120 / 0.122); dw-64-k16-s8 0.097 (0.097 / 0.098 / 0.115 / 0.099);
# dw-128-k3-s2d2 0.124 (0.126 / 0.124 / 0.125 / 0.126); bf16 dw-256-k4-s2 0.078 (0.094 /
# 0.089 / 0.080 / 0.086), dw-64-k16-s8 0.059 (0.060 / 0.066 / 0.063 / 0.065).
