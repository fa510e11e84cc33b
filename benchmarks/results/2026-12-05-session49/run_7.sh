#!/usr/bin/env bash
# Session 49 run 7, H200 only (exits rc 3 at once elsewhere): run 6's A/B of
# PIPE_NCO32_ANY_L_MAX_N on the H200's rules (CARD_RULES cleared: the H200's constants)
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
grep -q H200 "$OUT/gpu.txt" || { echo "not an H200: nothing run"; exit 3; }
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
summ() { grep -E "^[a-z0-9-]+ \(|median|largest|rc|Error|error" "$1" | cut -c1-170; }
(cd benchmarks && timeout 200 python3 ab_variant.py auto --rounds 5 \
   --call "c32-k10s5=8,32,32,10,65536,5,3,1" --call "c32-k12s6p2=8,32,32,12,65536,6,2,1" \
   --call "c32-24-k10s5=8,32,24,10,65536,5,3,1" --call "c32-k10s5-b4=4,32,32,10,32768,5,3,1" \
   --variant "any32=dispatch.PIPE_NCO32_ANY_L_MAX_N:192,dispatch.CARD_RULES:{}") > "$OUT/ab_any32.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_any32.txt"; summ "$OUT/ab_any32.txt"
