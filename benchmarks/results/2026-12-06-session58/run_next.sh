#!/usr/bin/env bash
# For the next session with device time (any sm_90 card; about 3 min):
#  - ct1d_gemm_split as shipped (the rule and one block per SM) on two fresh draws (6, 7),
#    which played no part in choosing either: against no split, a few other cluster sizes,
#    and the split compiled at the unsplit key's register cap (--two-blocks); on an H200
#    too if one comes (the rule was measured on H100s only; both have 132 SMs).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
for seed in 6 7; do
  timeout 150 python3 split_scan.py --n 1000 --seed $seed --splits 1,2,4,8 --two-blocks \
    --json "$OUT/split_scan_s$seed.json" > "$OUT/split_scan_s$seed.txt" 2>&1
  echo "seed $seed rc $?"; tail -n 3 "$OUT/split_scan_s$seed.txt"
done
