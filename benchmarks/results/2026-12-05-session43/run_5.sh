#!/usr/bin/env bash
# Session 43 run 5 (on the H100 that run 4 had started, still warm): the sweep on the
# shipped code (runs 2-3, planned for this and the GPU suite, never got a machine)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader
OUT=$OUT/h100 timeout 300 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A12 "issue 4's targets" "$OUT/h100/bench.log" | head -14
grep -E "^seed|geometric" "$OUT/h100/bench.log" | head -8
