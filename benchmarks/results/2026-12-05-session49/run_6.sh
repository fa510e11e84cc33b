#!/usr/bin/env bash
# Session 49 run 6 (any card): PIPE_NCO32_ANY_L_MAX_N (32-channel blocks up to 192 GEMM
# columns where that leaves an ANY_L call one channel tile, so that ct1d_pipe takes it) on
# four off-sweep calls (no sweep call changes route); then, with the constant at 192 in
# this copy of the tree, the pipe family's GPU tests.
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
summ() { grep -E "^[a-z0-9-]+ \(|median|largest|rc|Error|error" "$1" | cut -c1-170; }
(cd benchmarks && timeout 200 python3 ab_variant.py auto --rounds 5 \
   --call "c32-k10s5=8,32,32,10,65536,5,3,1" --call "c32-k12s6p2=8,32,32,12,65536,6,2,1" \
   --call "c32-24-k10s5=8,32,24,10,65536,5,3,1" --call "c32-k10s5-b4=4,32,32,10,32768,5,3,1" \
   --variant "any32=dispatch.PIPE_NCO32_ANY_L_MAX_N:192") > "$OUT/ab_any32.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_any32.txt"; summ "$OUT/ab_any32.txt"
sed -i 's/^PIPE_NCO32_ANY_L_MAX_N = 0$/PIPE_NCO32_ANY_L_MAX_N = 192/' cupyconv/_dispatch.py
grep -n "^PIPE_NCO32_ANY_L_MAX_N" cupyconv/_dispatch.py
timeout 150 python3 -m pytest -m gpu -n 16 -q -W ignore tests/test_gpu.py -k "pipe" -p no:cacheprovider \
  > "$OUT/pipe_tests.log" 2>&1; echo "pipe tests rc $?"; tail -n 3 "$OUT/pipe_tests.log"
