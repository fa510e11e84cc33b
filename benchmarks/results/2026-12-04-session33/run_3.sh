# Session 33 run 3: ct1d_pipe for 3, 5, 6 and 7 live classes (class-major GEMM columns),
# and 16-channel blocks where 32 would exceed 192 columns (8 classes). A/B in one process:
# (1) the eleven pipe calls against session 32's source (their instances keep the
# channel-major columns); (2) the newly covered calls against the ct1d_mma plans they had
# (noroute) and 16-channel blocks (nco16); then the family's GPU tests.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 150 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 up-32-16-s2 up-32-32-s4 \
  up-16-16-s8 sd-s2d1k7 sd-s1d4k3 g4-128-k4-s2 g8-256-k8-s4 g16-512-k16-s8 --rounds 2 \
  --variant s32=source:variants/ct1d_pipe_s32.cu > $OUT/ab_old.txt 2>&1
echo "ab old rc=$?"; grep -E "median" $OUT/ab_old.txt | cut -c1-250
timeout 150 python3 ab_variant.py auto up-64-64-s3 sd-s5d1k11 --rounds 3 \
  --call s3k3=8,32,64,3,65536,3,0 --call up-32-32-s8=8,32,32,16,32768,8,4 --call up-32-32-s6=8,32,32,12,32768,6,3 \
  --call s7k7=4,32,32,7,32768,7,0 --call s5d2k5=8,32,64,5,65536,5,2,2 \
  --variant noroute=dispatch.PIPE_ROUTE:False --variant nco16=dispatch.PIPE_NCO32_MAX_N:64 > $OUT/ab_new.txt 2>&1
echo "ab new rc=$?"; grep -E "^\S.*torch|median" $OUT/ab_new.txt | cut -c1-250
cd ..
timeout 200 python3 -m pytest -q -n 16 -p no:cacheprovider tests/test_gpu.py -rf \
  -k "pipe or nonfinite or extreme_magnitudes or wide_dynamic" > $OUT/gpu_tests.log 2>&1
tail -2 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
