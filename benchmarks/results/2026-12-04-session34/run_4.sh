# Session 34 run 4: the sweep on the final code (sd-s2d2k3-c64 and sd-s3d2k5 now on
# ct1d_pipe's ANY_L instances).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 200 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-200; grep -E "geometric" $OUT/h200/bench.log | head -1
grep -E "^(seed|sd-s2d2k3-c64|sd-s3d2k5|hifigan-u4-b16) " $OUT/h200/bench.log
