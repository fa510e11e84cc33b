#!/usr/bin/env bash
# Session 65 run 12 (any sm_90 card, ~2 min): ct1d_narrow with each thread's U positions
# contiguous (CT1D_NARROW_CONTIG 1: they share their taps' x columns, U + SPAN - 1 loads
# per input channel instead of U*SPAN) against the shipped kernel, forced ct1d_narrow on
# run 2's 38 calls (narrow_calls_in.txt; `out` for the other 43), 3 rounds; `tests` runs
# the narrow family's GPU tests with it on (the default flipped in this copy of the tree).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session65; set=${1:-in}
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
if [[ $set == tests ]]; then
  sed -i 's/^#define CT1D_NARROW_CONTIG 0$/#define CT1D_NARROW_CONTIG 1/' kernels/ct1d_narrow.cu
  grep -q "^#define CT1D_NARROW_CONTIG 1$" kernels/ct1d_narrow.cu || { echo "flip failed"; exit 1; }
  timeout 200 python3 -m pytest -m gpu -q -rs -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
    -k "narrow_family or small_wide or mma_partial" > "$OUT/tests_contig.log" 2>&1
  echo "tests rc $?"; tail -n 3 "$OUT/tests_contig.log" | cut -c1-300
  sed -i 's/^#define CT1D_NARROW_CONTIG 1$/#define CT1D_NARROW_CONTIG 0/' kernels/ct1d_narrow.cu; exit 0
fi
calls=(); while read -r s; do calls+=(--call "$s"); done < $R/narrow_calls_$set.txt
timeout 200 python3 benchmarks/ab_variant.py ct1d_narrow "${calls[@]}" --rounds 3 \
  --variant contig=CT1D_NARROW_CONTIG:1 > "$OUT/ab_contig_$set.txt" 2>&1
echo "ab rc $?"; grep -c median "$OUT/ab_contig_$set.txt"
