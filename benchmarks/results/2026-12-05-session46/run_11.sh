#!/usr/bin/env bash
# Session 46 run 11 (the last ~170 s of device time): two routing changes the 64-channel
# and WS blocks may have made pay, A/B in one process, 3 rounds, each output NaN-poisoned
# and checked against torch in float64: n3 = narrow calls may fall back to 2 consumers + 1
# producer (sd-s3d2k5 then fits a 64-channel block and leaves ct1d_mma), any16 = rows of y
# of any length up to 16 k16 steps on ct1d_pipe (sd-s2d4k4, now WS 3 + 1, and two calls
# off the sweep)
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
(cd benchmarks && timeout 150 python3 ab_variant.py auto sd-s3d2k5 sd-s2d4k4 --rounds 3 \
   --call "c64-s1k4=8,64,64,4,65536,1,1,1" --call "c32-s1k8=8,32,32,8,131072,1,3,1" \
   --variant "n3=dispatch.PIPE_WS_NARROW:((2, 2, 5, 2), (2, 2, 5, 1), (2, 1, 4, 1), (2, 1, 4, 2))" \
   --variant "any16=dispatch.PIPE_ANY_L_MAX_STEPS:16") > "$OUT/ab_route.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_route.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_route.txt" | cut -c1-150
grep -E "err [0-9.e+-]+" -o "$OUT/ab_route.txt" | sort | tail -2
