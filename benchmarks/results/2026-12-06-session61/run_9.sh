#!/usr/bin/env bash
# Session 61, run 9 (any sm_90 card): float32 ct1d_wgmma with an output tile of its own and
# about one block per SM looping over its row's tiles, each requesting the next tile's first
# chunks before storing the current one (dispatch.WGMMA_PERSIST): its GPU family test (on a
# grid sized for 3 SMs: many tiles per block), then the A/B against the shipped instances.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
timeout 100 python3 -m pytest -m gpu -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "test_wgmma_family_random_calls and True" > "$OUT/tests_persist.log" 2>&1
echo "tests rc $?"; tail -n 3 "$OUT/tests_persist.log" | cut -c1-300
wide=(hifigan-u1-b16 hifigan-u2-b16 hifigan-u3-b16 hifigan-u1-b4-long hifigan-u2-b4-long
      hifigan-u3-b4-long encodec-s8 encodec-s5 encodec-s4 up-256-256-s2 up-512-512-s2 small-512-256-s8)
extra=(--call nc1=8,256,256,4,4096,4,0,1,1 --call nc2s3=8,384,192,6,8192,3,2,1,1
       --call nc3=8,256,128,3,8192,1,1,1,1 --call nc4=8,256,256,7,8192,2,3,1,1)
timeout 150 python3 benchmarks/ab_variant.py ct1d_wgmma "${wide[@]}" "${extra[@]}" --rounds 3 \
  --variant persist=dispatch.WGMMA_PERSIST:True > "$OUT/ab_persist.txt" 2>&1
echo "ab rc $?"; grep -E "median|largest" "$OUT/ab_persist.txt" | head -40
