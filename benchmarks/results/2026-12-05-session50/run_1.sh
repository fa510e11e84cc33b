#!/usr/bin/env bash
# For the next session (any card; H200 parts only on an H200): what session 49 could not
# run. 1: the pipe family's GPU tests on session 49's final code, with this device's own
# rules. 2 (H200): the two H100 rules of session 49 measured on the H200's rules
# (PIPE_NCO32_ANY_L_MAX_N 192, PIPE_WS_NCO64_MIN_COG 33). 3 (H100): the 33-channel rule
# on long reductions (12-16 k16 steps), where it is unmeasured, against 64 (the variant
# replaces CARD_RULES["h100"] by the rules without it).
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
summ() { grep -E "^[a-z0-9-]+ \(|median|largest|rc|Error|error" "$1" | cut -c1-170; }
timeout 170 python3 -m pytest -m gpu -n 16 -q -W ignore tests/test_gpu.py -k "pipe or device_card" \
  -p no:cacheprovider > "$OUT/pipe_tests.log" 2>&1; echo "pipe tests rc $?"; tail -n 3 "$OUT/pipe_tests.log"
if grep -q H200 "$OUT/gpu.txt"; then
  (cd benchmarks && timeout 300 python3 ab_variant.py auto --rounds 5 \
     --call "c32-k10s5=8,32,32,10,65536,5,3,1" --call "c32-24-k10s5=8,32,24,10,65536,5,3,1" \
     --call "c32-k12s6p2=8,32,32,12,65536,6,2,1" --call "a=8,32,48,4,65536,2,2,1" \
     --call "b=8,64,48,4,65536,2,2,1" --call "c48=8,32,48,4,65536,2,1,1" --call "e=8,32,40,4,65536,2,1,1" \
     --variant "any32=dispatch.PIPE_NCO32_ANY_L_MAX_N:192" --variant "cog33=dispatch.PIPE_WS_NCO64_MIN_COG:33" \
     ) > "$OUT/ab_h100_rules_on_h200.txt" 2>&1
  echo "ab rc $?" >> "$OUT/ab_h100_rules_on_h200.txt"; summ "$OUT/ab_h100_rules_on_h200.txt"
else
  (cd benchmarks && timeout 200 python3 ab_variant.py auto --rounds 5 \
     --call "c64-48-k3s2d2=16,64,48,3,65536,2,1,2" --call "c64-48-k4s1=8,64,48,4,65536,1,1,1" \
     --call "c48-40-k5s1=8,48,40,5,65536,1,1,1" \
     --variant 'cog64=dispatch.CARD_RULES:{"h100": {"PIPE_WS_WIDE_ON": True, "PIPE_WS_MIN_OUT_X": 0.0, "PIPE_NCO32_ANY_L_MAX_N": 192}}' \
     ) > "$OUT/ab_cog33_long.txt" 2>&1
  echo "ab rc $?" >> "$OUT/ab_cog33_long.txt"; summ "$OUT/ab_cog33_long.txt"
fi
