#!/usr/bin/env bash
# Session 43 run 6 (same warm H100): part 1 of 2 of the GPU suite (tests/conftest.py --shard)
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
OUT=$OUT/tests1 GPU_TEST_SHARD=1/2 timeout 285 bash benchmarks/device_run.sh tests > /dev/null 2>&1
tail -3 "$OUT/tests1/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/tests1/gpu_tests.log" | head
