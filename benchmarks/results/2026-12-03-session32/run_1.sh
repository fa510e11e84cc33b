# Session 32 run 1: Nsight Compute on two ct1d_pipe calls (warp states, stall samples per
# SASS instruction), then the full GPU suite on session 31's final code (its first full
# run since the unscale fix). Worker statistics go to /tmp (at most 8 files come back).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
timeout 100 bash benchmarks/ncu_stalls.sh ct1d_pipe hifigan-u4-b16 g16-512-k16-s8 2>&1 | tail -30
mkdir -p /tmp/rep; CUPYCONV_REPORT_DIR=/tmp/rep timeout 470 python3 -m pytest -m gpu -q -rs -n 16 -W ignore \
  -p no:cacheprovider tests/test_gpu.py > $OUT/gpu_tests.log 2>&1
tail -3 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
python3 benchmarks/merge_gpu_stats.py /tmp/rep > /dev/null && cp /tmp/rep/gpu_test_stats.json $OUT/
