# Session 33 run 9: ct1d_pipe for any L_in (rows of x whose length is not a multiple of 4
# load by 4-byte copies, the last chunk in part). A/B in one process: (1) aligned calls
# against the source before the change (prev: the 16-byte path they run is the same
# code; the kernel holds a larger 4-byte path); (2) calls with L_in % 4 != 0 against the
# ct1d_mma plans they had (noroute); then the family's GPU tests.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 150 python3 ab_variant.py auto hifigan-u4-b16 up-32-16-s2 up-32-32-s4 sd-s2d1k7 g4-128-k4-s2 up-64-64-s3 --rounds 2 \
  --variant prev=source:variants/ct1d_pipe_prev.cu > $OUT/ab_prev.txt 2>&1
echo "ab prev rc=$?"; grep -E "median" $OUT/ab_prev.txt | cut -c1-250
timeout 150 python3 ab_variant.py auto --rounds 3 \
  --call up-32-32-s4-odd=8,32,32,8,65535,4,2 --call g8-odd=8,256,256,8,8191,4,2,1,8 \
  --call hifigan-u4-l2=16,64,32,4,32770,2,1 --call up-16-16-s8-odd=8,16,16,16,32767,8,4 \
  --variant noroute=dispatch.PIPE_ROUTE:False > $OUT/ab_odd_lin.txt 2>&1
echo "ab odd rc=$?"; grep -E "^\S.*torch|median" $OUT/ab_odd_lin.txt | cut -c1-250
cd ..
timeout 200 python3 -m pytest -q -n 16 -p no:cacheprovider tests/test_gpu.py -rf \
  -k "pipe or nonfinite or extreme_magnitudes or wide_dynamic" > $OUT/gpu_tests.log 2>&1
tail -2 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
