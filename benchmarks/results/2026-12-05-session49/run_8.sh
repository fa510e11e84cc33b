#!/usr/bin/env bash
# Session 49 run 8 (any card): 64-channel WS blocks also where a group has 33-63 output
# channels (PIPE_WS_NCO64_MIN_COG 33, from 64): one partly empty channel tile per group
# instead of two, so that each x window is split once (and ANY_L calls get one tile)
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
summ() { grep -E "^[a-z0-9-]+ \(|median|largest|rc|Error|error" "$1" | cut -c1-170; }
(cd benchmarks && timeout 140 python3 ab_variant.py auto --rounds 4 \
   --call "a=8,32,48,4,65536,2,2,1" --call "b=8,64,48,4,65536,2,2,1" --call "c48=8,32,48,4,65536,2,1,1" \
   --call "g2c48=4,64,96,4,32768,2,1,1,2" --call "e=8,32,40,4,65536,2,1,1" \
   --variant "cog33=dispatch.PIPE_WS_NCO64_MIN_COG:33") > "$OUT/ab_cog33.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_cog33.txt"; summ "$OUT/ab_cog33.txt"
