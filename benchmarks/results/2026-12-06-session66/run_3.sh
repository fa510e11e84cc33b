#!/usr/bin/env bash
# Session 66 run 3 (any sm_90 card, <= 8 min): the 16-bit narrow-output calls on the
# float32 route (run 2: in bfloat16 ct1d_wgmma / ct1d_narrow beat the shipped ct1d_mma /
# ct1d_depthwise on 12 of 15 narrow-output calls). A/B in bfloat16, the dispatcher's
# choice (ab_variant.py auto), 3 rounds, on the calls of shape_scan's draws whose plan
# moves (narrow16_calls.py): `in` draws 0-3 (85 calls), `out` draws 4-7 (83).
#   n16    dispatch.NARROW_DTYPES (float32, bfloat16, float16): the float32 rule
#   n16w32 the same, and ct1d_wgmma first from 32 multiply-adds per output (not 128)
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session66; set=${1:-in}
[[ $set == in ]] && f=$R/narrow16_calls_0_3.txt || f=$R/narrow16_calls_4_7.txt
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
calls=(); while read -r s; do calls+=(--call "$s"); done < $f
D="('float32','bfloat16','float16')"
timeout ${AB_TIMEOUT:-420} python3 benchmarks/ab_variant.py auto "${calls[@]}" --dtype bfloat16 --rounds 3 \
  --variant "n16=dispatch.NARROW_DTYPES:$D" \
  --variant "n16w32=dispatch.NARROW_DTYPES:$D,dispatch.NARROW_WGMMA_MIN_MACS:32" \
  > "$OUT/ab_narrow16_$set.txt" 2>&1
echo "ab rc $?"; grep -c median "$OUT/ab_narrow16_$set.txt"; tail -n 4 "$OUT/ab_narrow16_$set.txt"
