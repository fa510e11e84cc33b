#!/usr/bin/env bash
# Session 61, run 3 (any sm_90 card): ct1d_wgmma with one barrier per chunk
# (CT1D_WGMMA_ONE_BAR=1) against the shipped two, float32 (3xTF32 and 3xFP16 instances)
# and bfloat16; with chains of 24 products too (3xTF32: chunks joined in pairs)
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
wide=(hifigan-u1-b16 hifigan-u2-b16 hifigan-u3-b16 hifigan-u1-b4-long hifigan-u2-b4-long
      hifigan-u3-b4-long encodec-s8 encodec-s5 encodec-s4 up-256-256-s2 up-512-512-s2 small-512-256-s8)
extra=(--call nc1=8,256,256,4,4096,4,0,1,1 --call nc2s3=8,384,192,6,8192,3,2,1,1
       --call nc3=8,256,128,3,8192,1,1,1,1 --call nc3d=4,512,256,3,4096,1,2,2,1
       --call nc4=8,256,256,7,8192,2,3,1,1 --call nc5=4,256,128,5,8192,1,2,1,1)
timeout 300 python3 benchmarks/ab_variant.py ct1d_wgmma "${wide[@]}" "${extra[@]}" --rounds 5 \
  --variant onebar=CT1D_WGMMA_ONE_BAR:1 --variant onebar_chain24=CT1D_WGMMA_ONE_BAR:1,CT1D_WGMMA_CHAIN:24 \
  > "$OUT/ab_onebar.txt" 2>&1
echo "ab rc $?"; grep -E "median|^[a-z0-9-]+ \(" "$OUT/ab_onebar.txt" | head -80
timeout 200 python3 benchmarks/ab_variant.py ct1d_wgmma hifigan-u1-b4-long hifigan-u2-b16 encodec-s5 \
  encodec-s4 up-512-512-s2 --dtype bfloat16 --rounds 5 --variant onebar=CT1D_WGMMA_ONE_BAR:1 \
  > "$OUT/ab_onebar_bf16.txt" 2>&1
echo "ab bf16 rc $?"; grep -E "median|largest" "$OUT/ab_onebar_bf16.txt"
