# Session 32 run 2: ct1d_pipe's prologue (run 1's ncu: weight loads one at a time were
# 4-11% of the stall samples, the dead-class fill loop ran on calls without dead classes)
# and tiles in whole 32-byte sectors (dispatch.PIPE_QUANTUM 8), A/B in one process on the
# eleven routed calls; then ct1d_pipe's GPU tests.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 300 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 up-32-16-s2 up-32-32-s4 \
  up-16-16-s8 sd-s2d1k7 sd-s1d4k3 g4-128-k4-s2 g8-256-k8-s4 g16-512-k16-s8 --rounds 3 \
  --variant oldpro=CT1D_PIPE_W_BATCH:1,CT1D_PIPE_EARLY_X:0 --variant lateX=CT1D_PIPE_EARLY_X:0 \
  --variant q8=dispatch.PIPE_QUANTUM:8 > $OUT/ab_prologue.txt 2>&1
echo "ab rc=$?"; grep -E "^\S|median" $OUT/ab_prologue.txt | cut -c1-250
cd ..
timeout 150 python3 -m pytest -q -n 8 -p no:cacheprovider tests/test_gpu.py -k "pipe" > $OUT/gpu_tests_pipe.log 2>&1
tail -2 $OUT/gpu_tests_pipe.log; grep -E "FAILED|ERROR" $OUT/gpu_tests_pipe.log | head
