#!/usr/bin/env bash
# Session 46 run 1 (H200 only; session 45 run 5 as written): run 1's H200 sweep read sd-s2d2k3-c64 0.388 ms and
# up-32-16-s2 0.171 against session 37's 0.359 and 0.162 before the WS rule, while the
# H100 A/B runs had the rule faster or equal there. So: the shipped rule against no WS
# blocks (noWS), session 44's code (s44: producers' loads rolled) and the 64-channel 2+1
# blocks (wide: PIPE_WS_WIDE_ON) and the hypothesis that WS blocks lose where a tile writes
# less than ~1.5x its x window's bytes (ratio: PIPE_WS_MIN_OUT_X) on the H200, medians of
# 5 rounds in one process.
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
grep -q H200 "$OUT/gpu.txt" || { echo "not an H200: nothing run"; exit 3; }
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
calls="hifigan-u4-b16 encodec-s2 hifigan-u4-b4-long sd-s2d2k3-c64 up-32-16-s2 up-32-32-s4
       up-16-16-s8 sd-s2d1k7 sd-s1d4k3 sd-s5d1k11 g4-128-k4-s2 g16-512-k16-s8 g8-256-k8-s4"
(cd benchmarks && timeout 170 python3 ab_variant.py auto $calls --rounds 5 \
   --variant "noWS=dispatch.PIPE_WS:False" \
   --variant "s44=CT1D_PIPE_WS_UNROLL:99" \
   --variant "wide=dispatch.PIPE_WS_WIDE_ON:True" \
   --variant "ratio=dispatch.PIPE_WS_MIN_OUT_X:1.5") > "$OUT/ab_h200.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_h200.txt"
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_h200.txt" | cut -c1-140
