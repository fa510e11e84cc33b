#!/usr/bin/env bash
# ct1d_narrow routed (float32, NARROW_ROUTE): shape_scan.py's 160 random calls against torch
# (run_2's scan was before); knobs of the kernel on its compute-heavy calls (A/B, 3
# rounds); 16-bit and float64 on the narrow-output calls (not routed yet).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
timeout 140 python3 shape_scan.py ${SCAN_ONLY:+--no-compare} --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1
echo "scan rc $?"; grep -E "narrow|calls:" "$OUT/scan.txt" | cut -c1-130 | head -40
[[ ${SCAN_ONLY:-} ]] && exit 0
calls=(--call in512-out8=16,512,8,4,16384,2,1,1 --call in256-out8-k16=8,256,8,16,7352,2,0,2
       --call in768-out8-s10=8,768,8,20,2359,10,8,1 --call in128-out8-s8=4,128,8,16,7812,8,4,1
       --call in1024-out4=4,1024,4,8,8192,4,2,1 --call in192-out1=8,192,1,7,30612,4,1,1)
timeout 150 python3 ab_variant.py ct1d_narrow "${calls[@]}" --rounds 3 \
  --variant minb2=CT1D_NARROW_MIN_BLOCKS:2 \
  --variant blocks1056=dispatch.NARROW_MIN_BLOCKS:1056 > "$OUT/ab_narrow.txt" 2>&1
echo "ab rc $?"; tail -n 30 "$OUT/ab_narrow.txt" | cut -c1-160
timeout 80 python3 family_compare.py narrow --dtype bfloat16 \
  --families ct1d_narrow,ct1d_mma,ct1d_wgmma,ct1d_depthwise > "$OUT/fc_bf16.txt" 2>&1
echo "fc bf16 rc $?"; cut -c1-200 "$OUT/fc_bf16.txt"
timeout 80 python3 family_compare.py narrow --dtype float64 \
  --families ct1d_narrow,ct1d_scatter,ct1d_depthwise > "$OUT/fc_f64.txt" 2>&1
echo "fc f64 rc $?"; cut -c1-200 "$OUT/fc_f64.txt"
