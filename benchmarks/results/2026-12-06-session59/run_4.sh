#!/usr/bin/env bash
# Session 59 run 4 (any sm_90 card): run 3 again without its tests (they passed there),
# after the fix of split_scan.py (it read the removed GEMM_SPLIT_SMS): the wave-aware
# split rule out of sample, on draws 8 and 9 (every size 1-8, so the fastest per call is
# known too).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT/split"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
(cd benchmarks
for seed in 8 9; do
  timeout 200 python3 split_scan.py --n 1000 --seed $seed --splits 1,2,3,4,5,6,7,8 \
    --json "$OUT/split/split_scan_s$seed.json" > "$OUT/split/split_scan_s$seed.txt" 2>&1
  echo "seed $seed rc $?"; head -1 "$OUT/split/split_scan_s$seed.txt"; tail -n 2 "$OUT/split/split_scan_s$seed.txt"
done)
tar -C "$OUT" -czf "$OUT/split.tgz" split && rm -rf "$OUT/split"
