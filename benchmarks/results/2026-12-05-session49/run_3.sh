#!/usr/bin/env bash
# Session 49 runs 3-4: half SHARD (1/2, 2/2) of the GPU suite on the H200's dispatch rules:
# on an H200 its own card, on an H100 CUPYCONV_TEST_CARD= (the H200's routes, which the
# full suite last ran on an H200 in session 37; sessions 43-48 ran it on H100 routes)
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
grep -q H200 "$OUT/gpu.txt" || export CUPYCONV_TEST_CARD=
export CUPY_CACHE_DIR=/tmp/cupyconv-cache
OUT=$OUT/tests GPU_TEST_SHARD=${SHARD:-1/2} timeout 560 bash benchmarks/device_run.sh tests > /dev/null 2>&1
echo "tests rc $?"; head -12 "$OUT/tests/gpu_tests.log" | grep -i "seed"; tail -n 2 "$OUT/tests/gpu_tests.log"
grep -E "FAILED|ERROR" "$OUT/tests/gpu_tests.log" | head
