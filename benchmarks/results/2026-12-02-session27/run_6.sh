# Session 27 run 6: positions per thread (u) in ct1d_depthwise across strides, float32:
# _DEPTHWISE_MAX_U 4 (shipped) against 3 and 2, on S = 2, 3 (sweep), 4, 6, 7, 8 (aligned
# and unaligned rows), 12, and float64 S = 4, to see which calls gain from u = 3 (run 5:
# S = 8 and float64 S = 4 gained 3-5%, S = 7 lost 4%).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
t0=$SECONDS
V=(--variant u3=dispatch._DEPTHWISE_MAX_U:3 --variant u2=dispatch._DEPTHWISE_MAX_U:2)
CALLS=(--call dw-s4=8,64,64,8,16384,4,2,1,64 --call dw-s6=8,64,64,12,16384,6,3,1,64
       --call dw-s7=8,64,64,14,16384,7,3,1,64 --call dw-s8-odd=8,64,64,16,16385,8,3,1,64
       --call dw-s12=8,64,64,24,16384,12,6,1,64)
(cd benchmarks && timeout 150 python3 ab_variant.py ct1d_depthwise dw-512-k6-s3 dw-256-k4-s2 dw-64-k16-s8 dw-128-k3-s2d2 \
  --rounds 5 "${CALLS[@]}" "${V[@]}" > "$OUT/ab_dw_float32.txt" 2>&1)
echo "f32 rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z].*torch|median" "$OUT/ab_dw_float32.txt"
(cd benchmarks && timeout 80 python3 ab_variant.py ct1d_depthwise none --rounds 5 --dtype float64 \
  --call dw-s4=8,64,64,8,16384,4,2,1,64 --call dw-s2=8,64,64,4,32768,2,1,1,64 "${V[@]}" > "$OUT/ab_dw_float64.txt" 2>&1)
echo "f64 rc=$? at $((SECONDS - t0)) s"; grep -E "^[a-z].*torch|median" "$OUT/ab_dw_float64.txt"
# Outcome (medians of 5, ms, u = 4 / 3 / 2), float32: S = 3 0.078 / 0.079 / 0.083; S = 2
# 0.119 / 0.120 / 0.131; dw-64-k16-s8 0.102 / 0.099 / 0.104; S = 2 D = 2 0.128 / 0.129 /
# 0.135; S = 4 0.061 / 0.058 / 0.058; S = 6 0.071 / 0.073 / 0.073; S = 7 0.080 / 0.084 /
# 0.084; S = 8 with rows 8 bytes off 16 0.094 / 0.094 / 0.097; S = 12 0.128 / 0.129 / 0.126.
# float64: S = 4 0.099 / 0.096 / 0.102; S = 2 0.117 / 0.114 / 0.115. No rule in stride,
# segment size or registers separates the gains (S = 4, aligned S = 8, float64) from the
# losses (S = 6, 7) or the ties (unaligned S = 8): u = 4 stays for every call.
