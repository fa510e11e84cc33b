#!/usr/bin/env bash
# Session 59 run 6 (any sm_90 card): the small wide-reduction calls that _prefers_narrow_small
# sends to ct1d_narrow (N x L <= 1024, >= 512 input and 9-64 output channels per group; a
# rule from session 55, before ct1d_gemm could split its reductions) against ct1d_gemm
# (which now splits them over clusters) and ct1d_wgmma, forced, prepared launches;
# draws 0-7 (narrow_small_names.txt: seed, names).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT/narrow"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
while read -r seed names; do
  timeout 70 python3 shape_scan.py --n 1000 --seed "$seed" --names "$names" --compare-all --prepared \
    --families ct1d_narrow,ct1d_gemm,ct1d_wgmma --json "$OUT/narrow/s$seed.json" > "$OUT/narrow/s$seed.txt" 2>&1
  echo "seed $seed rc $?"; grep "calls:" "$OUT/narrow/s$seed.txt"
done < results/2026-12-06-session59/narrow_small_names.txt
tar -C "$OUT" -czf "$OUT/narrow.tgz" narrow && rm -rf "$OUT/narrow"
