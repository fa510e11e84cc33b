#!/usr/bin/env bash
# Session 45 run 2: the second half of the GPU tests, then which side waits in a 64-channel
# 8-step warp-specialised ct1d_pipe block (hifigan-u4-b16 with 2 consumers + 1 producer,
# next to the shipped non-WS block): stall samples at the full barrier mean the consumers
# wait for the producer, at the empty barrier the reverse.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
OUT=$OUT/tests2 GPU_TEST_SHARD=2/2 timeout 380 bash benchmarks/device_run.sh tests > /dev/null 2>&1
tail -3 "$OUT/tests2/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/tests2/gpu_tests.log" | head
OUT=$OUT/ncu_ws DISPATCH="PIPE_WS_SHAPES=((2,1,5,2),)" timeout 100 bash benchmarks/ncu_stalls.sh ct1d_pipe hifigan-u4-b16
OUT=$OUT/ncu_nows DISPATCH="PIPE_WS=False" timeout 90 bash benchmarks/ncu_stalls.sh ct1d_pipe hifigan-u4-b16
