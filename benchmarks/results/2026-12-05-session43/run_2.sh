#!/usr/bin/env bash
# Session 43 run 2 (the device tool gave an H100 80GB HBM3 this session, no H200): the
# sweep on the H100 (the library's first sweep there; KernelBench's own baseline file for
# the seed is an H100's), then part 1 of 2 of the GPU suite (tests/conftest.py --shard;
# the whole suite took 558 of a command's 600 s in session 37).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
OUT=$OUT/h100 timeout 200 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A12 "issue 4's targets" "$OUT/h100/bench.log" | head -14
OUT=$OUT/tests1 GPU_TEST_SHARD=1/2 timeout 370 bash benchmarks/device_run.sh tests > /dev/null 2>&1
tail -3 "$OUT/tests1/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/tests1/gpu_tests.log" | head
