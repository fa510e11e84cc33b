# Session 31 run 5: the sweep again (run 4's files did not come back: its cut test run
# left 16 worker files), after the fix of ct1d_pipe's unscale (two exact multiplies: run 4
# failed test_float32_split_at_extreme_magnitudes[1e-18-ct1d_pipe], a 2^-133 factor
# flushed to zero); then the GPU tests that the new family and its routing touch.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 150 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-400; grep -E "ct1d_pipe|^seed" $OUT/h200/bench.log | cut -c1-150
mkdir -p /tmp/rep; CUPYCONV_REPORT_DIR=/tmp/rep timeout 200 python3 -m pytest -q -n 16 -p no:cacheprovider tests/test_gpu.py \
  -k "pipe or random_configurations or small_calls_random or dependent_calls or graph or wide_dynamic or extreme_magnitudes or nonfinite" \
  > $OUT/gpu_tests.log 2>&1
tail -3 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
python3 benchmarks/merge_gpu_stats.py /tmp/rep > /dev/null && cp /tmp/rep/gpu_test_stats.json $OUT/
