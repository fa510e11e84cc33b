#!/usr/bin/env bash
# For the next session with device time (any sm_90 card; about 5 min):
#  - small N = 1 calls with wide reductions on ct1d_narrow (scan r152 1024 -> 24 K20 S10:
#    0.093 ms against torch's 0.051; r029 768 -> 24 K10 S5 0.045 vs 0.039), under the
#    narrow tile rule of fewer, longer blocks (NARROW_WAVES off, 16 or 32 blocks at least:
#    r152 27 / 51 blocks with 2 / 4 channel groups instead of 99 with 8; r029 u = 2);
#  - a fourth draw's ct1d_gemm calls against forced ct1d_wgmma (seed 3), for a rule at
#    128-255 blocks: session 57's three draws had ct1d_wgmma 1.1-1.9x faster on most such
#    calls but 0.52-0.79x on N = 1 calls of 144 blocks (and small-512-256-s8, 128 blocks,
#    0.72x); benchmarks/NOTES.md "Session 57 findings".
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
timeout 100 python3 ab_variant.py auto --call r152=1,1024,24,20,1024,10,7,1 \
  --call r029=1,768,24,10,1024,5,0,1 \
  --variant mb16=dispatch.NARROW_WAVES:False,dispatch.NARROW_MIN_BLOCKS:16 \
  --variant mb32=dispatch.NARROW_WAVES:False,dispatch.NARROW_MIN_BLOCKS:32 \
  > "$OUT/ab_narrow_small.txt" 2>&1
echo "narrow rc $?"; grep -E "^[a-z0-9]+ \(|median|largest" "$OUT/ab_narrow_small.txt" | cut -c1-160
timeout 220 python3 shape_scan.py --n 1000 --seed 3 --select ct1d_gemm --compare-all \
  --families ct1d_gemm,ct1d_wgmma --variant old=dispatch.WGMMA_ANY_MIN_ROW_USE:2.0 \
  --json "$OUT/gemm_scan_s3.json" > "$OUT/gemm_scan_s3.txt" 2>&1
echo "gemm scan rc $?"; grep -E "calls:" "$OUT/gemm_scan_s3.txt"
