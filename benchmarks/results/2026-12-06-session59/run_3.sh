#!/usr/bin/env bash
# Session 59 run 3 (any sm_90 card): the wave-aware split rule (gemm_split with the
# device's cluster slots) out of sample, on draws 8 and 9 (every size 1-8, so the fastest
# per call is known too), then the GPU tests of the slots and the split.
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
timeout 200 python3 -m pytest -m gpu -n 8 -q -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "cluster_slots or gemm_split or gemm_family" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -3 "$OUT/tests.log"
tar -C "$OUT" -czf "$OUT/split.tgz" split && rm -rf "$OUT/split"
