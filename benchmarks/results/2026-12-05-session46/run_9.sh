#!/usr/bin/env bash
# Session 46 run 9 (H200): the final rule (64-channel blocks also for 8-step 64-channel
# calls: the WS_WIDE shapes for nco 64, run 8): the sweep, the second half of the GPU
# suite, the pipe family's random-call tests again
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
OUT=$OUT/bench timeout 200 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A14 "issue 4's targets" "$OUT/bench/bench.log" | head -16
OUT=$OUT/tests2 GPU_TEST_SHARD=2/2 timeout 280 bash benchmarks/device_run.sh tests > /dev/null 2>&1
tail -2 "$OUT/tests2/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/tests2/gpu_tests.log" | head
timeout 100 python3 -m pytest -m gpu -n 16 -q tests/test_gpu.py -k "pipe_family" > "$OUT/tests_pipe.txt" 2>&1
echo "tests rc $?" >> "$OUT/tests_pipe.txt"; tail -2 "$OUT/tests_pipe.txt"
