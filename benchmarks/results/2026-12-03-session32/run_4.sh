# Session 32 run 4: run 3's pairs removed (slower on all eleven calls, and wrong where an
# infinity sits in one row of a pair: test_nonfinite_x_stays_local[ct1d_pipe]); the
# epilogue unscales by one multiply where the joint factor is normal. A/B in one process
# against session 31's source, 3-warpgroup shapes and the two-multiply unscale; the GPU tests of the family,
# the split tests and the routed random calls; then the sweep on this code.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
W3="((3,3,2),(3,2,2),(3,3,1),(3,2,1),(2,3,2),(2,2,2),(2,3,1),(1,3,2))"
timeout 160 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 up-32-16-s2 up-32-32-s4 \
  up-16-16-s8 sd-s2d1k7 sd-s1d4k3 g4-128-k4-s2 g8-256-k8-s4 g16-512-k16-s8 --rounds 2 \
  --variant s31=source:variants/ct1d_pipe_s31.cu --variant wg3="dispatch.PIPE_SHAPES:$W3" --variant twomul=CT1D_PIPE_JOINT_UNSCALE:0 > $OUT/ab_pipe.txt 2>&1
echo "ab rc=$?"; grep -E "median" $OUT/ab_pipe.txt | cut -c1-250
cd ..
CUPYCONV_REPORT_DIR=/tmp/rep timeout 120 python3 -m pytest -q -n 16 -p no:cacheprovider tests/test_gpu.py \
  -k "pipe or extreme_magnitudes or wide_dynamic or nonfinite or dependent_calls or random_configurations" > $OUT/gpu_tests.log 2>&1
tail -2 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 170 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-300; grep -E "ct1d_pipe|^seed" $OUT/h200/bench.log | cut -c1-150
