# Session 31 run 4: the sweep with ct1d_pipe routed (PIPE_ROUTE, its shapes from run 3),
# then the full GPU suite (the pipe family test on three shape lists among them).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 170 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-300; grep -E "ct1d_pipe" $OUT/h200/bench.log | cut -c1-150
OUT=$OUT timeout 390 bash benchmarks/device_run.sh tests > /dev/null 2>&1
tail -3 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
