#!/usr/bin/env bash
# Session 61, run 1 (any sm_90 card): float32 ct1d_wgmma with the scaled 3xFP16 split in
# 64-position blocks, two per SM (dispatch.WGMMA_F32_2B_MAX_NC), against the shipped
# instances (3xTF32 below 4 column offsets, 128-position blocks, one per SM) and against
# 3xFP16 in the shipped blocks; then session 60's pending 160-call scan.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
wide=(hifigan-u1-b16 hifigan-u2-b16 hifigan-u3-b16 hifigan-u1-b4-long hifigan-u2-b4-long
      hifigan-u3-b4-long encodec-s8 encodec-s5 encodec-s4 up-256-256-s2 up-512-512-s2 small-512-256-s8)
extra=(--call nc1=8,256,256,4,4096,4,0,1,1 --call nc2s3=8,384,192,6,8192,3,2,1,1
       --call nc3=8,256,128,3,8192,1,1,1,1 --call nc3d=4,512,256,3,4096,1,2,2,1
       --call nc4=8,256,256,7,8192,2,3,1,1 --call nc5=4,256,128,5,8192,1,2,1,1)
timeout 420 python3 benchmarks/ab_variant.py ct1d_wgmma "${wide[@]}" "${extra[@]}" --rounds 3 \
  --variant f3=dispatch.WGMMA_F16X3_MIN_NC:1 --variant f3_2b=dispatch.WGMMA_F32_2B_MAX_NC:8 \
  > "$OUT/ab_f3_2b.txt" 2>&1
echo "ab rc $?"; grep -E "median|^[a-z0-9-]+ \(" "$OUT/ab_f3_2b.txt" | head -80
(cd benchmarks && timeout 150 python3 shape_scan.py --no-compare --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1)
echo "scan rc $?"; grep -E "calls:" "$OUT/scan.txt"
