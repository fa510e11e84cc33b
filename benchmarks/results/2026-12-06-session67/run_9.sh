#!/usr/bin/env bash
# Session 67 run 9: CT1D_NARROW_CONTIG 0 against the shipped kernel on stride-1 dilated calls
# (run 8: r024, S=1 D=3, 1.22x slower with the contiguous layout) and 1-output calls, 3 rounds.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
timeout ${AB_S:-200} python3 benchmarks/ab_variant.py ct1d_narrow --rounds 3 --variant contig0=CT1D_NARROW_CONTIG:0 \
  --call s1d2k5c1=16,128,16,5,8192,1,2,2,16 --call s1d3k7c2=8,256,32,7,8192,1,3,3,16 \
  --call s1d2k3c8=8,64,8,3,16384,1,1,2 --call s1d4k3c1=16,64,1,3,16384,1,2,4 \
  --call s1d1k7c4=8,256,4,7,16384,1,3,1 --call s2d3k5c1=8,128,1,5,16384,2,2,3 \
  --call s2d1k4c2=8,128,2,4,16384,2,1,1 --call s4d1k8c1=8,256,1,8,16384,4,2,1 \
  --call s3d2k6c4=8,128,4,6,16384,3,2,2 --call s2d2k16c8=8,256,8,16,4096,2,0,2 > "$OUT/ab_contig_s1.txt" 2>&1
echo "ab rc $?"; grep -E "median" "$OUT/ab_contig_s1.txt" | cut -c1-200
