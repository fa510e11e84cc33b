# Session 34 run 8: the pipe family's random-call tests with 13-16-step reductions on 3
# warpgroups (PIPE_MAX_STEPS 16) and the 3xFP16 split tests of the family.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
timeout 150 python3 -m pytest -q -n 16 -p no:cacheprovider tests/test_gpu.py -rf \
  -k "pipe" > $OUT/gpu_tests.log 2>&1
tail -2 $OUT/gpu_tests.log; grep -E "FAILED|Error" $OUT/gpu_tests.log | head
