#!/usr/bin/env bash
# Session 62 run 2 (any sm_90 card): session 61's LEAN variant now in kernels/ct1d_wgmma.cu.
# (1) the GPU tests that name ct1d_wgmma, (2) the two-producer design (ws2 patch) on top of
# it, applied to this copy of the tree and taken out again: A/B over run 1's 14 calls.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
timeout 300 python3 -m pytest -m gpu -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider -n 16 \
  -k wgmma > "$OUT/tests_wgmma.log" 2>&1
echo "tests rc $?"; tail -n 2 "$OUT/tests_wgmma.log" | cut -c1-300
grep -E "FAILED|ERROR" "$OUT/tests_wgmma.log" | head -20 | cut -c1-250
P=benchmarks/variants/ct1d_wgmma_s61_ws2.patch
{ patch -s -p1 < $P || git apply $P; } || { echo "patch failed"; exit 1; }
wide=(hifigan-u1-b16 hifigan-u2-b16 hifigan-u3-b16 hifigan-u1-b4-long hifigan-u2-b4-long
      hifigan-u3-b4-long encodec-s8 encodec-s5 encodec-s4 up-256-256-s2 up-512-512-s2 small-512-256-s8)
timeout 200 python3 benchmarks/ab_variant.py ct1d_wgmma "${wide[@]}" --call nc1=8,256,256,4,4096,4,0,1,1 \
  --call nc2s3=8,384,192,6,8192,3,2,1,1 --rounds 3 --variant ws2=dispatch.WGMMA_WS_MAX_NC:3 \
  --variant ws2_persist=dispatch.WGMMA_WS_MAX_NC:3,waves.ct1d_wgmma_ws:1 > "$OUT/ab_ws2_lean.txt" 2>&1
echo "ab rc $?"; grep -E "median" "$OUT/ab_ws2_lean.txt"
patch -s -R -p1 < $P || git apply -R $P
