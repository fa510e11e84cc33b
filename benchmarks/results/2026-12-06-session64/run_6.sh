#!/usr/bin/env bash
# Session 64, run 6 (any sm_90 card, ~2 min): would the ONE_A dispatch rule pay for the
# 3xFP16 instances of 4-6 column offsets too (two A sets, no spills there)? The float32
# calls of draws 6-11 (out of sample) whose plan `dispatch.WGMMA_ONE_A_NC` 4 would change
# (few_offsets_rule_names_6_11.txt): the shipped default plan next to every family forced.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT/few"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
while read -r seed names; do
  (cd benchmarks && timeout 50 python3 shape_scan.py --n 1000 --seed "$seed" --names "$names" --compare-all \
     --prepared --families ct1d_gemm,ct1d_wgmma,ct1d_mma --json "$OUT/few/s$seed.json" > "$OUT/few/s$seed.log" 2>&1)
  echo "seed $seed rc $?"
done < benchmarks/results/2026-12-06-session64/few_offsets_rule_names_6_11.txt
tar -C "$OUT" -czf "$OUT/few.tgz" few && rm -rf "$OUT/few"
