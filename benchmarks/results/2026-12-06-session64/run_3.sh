#!/usr/bin/env bash
# Session 64, run 3 (any sm_90 card, ~6 min): with CT1D_WGMMA_F3_ONE_A at 7 (the new
# default), (1) the GPU tests that name wgmma; (2) the float32 calls of shape_scan draws 0-3
# (1000 each) with >= 7 column offsets that ct1d_wgmma's 3xFP16 instances cover but the
# dispatcher gives ct1d_gemm, ct1d_mma or ct1d_pipe (one_a_other_family_names.txt): every
# family timed on each (prepared launches), to see whether ONE_A moved the best family.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
grep -c "define CT1D_WGMMA_F3_ONE_A 7$" kernels/ct1d_wgmma.cu
timeout 150 python3 -m pytest -m gpu -q -rs -W ignore tests/ -p no:cacheprovider -n 16 -k wgmma \
  > "$OUT/tests_wgmma.log" 2>&1
echo "tests rc $?"; tail -n 1 "$OUT/tests_wgmma.log" | cut -c1-300
while read -r seed names; do
  (cd benchmarks && timeout 100 python3 shape_scan.py --n 1000 --seed "$seed" --names "$names" --compare-all \
     --prepared --families ct1d_gemm,ct1d_wgmma,ct1d_mma,ct1d_pipe --json "$OUT/scan_s$seed.json" \
     > "$OUT/scan_s$seed.txt" 2>&1)
  echo "scan seed $seed rc $?"
done < benchmarks/results/2026-12-06-session64/one_a_other_family_names.txt
