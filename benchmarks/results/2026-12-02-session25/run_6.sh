# Session 25 run 6: two cheap rule checks. (1) 16-channel transposed tiles for the
# staged-channel calls whose 32-channel tiles spill at 128 registers (sd-s2d1k7 148 bytes,
# sd-s2d4k4 32, sd-s2d2k3-c64 20): dispatch.MMA_WG_CI64_CHANNELS 16 (more channel tiles,
# each reading x). (2) the 16-bit seed on 128-position tiles again (MMA_WG16_WIDE off:
# 64.1 rounds of tiles, a last round 12% full, against 32.06 rounds, 6%; session 12
# measured it slower before the L2 prefetch).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
cd benchmarks
timeout 200 python3 ab_variant.py auto sd-s2d1k7 sd-s2d4k4 sd-s2d2k3-c64 --rounds 5 \
  --variant c16=dispatch.MMA_WG_CI64_CHANNELS:16 > "$OUT/ab_c16.txt" 2>&1
echo "ab rc=$?"; grep -E "^[a-z].*torch|median" "$OUT/ab_c16.txt"
timeout 150 python3 ab_variant.py auto seed-bf16 seed-fp16 --rounds 7 \
  --variant narrow=dispatch.MMA_WG16_WIDE:False > "$OUT/ab_wg16_narrow.txt" 2>&1
echo "ab16 rc=$?"; grep -E "^[a-z].*torch|median" "$OUT/ab_wg16_narrow.txt"
