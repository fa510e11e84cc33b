#!/usr/bin/env bash
# Session 57 run 4: the new rules (WGMMA_ANY_MIN_ROW_USE, GEMM_CK8 behind the partial
# route) on the GPU: their tests (wgmma, partial route, ck8 rings), the 160-call scan
# (seed 0) as in session 56's run 8, then out of sample for WGMMA_ANY_MIN_ROW_USE: a third
# draw's (seed 2) ct1d_gemm calls (selected with the rule off) against forced ct1d_wgmma.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
PYTHONPATH=$PWD CUPYCONV_REPORT_DIR=$OUT/stats timeout 150 python3 -m pytest -m gpu -n 16 -q -rs -W ignore \
  tests/test_gpu.py -p no:cacheprovider -k "wgmma or mma_partial or gemm_ck8" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 4 "$OUT/tests.log" | cut -c1-400
python3 benchmarks/merge_gpu_stats.py "$OUT/stats"
(cd benchmarks && PYTHONPATH=$PWD/..:$PWD timeout 90 python3 shape_scan.py --no-compare \
  --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1)
echo "scan rc $?"; grep -E "calls:" "$OUT/scan.txt"
(cd benchmarks && PYTHONPATH=$PWD/..:$PWD timeout 230 python3 shape_scan.py --n 1000 --seed 2 \
  --select ct1d_gemm --compare-all --families ct1d_gemm,ct1d_wgmma \
  --variant old=dispatch.WGMMA_ANY_MIN_ROW_USE:2.0 --json "$OUT/gemm_scan_s2.json" > "$OUT/gemm_scan_s2.txt" 2>&1)
echo "gemm scan s2 rc $?"; grep -E "calls:" "$OUT/gemm_scan_s2.txt"
