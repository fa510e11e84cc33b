#!/usr/bin/env bash
# Session 58 run 2: ct1d_gemm_split (sm_90 clusters sharing each tile's reduction) on the GPU:
# its forced random-call test and the gemm family's random calls (which now split where
# few tiles), then every cluster size on seed 3's ct1d_gemm calls of few tiles.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
PYTHONPATH=$PWD CUPYCONV_REPORT_DIR=$OUT/stats timeout 200 python3 -m pytest -m gpu -n 16 -q -rs -W ignore \
  tests/test_gpu.py -p no:cacheprovider -k "gemm_split or gemm_family" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 5 "$OUT/tests.log" | cut -c1-600
python3 benchmarks/merge_gpu_stats.py "$OUT/stats"
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
timeout 330 python3 split_scan.py --n 1000 --seed 3 --json "$OUT/split_scan_s3.json" \
  > "$OUT/split_scan_s3.txt" 2>&1
echo "split scan rc $?"; tail -n 3 "$OUT/split_scan_s3.txt"
