# Session 34 run 3: the full GPU suite on this session's code (ct1d_pipe's ANY_L instances
# and 9-12-step reductions; the routing rules of runs 1-2). Worker statistics go to /tmp
# (at most 8 files come back) and are merged.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
mkdir -p /tmp/rep; CUPYCONV_REPORT_DIR=/tmp/rep timeout 560 python3 -m pytest -m gpu -q -rs -n 16 -W ignore \
  -p no:cacheprovider tests/test_gpu.py > $OUT/gpu_tests.log 2>&1
tail -3 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
python3 benchmarks/merge_gpu_stats.py /tmp/rep > /dev/null && cp /tmp/rep/gpu_test_stats.json $OUT/
