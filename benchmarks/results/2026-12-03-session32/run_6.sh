# Session 32 run 6 (typed at the device prompt, kept here): the routed random-call tests,
# run 4's other cut step; cut again at its 130 s limit (the session's device time) after
# 14 passed and none failed.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc
timeout 130 python3 -m pytest -q -rA -n 16 -p no:cacheprovider tests/test_gpu.py \
  -k "random_configurations or dependent_calls or small_calls_random or graph" > $OUT/gpu_tests_routed.log 2>&1
