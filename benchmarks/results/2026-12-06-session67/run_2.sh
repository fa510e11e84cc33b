#!/usr/bin/env bash
# Session 67 run 2 (the last ~5 min of device time). On an H200: the benchmark sweep alone
# (results/h200/ refresh; bench.json, bench.log, speedup.png). On any other card: the
# contiguous-positions layout off (CT1D_NARROW_CONTIG 0) against the shipped kernel on the
# scan's narrow calls that lost or barely gained in run 5 (r024 S=1 D=3 0.77x against
# session 65 run 1, the 1-output calls r140/r141/r159), forced ct1d_narrow, 3 rounds.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
if grep -q H200 "$OUT/gpu.txt"; then
  OUT=$OUT/bench timeout ${BENCH_S:-270} bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
  grep -A12 "issue 4's targets" "$OUT/bench/bench.log" | cut -c1-200
else
  timeout ${AB_S:-200} python3 benchmarks/ab_variant.py ct1d_narrow --rounds 3 --variant contig0=CT1D_NARROW_CONTIG:0 \
    --call r024=16,128,16,7,2606,1,1,3,16 --call r071=8,512,4,5,1454,1,2,1,4 \
    --call r009=1,256,16,7,55556,2,3,1,16 --call r031=4,512,8,2,22730,2,0,2,8 \
    --call r140=8,192,1,7,30612,4,1,1 --call r141=8,128,8,16,3909,8,5,1,8 \
    --call r145=16,192,1,16,5000,8,12,2 --call r159=8,64,1,5,81082,10,1,1 > "$OUT/ab_contig.txt" 2>&1
  echo "ab rc $?"; grep -E "median|summary|geomean" "$OUT/ab_contig.txt" | cut -c1-200
fi
