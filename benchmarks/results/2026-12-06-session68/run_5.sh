#!/usr/bin/env bash
# Session 68 run 5 (<= 3 min, the session's last device minutes): the GPU tests that cover
# ct1d_scatter's tap-mode rule (SCATTER_TAP_COLS_PASS_RATIO: most float64 calls and many
# 16/32-bit scatter calls now stage tap by tap): random calls forced onto ct1d_scatter
# (80), its edge cases, determinism, the smaller-shared-memory fallback; then, with time
# left, the rule against the all-taps staging on fresh float64 calls (dispatcher's choice).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
CUPYCONV_GPU_RANDOM_CONFIGS=80 timeout 120 python3 -m pytest -m gpu -q -n 16 -W ignore tests/test_gpu.py \
  -p no:cacheprovider -k "(random_configurations and scatter) or (edge_cases and scatter) or determinism or smaller_shared" \
  > "$OUT/tests_rule.log" 2>&1
echo "tests rc $?"; tail -n 4 "$OUT/tests_rule.log" | cut -c1-300
[[ $SECONDS -gt 130 ]] && exit 0
timeout 40 python3 benchmarks/ab_variant.py auto --dtype float64 --call a=4,16,32,5,8192,2,2,1 \
  --call b=4,64,64,3,8192,1,1,1 --call c=4,32,16,8,4096,4,2,1 --call d=4,128,64,4,4096,2,1,1 \
  --call e=4,8,8,9,16384,3,4,2 --call f=4,32,32,2,16384,2,0,1 --call g=4,64,32,16,2048,8,4,1 \
  --call h=4,24,48,6,8192,3,2,1,2 --variant alltaps=dispatch.SCATTER_TAP_COLS_PASS_RATIO:1000000000 \
  --rounds 2 > "$OUT/ab_rule_f64.txt" 2>&1
echo "ab f64 rc $?"; grep -E "^\S|median" "$OUT/ab_rule_f64.txt" | cut -c1-160
