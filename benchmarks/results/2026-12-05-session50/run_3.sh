#!/usr/bin/env bash
# Session 50 run 3 (H200 only; session 49's run_next.sh, part 2): the two H100 rules of
# session 49 (PIPE_NCO32_ANY_L_MAX_N 192, PIPE_WS_NCO64_MIN_COG 33) A/B on the H200's rules,
# on the calls they were measured on (4-8 k16 steps) and the long reductions of run 1;
# then the pipe family's GPU tests on the H200.
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
grep -q H200 "$OUT/gpu.txt" || { echo "not an H200: nothing run"; exit 0; }
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
summ() { grep -E "^[a-z0-9-]+ \(|median|largest|rc|Error|error" "$1" | cut -c1-200; }
(cd benchmarks && timeout 300 python3 ab_variant.py auto \
   --call "c32-k10s5=8,32,32,10,65536,5,3,1" --call "c32-24-k10s5=8,32,24,10,65536,5,3,1" \
   --call "c32-24-k10s5-n4=4,32,24,10,32768,5,3,1" --call "c32-k12s6p2=8,32,32,12,65536,6,2,1" \
   --call "a=8,32,48,4,65536,2,2,1" --call "b=8,64,48,4,65536,2,2,1" --call "c48=8,32,48,4,65536,2,1,1" \
   --call "e=8,32,40,4,65536,2,1,1" --call "g2c48=4,64,96,4,32768,2,1,1,2" \
   --call "c64-48-k3s2d2=16,64,48,3,65536,2,1,2" --call "c64-48-k4s1=8,64,48,4,65536,1,1,1" \
   --call "c48-40-k5s1=8,48,40,5,65536,1,1,1" --rounds 5 \
   --variant "any32=dispatch.PIPE_NCO32_ANY_L_MAX_N:192" --variant "cog33=dispatch.PIPE_WS_NCO64_MIN_COG:33" \
   ) > "$OUT/ab_h100_rules_on_h200.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_h100_rules_on_h200.txt"; summ "$OUT/ab_h100_rules_on_h200.txt"
timeout 170 python3 -m pytest -m gpu -n 16 -q -W ignore tests/test_gpu.py -k "pipe or device_card" \
  -p no:cacheprovider > "$OUT/pipe_tests.log" 2>&1; echo "pipe tests rc $?"; tail -n 3 "$OUT/pipe_tests.log"
