#!/usr/bin/env bash
# Session 53, run 6 (any sm_90 card): WGMMA_16BIT_ANY (16-bit calls that ct1d_gemm would
# take go to ct1d_wgmma whatever their channels, blocks or tile waste) against the float32
# thresholds (the shipped rule until this runs), on the sweep's two calls it moves and 15 small/short calls it moves (spread
# over the 228 that a grid of N 1-16, 128-512 channels, S 2-8, L 64-4096 moves), then the
# wgmma, 16-bit random-call and repeat-path GPU tests on the committed code (two blocks per
# SM from WgmmaKey.blocks; the shipped rule: ab_variant varies it only in its process).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
calls=()
for c in 1,128,64,4,64,2,1,1 1,128,128,8,64,4,2,1 1,256,64,16,256,8,4,1 1,256,256,4,1024,2,1,1 \
         1,512,64,16,64,8,4,1 1,512,256,4,256,2,1,1 1,512,512,16,256,8,4,1 4,128,128,8,1024,4,2,1 \
         4,256,128,8,64,4,2,1 4,512,64,8,64,4,2,1 4,512,256,4,1024,2,1,1 16,128,64,16,64,8,4,1 \
         16,256,128,4,256,2,1,1 16,512,64,16,64,8,4,1 16,512,512,8,64,4,2,1; do
  calls+=(--call "c$c=$c")
done
(cd benchmarks && timeout 200 python3 ab_variant.py auto hifigan-u1-b16 small-512-256-s8 "${calls[@]}" \
   --dtype bfloat16 --rounds 3 --variant "any=dispatch.WGMMA_16BIT_ANY:True") > "$OUT/ab_16bit_any.txt" 2>&1
echo "ab rc $?"; grep -E "^[a-z0-9,.-]+ \(|median|largest" "$OUT/ab_16bit_any.txt" | cut -c1-150
timeout "${TEST_S:-180}" python3 -m pytest -m gpu -n 16 -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "wgmma or (random_calls and (bfloat16 or float16)) or repeat" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 6 "$OUT/tests.log" | cut -c1-300
