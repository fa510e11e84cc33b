#!/usr/bin/env bash
# Session 37 run 4: a second sweep on the same (warm) machine, to see run 1's spread
# (the bf16 seed read 0.1998 ms there, 0.1% under its 0.20 ms target).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
OUT=$OUT timeout 170 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A12 "issue 4's targets" "$OUT/bench.log" | head -14
