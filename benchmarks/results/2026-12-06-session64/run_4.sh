#!/usr/bin/env bash
# Session 64, run 4 (any sm_90 card, ~4 min): the dispatch rule WGMMA_ONE_A_MIN_BLOCKS
# (3xFP16 instances of >= 7 offsets take calls of >= 48 blocks with full rows from
# ct1d_gemm / ct1d_mma), on every float32 call of shape_scan draws 0-11 whose plan it
# changes (one_a_rule_names.txt; draws 0-3 chose it, 4-11 are out of sample): the default
# plan through the API next to the families it took the call from, prepared launches.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
mkdir -p "$OUT/rule"   # (one archive back: a device command returns at most 8 files)
while read -r seed names; do
  (cd benchmarks && timeout 60 python3 shape_scan.py --n 1000 --seed "$seed" --names "$names" --compare-all \
     --prepared --families ct1d_gemm,ct1d_wgmma,ct1d_mma --json "$OUT/rule/s$seed.json" > "$OUT/rule/s$seed.log" 2>&1)
  echo "seed $seed rc $?"
done < benchmarks/results/2026-12-06-session64/one_a_rule_names.txt
tar -C "$OUT" -czf "$OUT/rule.tgz" rule && rm -rf "$OUT/rule"
