#!/usr/bin/env bash
# Session 61, run 7 (any sm_90 card): the warp-specialised float32 ct1d_wgmma with its raw
# chunks by the bulk-copy engine (CT1D_WGMMA_WS_BULK 1) and registers 56/224: smoke calls,
# its GPU family test, then the A/B against the shipped instances (also with cp.async
# staging, and one block per SM looping over its row's tiles).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session61
nvidia-smi --query-gpu=name,uuid,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
for spec in "u2=16,256,128,16,2048,8,4,1,1 0" "u2=16,256,128,16,2048,8,4,1,1 1" "edge=4,200,72,4,4000,2,1,1,1 1" "edge3=8,200,136,8,2000,4,2,1,1 0"; do
  timeout 60 python3 $R/ws_smoke.py $spec 2>&1 | tail -3 | tee -a "$OUT/smoke.txt"
  [[ ${PIPESTATUS[0]} -eq 0 ]] || { echo "smoke failed"; exit 1; }
done
timeout 120 python3 -m pytest -m gpu -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "test_wgmma_family_random_calls and True" > "$OUT/tests_ws.log" 2>&1
echo "tests rc $?"; tail -n 3 "$OUT/tests_ws.log" | cut -c1-300
wide=(hifigan-u1-b16 hifigan-u2-b16 hifigan-u3-b16 hifigan-u1-b4-long hifigan-u2-b4-long
      hifigan-u3-b4-long encodec-s8 encodec-s5 encodec-s4 up-256-256-s2 up-512-512-s2 small-512-256-s8)
extra=(--call nc1=8,256,256,4,4096,4,0,1,1 --call nc2s3=8,384,192,6,8192,3,2,1,1)
timeout 240 python3 benchmarks/ab_variant.py ct1d_wgmma "${wide[@]}" "${extra[@]}" --rounds 3 \
  --variant ws=dispatch.WGMMA_WS_MAX_NC:3 --variant ws_persist=dispatch.WGMMA_WS_MAX_NC:3,waves.ct1d_wgmma_ws:1 \
  --variant ws_cpasync=dispatch.WGMMA_WS_MAX_NC:3,CT1D_WGMMA_WS_BULK:0 \
  > "$OUT/ab_ws_bulk.txt" 2>&1
echo "ab rc $?"; grep -E "median|largest" "$OUT/ab_ws_bulk.txt" | head -60
