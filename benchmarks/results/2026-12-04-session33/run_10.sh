# Session 33 run 10: the sweep on the final code (ct1d_pipe's kernel now holds the 4-byte
# path for any L_in; PIPE_X4_MAX_CI), then the routed random-call tests as far as the
# session's device time goes.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 130 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-200; grep -E "geometric" $OUT/h200/bench.log | head -1
timeout 110 python3 -m pytest -q -n 16 -p no:cacheprovider tests/test_gpu.py -rf \
  -k "random_configurations or small_calls_random" > $OUT/gpu_tests.log 2>&1
tail -2 $OUT/gpu_tests.log; grep -cE "PASSED|passed" $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
