#!/usr/bin/env bash
# Session 37 run 1: the sweep on the final code of session 36 (its run 5's files were lost
# with that session's checkout), then the bf16 seed against three ct1d_mma knobs that
# move its store/L2 traffic (5 rounds in one process: is 0.20 ms within its spread?).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
OUT=$OUT/h200 timeout 170 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A12 "issue 4's targets" "$OUT/h200/bench.log" | head -14
(cd benchmarks && timeout 150 python3 ab_variant.py mma seed --dtype bfloat16 --rounds 5 \
  --variant "evict0=CT1D_BULK_EVICT_FIRST:0" --variant "rotate0=CT1D_MMA_ROTATE:0" \
  --variant "pfx0=CT1D_MMA_X_PREFETCH:0" > "$OUT/ab_bf16_seed.txt" 2>&1)
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_bf16_seed.txt"; tail -1 "$OUT/ab_bf16_seed.txt"
