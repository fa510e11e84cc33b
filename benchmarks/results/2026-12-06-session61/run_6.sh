#!/usr/bin/env bash
# Session 61, run 6 (any sm_90 card): the warp-specialised float32 ct1d_wgmma (WgmmaKey.ws,
# dispatch.WGMMA_WS_MAX_NC): a smoke call (does it finish, is it right), the A/B against the
# shipped instances (one tile per block, and one block per SM looping over its row's tiles:
# waves.ct1d_wgmma_ws 1), then the family's GPU test on its instances.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session61
nvidia-smi --query-gpu=name,uuid,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
for persist in 0 1; do
  timeout 60 python3 $R/ws_smoke.py u2=16,256,128,16,2048,8,4,1,1 $persist 2>&1 | tail -3 | tee -a "$OUT/smoke.txt"
  [[ ${PIPESTATUS[0]} -eq 0 ]] || { echo "smoke failed"; exit 1; }
done
wide=(hifigan-u1-b16 hifigan-u2-b16 hifigan-u3-b16 hifigan-u1-b4-long hifigan-u2-b4-long
      hifigan-u3-b4-long encodec-s8 encodec-s5 encodec-s4 up-256-256-s2 up-512-512-s2 small-512-256-s8)
extra=(--call nc1=8,256,256,4,4096,4,0,1,1 --call nc2s3=8,384,192,6,8192,3,2,1,1
       --call nc3=8,256,128,3,8192,1,1,1,1)
timeout 240 python3 benchmarks/ab_variant.py ct1d_wgmma "${wide[@]}" "${extra[@]}" --rounds 3 \
  --variant ws=dispatch.WGMMA_WS_MAX_NC:3 --variant ws_persist=dispatch.WGMMA_WS_MAX_NC:3,waves.ct1d_wgmma_ws:1 \
  > "$OUT/ab_ws.txt" 2>&1
echo "ab rc $?"; grep -E "median|largest" "$OUT/ab_ws.txt" | head -60
timeout 200 python3 -m pytest -m gpu -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "test_wgmma_family_random_calls and True" > "$OUT/tests_ws.log" 2>&1
echo "tests rc $?"; tail -n 3 "$OUT/tests_ws.log" | cut -c1-300
