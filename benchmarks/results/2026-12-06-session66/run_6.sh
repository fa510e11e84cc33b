#!/usr/bin/env bash
# Session 66 run 6 (any sm_90 card, <= 6 min): the shipped 16-bit narrow-output rule
# (NARROW_DTYPES with bfloat16 and float16, NARROW_16BIT_MMA_MAX_CIG 64) against the one
# before (float32 only), out of sample: the 70 calls of draws 8-11 whose plan differs
# (narrow16_calls.py --final), the dispatcher's choice, 3 rounds, in bfloat16; the GPU
# tests of the narrow family (all dtypes), the dispatcher's random calls (every family
# and dtype) and the small wide-reduction test; then the A/B in float16.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session66
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
calls=(); while read -r s; do calls+=(--call "$s"); done < $R/narrow16_calls_8_11.txt
ab() {
  timeout ${AB_TIMEOUT:-110} python3 benchmarks/ab_variant.py auto "${calls[@]}" --dtype $1 --rounds 3 \
    --variant "old=dispatch.NARROW_DTYPES:('float32',)" > "$OUT/ab_narrow16_8_11_$1.txt" 2>&1
  echo "ab $1 rc $?"; grep -c median "$OUT/ab_narrow16_8_11_$1.txt"
}
ab bfloat16
timeout ${TESTS_TIMEOUT:-150} python3 -m pytest -m gpu -q -rs -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "narrow_family or random_configurations or small_wide" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 3 "$OUT/tests.log" | cut -c1-300
ab float16
