# Session 33 run 5: the sweep on this session's final code.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 400 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-400; grep -E "ct1d_pipe|^seed|geometric" $OUT/h200/bench.log | cut -c1-150
