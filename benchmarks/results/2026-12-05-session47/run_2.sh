#!/usr/bin/env bash
# Session 47 run 2 (an H100; no H200 came in 7 tries): the rules the H100 measured
# differently from the H200 (sessions 45-46), now all on session 46's code, each alone and
# together: rows of y of any length up to 16 steps on ct1d_pipe (any16), the 64-input-
# channel 8-step calls on 2 + 1 WS blocks (wide), narrow calls on WS blocks whatever their
# out_per_x (ratio0); 5 rounds
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
(cd benchmarks && timeout 400 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 \
   up-32-16-s2 sd-s1d4k3 sd-s2d4k4 --rounds 5 \
   --call "c64-s1k4=8,64,64,4,65536,1,1,1" --call "c32-s1k8=8,32,32,8,131072,1,3,1" \
   --call "c48-s1k5=8,48,48,5,65536,1,1,1" \
   --variant "any16=dispatch.PIPE_ANY_L_MAX_STEPS:16" \
   --variant "wide=dispatch.PIPE_WS_WIDE_ON:True" \
   --variant "ratio0=dispatch.PIPE_WS_MIN_OUT_X:0.0" \
   --variant "h100=dispatch.PIPE_ANY_L_MAX_STEPS:16,dispatch.PIPE_WS_WIDE_ON:True,dispatch.PIPE_WS_MIN_OUT_X:0.0") \
   > "$OUT/ab_h100_rules.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_h100_rules.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_h100_rules.txt" | cut -c1-200
