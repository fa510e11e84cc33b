#!/usr/bin/env bash
# (Ran on the tree of commit 2593a88, which had dispatch.PIPE_ANY_L_MIN_STEPS_TILES; the
# result folded it back into PIPE_ANY_L_MIN_STEPS.)
# Session 43 run 1: ct1d_pipe's routing rules re-measured on the final code of session 36
# (warp-uniform indices, one-stage ANY_L rings: ANY_L instances 5-7% faster since the
# rules were set in sessions 31 and 34). Each call's plan changes under one variant only;
# the others repeat the shipped plan (the spread). 5 rounds in one process.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/environment.txt" 2>&1
(cd benchmarks && timeout 400 python3 ab_variant.py auto sd-s3d2k5 sd-s4d3k5 sd-s2d4k4 --rounds 5 \
  --call s3d2k4=8,32,64,4,65536,3,2,2 --call s4d3k5-c16=8,16,32,5,131072,4,3,3 \
  --call s1d1k4-c64=8,64,64,4,65536,1,2,1 \
  --variant "dens=dispatch.PIPE_MIN_DENSITY:0.3" \
  --variant "tiles=dispatch.PIPE_ANY_L_MIN_STEPS_TILES:1" \
  --variant "any16=dispatch.PIPE_ANY_L_MAX_STEPS:16" > "$OUT/ab_route.txt" 2>&1)
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_route.txt"
