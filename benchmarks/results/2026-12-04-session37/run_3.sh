#!/usr/bin/env bash
# Session 37 run 3: the full GPU suite on the final code
OUT=$OUT timeout 585 bash benchmarks/device_run.sh tests > /dev/null 2>&1
tail -3 "$OUT/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/gpu_tests.log" | head
