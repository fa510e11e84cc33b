#!/usr/bin/env bash
# Session 46 run 13 (for session 47; H200 only): run 11's routing A/B on the H200 — rows of
# y of any length up to 16 k16 steps on ct1d_pipe (any16: sd-s2d4k4 and two calls off the
# sweep onto 3 + 1 WS blocks; on an H100 14-39% faster), 5 rounds
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
grep -q H200 "$OUT/gpu.txt" || { echo "not an H200: nothing run"; exit 3; }
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
(cd benchmarks && timeout 150 python3 ab_variant.py auto sd-s2d4k4 --rounds 5 \
   --call "c64-s1k4=8,64,64,4,65536,1,1,1" --call "c32-s1k8=8,32,32,8,131072,1,3,1" \
   --call "c48-s1k5=8,48,48,5,65536,1,1,1" \
   --variant "any16=dispatch.PIPE_ANY_L_MAX_STEPS:16") > "$OUT/ab_any16.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_any16.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_any16.txt" | cut -c1-150
