#!/usr/bin/env bash
# Session 50 run 5: the GPU suite on the final code (both H100 rules of session 49 now every
# card's), half 2 of 2.
# On an H100 the H200's rules are forced (CUPYCONV_TEST_CARD=), so the routes are the H200's.
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
grep -q H200 "$OUT/gpu.txt" || export CUPYCONV_TEST_CARD=
GPU_TEST_SHARD=${SHARD:-2/2} OUT=$OUT/tests timeout 570 bash benchmarks/device_run.sh tests > "$OUT/tests.out" 2>&1
echo "rc $?"; grep -E "passed|failed" "$OUT/tests/gpu_tests.log" | tail -3
