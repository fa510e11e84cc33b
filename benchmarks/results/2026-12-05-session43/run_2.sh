#!/usr/bin/env bash
# Session 43 run 2: the sweep on whichever card the device tool gives (run 1 got an H100
# 80GB HBM3: the library's first run there; KernelBench's own baseline file for the seed
# is an H100's), into a folder named after it, then part 1 of 2 of the GPU suite
# (tests/conftest.py --shard; the whole suite took 558 of a command's 600 s in session 37).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | grep -o -i -E "h100|h200" | tr A-Z a-z)
OUT=$OUT/${card:-gpu} timeout 200 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A12 "issue 4's targets" "$OUT/${card:-gpu}/bench.log" | head -14
OUT=$OUT/tests1 GPU_TEST_SHARD=1/2 timeout 370 bash benchmarks/device_run.sh tests > /dev/null 2>&1
tail -3 "$OUT/tests1/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/tests1/gpu_tests.log" | head
