#!/usr/bin/env bash
# Session 37 run 2: the bf16 seed against three ct1d_mma knobs that move its store/L2
# traffic (5 rounds in one process: is 0.20 ms within its spread?); run 1 named the family
# wrongly ("mma").
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
(cd benchmarks && timeout 150 python3 ab_variant.py ct1d_mma seed --dtype bfloat16 --rounds 5 \
  --variant "evict0=CT1D_BULK_EVICT_FIRST:0" --variant "rotate0=CT1D_MMA_ROTATE:0" \
  --variant "pfx0=CT1D_MMA_X_PREFETCH:0" > "$OUT/ab_bf16_seed.txt" 2>&1)
cat "$OUT/ab_bf16_seed.txt" | tail -30
