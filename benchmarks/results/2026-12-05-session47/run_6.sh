#!/usr/bin/env bash
# Session 47 run 6 (on an H200: run 1 instead): a plain warpgroup's x-window passes
# unrolled (CT1D_PIPE_PLAIN_UNROLL 8: the 64-channel windows' 10 passes; session 45's
# profile of hifigan-u4-b16's plain block shows that loop rolled, ~10 instructions per
# 16-byte copy, in the warpgroup's own tile chain). On an H100 the H200's rules
# (CARD_RULES {}) put hifigan-u4 and encodec-s2 on the plain blocks the H200 runs; 5 rounds
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
if grep -q H200 "$OUT/gpu.txt"; then bash benchmarks/results/2026-12-05-session47/run_1.sh; exit; fi
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
(cd benchmarks && timeout 300 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 up-64-64-s3 \
   --rounds 5 --call "c64-k8s4=8,64,64,8,32768,4,2,1" \
   --variant "unroll=CT1D_PIPE_PLAIN_UNROLL:8" \
   --variant "h200=dispatch.CARD_RULES:{}" \
   --variant "h200unroll=dispatch.CARD_RULES:{},CT1D_PIPE_PLAIN_UNROLL:8") > "$OUT/ab_unroll.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_unroll.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_unroll.txt" | cut -c1-200
