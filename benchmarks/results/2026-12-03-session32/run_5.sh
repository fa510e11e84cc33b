# Session 32 run 5: run 4's test step was cut at its 120 s limit (37 passed, none failed,
# but which is not listed): the family's tests and the split tests again, every result named.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
CUPYCONV_REPORT_DIR=/tmp/rep timeout 110 python3 -m pytest -q -rA -n 16 -p no:cacheprovider tests/test_gpu.py \
  -k "pipe or nonfinite or extreme_magnitudes or wide_dynamic" > $OUT/gpu_tests.log 2>&1
tail -1 $OUT/gpu_tests.log; grep -cE "^PASSED" $OUT/gpu_tests.log; grep -E "^(FAILED|ERROR)" $OUT/gpu_tests.log | head
python3 benchmarks/merge_gpu_stats.py /tmp/rep > /dev/null && cp /tmp/rep/gpu_test_stats.json $OUT/
