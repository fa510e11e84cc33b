#!/usr/bin/env bash
# Session 60 run 7 (any sm_90 card): the row-use rule (WGMMA_MIN_ROW_USE 0.45, chosen on
# run 6's draws 0-2, checked on 3-5) on the calls it moves in draws 6-9
# (row_rule_names_6_9.txt: 37 float32 calls, ct1d_wgmma -> ct1d_gemm), which played no part
# in choosing it: the API (default plan, now ct1d_gemm), and both families forced (prepared
# launches), beside torch; every output checked against float64.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT/rows"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
while read -r seed names; do
  timeout 55 python3 shape_scan.py --n 1000 --seed "$seed" --names "$names" --compare-all --prepared \
    --families ct1d_wgmma,ct1d_gemm --json "$OUT/rows/s$seed.json" > "$OUT/rows/s$seed.txt" 2>&1
  echo "seed $seed rc $?"; grep "calls:" "$OUT/rows/s$seed.txt"
done < results/2026-12-06-session60/row_rule_names_6_9.txt
tar -C "$OUT" -czf "$OUT/rows.tgz" rows && rm -rf "$OUT/rows"
