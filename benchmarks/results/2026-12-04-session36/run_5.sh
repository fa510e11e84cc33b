#!/usr/bin/env bash
# Session 36 run 5 (run 4's full suite was cut by its limit at 97%, its log not returned):
# the GPU tests the session's changes touch on the final code (5 warpgroups and one-stage
# 4-byte-x rings off again: run 4's A/B), then the sweep into h200/.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 16)
timeout 230 python3 -m pytest -m gpu -v -W ignore "${par[@]}" tests/test_gpu.py \
  -k "pipe or random_configurations or dependent_calls or edge_cases or nonfinite or extreme or wide_dynamic" \
  -p no:cacheprovider > "$OUT/gpu_tests.log" 2>&1
tail -2 "$OUT/gpu_tests.log"; grep -c PASSED "$OUT/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/gpu_tests.log" | head
OUT=$OUT/h200 timeout 150 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A12 "issue 4's targets" "$OUT/h200/bench.log" | head -14
