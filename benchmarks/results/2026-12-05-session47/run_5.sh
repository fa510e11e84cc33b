#!/usr/bin/env bash
# Session 47 run 5 (an H100; on an H200 run 1 instead): the long reductions' WS shapes on
# the H100's rules. Session 46 run 12 found sd-s2d2k3-c64's 64-channel 2 + 2 block 4.7%
# slower there than 32-channel 3 + 1 blocks. Variants: l31 (long reductions on 3 + 1 only:
# 64-channel blocks where 3 + 1 fits, else 32-channel 3 + 1), l21 (no 2 + 2: 64-channel 2 + 1
# where 3 + 1 does not fit), n32 (no 64-channel blocks at all); 5 rounds
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
if grep -q H200 "$OUT/gpu.txt"; then bash benchmarks/results/2026-12-05-session47/run_1.sh; exit; fi
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
(cd benchmarks && timeout 300 python3 ab_variant.py auto sd-s2d2k3-c64 sd-s2d1k7 sd-s2d4k4 --rounds 5 \
   --call "c64-s1k4=8,64,64,4,65536,1,1,1" --call "c64-s1k3=8,64,64,3,65536,1,1,1" \
   --variant "l31=dispatch.PIPE_WS_LONG:((3,1,5,1),(3,1,5,2))" \
   --variant "l21=dispatch.PIPE_WS_LONG:((3,1,5,1),(3,1,5,2),(2,1,5,1))" \
   --variant "n32=dispatch.PIPE_WS_NCO64_MAX_N:0") > "$OUT/ab_long_h100.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_long_h100.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_long_h100.txt" | cut -c1-200
