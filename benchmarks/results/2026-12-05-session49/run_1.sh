#!/usr/bin/env bash
# Session 49 run 1 (any card): the routing rules made before the warp-specialised blocks
# (sessions 31-43), measured again on the calls they keep on ct1d_mma: sd-s3d2k5 (rows of
# y of any length, 6 steps, two 32-channel tiles: PIPE_ANY_L_MIN_STEPS) and the calls
# below half dense (sd-s4d3k5, PIPE_MIN_DENSITY), on the WS shapes they would get now.
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
summ() { grep -E "^[a-z0-9-]+ \(|median|largest|rc" "$1" | cut -c1-170; }
(cd benchmarks && timeout 280 python3 ab_variant.py auto sd-s3d2k5 sd-s4d3k5 --rounds 5 \
   --call "c32-64-k4s3d2=8,32,64,4,65536,3,1,2" --call "c16-32-k5s4d3=8,16,32,5,65536,4,3,3" \
   --variant "anyl=dispatch.PIPE_ANY_L_MIN_STEPS:0,dispatch.PIPE_MIN_DENSITY:0.3" \
   --variant "anyl64=dispatch.PIPE_ANY_L_MIN_STEPS:0,dispatch.PIPE_MIN_DENSITY:0.3,dispatch.PIPE_WS_NARROW:((2,1,4,1),(2,2,5,2),(2,2,5,1))" \
   --variant "one2=dispatch.PIPE_ANY_L_MIN_STEPS:0,dispatch.PIPE_MIN_DENSITY:0.3,dispatch.PIPE_WS_NARROW:((1,2,4,2),(1,2,4,1),(2,2,5,2),(2,2,5,1))" \
   ) > "$OUT/ab_route.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_route.txt"; summ "$OUT/ab_route.txt"
