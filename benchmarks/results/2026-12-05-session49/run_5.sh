#!/usr/bin/env bash
# Session 49 run 5 (any card): blocks of 32 output channels for 5-6 live classes
# (PIPE_NCO32_MAX_N 160 / 192, from 128: measured on plain blocks in session 33), now that
# narrow calls take warp-specialised blocks, whose producers then split each x window once
# per 32 channels instead of once per 16. sd-s5d1k11 is SM-bound (0.0445 ms on an H100,
# 0.0461 on the H200 in the sweeps), so an H100's A/B speaks for it.
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
summ() { grep -E "^[a-z0-9-]+ \(|median|largest|rc|Error|error" "$1" | cut -c1-170; }
(cd benchmarks && timeout 300 python3 ab_variant.py auto sd-s5d1k11 --rounds 5 \
   --call "c32-k12s6=8,32,32,12,65536,6,3,1" --call "c32-k10s5=8,32,32,10,65536,5,3,1" \
   --call "c64-k5s5d2=8,64,64,5,65536,5,2,2" --call "c32-k11s5b8=8,32,32,11,32768,5,3,1" \
   --variant "n160=dispatch.PIPE_NCO32_MAX_N:160" --variant "n192=dispatch.PIPE_NCO32_MAX_N:192" \
   ) > "$OUT/ab_nco32.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_nco32.txt"; summ "$OUT/ab_nco32.txt"
