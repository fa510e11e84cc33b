#!/usr/bin/env bash
# Session 43 run 7 (same warm H100): part 2 of 2 of the GPU suite
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
OUT=$OUT/tests2 GPU_TEST_SHARD=2/2 timeout 300 bash benchmarks/device_run.sh tests > /dev/null 2>&1
tail -3 "$OUT/tests2/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/tests2/gpu_tests.log" | head
