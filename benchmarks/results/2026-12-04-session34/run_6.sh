# Session 34 run 6: the sweep on the final code (sd-s3d2k5 back on ct1d_mma by the
# ANY_L rule; sd-s2d2k3-c64 on ct1d_pipe), then the dispatcher-routed random-call tests
# as far as the device time goes.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 200 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-200; grep -E "geometric" $OUT/h200/bench.log | head -1
grep -E "^(seed|seed-bf16|sd-s2d2k3-c64|sd-s3d2k5) " $OUT/h200/bench.log
timeout 240 python3 -m pytest -q -n 16 -p no:cacheprovider tests/test_gpu.py -rf \
  -k "random_configurations or small_calls_random or dependent_calls" > $OUT/gpu_tests.log 2>&1
tail -2 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
