# Session 34 run 2: the dead-class fill fixed for ANY_L (each warpgroup's buffers at its
# own offset), reductions up to 12 k16 steps. The family's GPU tests; then in one process:
# the dead-class ANY_L calls against ct1d_mma (noroute), hifigan-u4-b16 beside the same
# call with L_out = 2 mod 4 (hifigan-u4-p2: what ANY_L's element-wise row ends cost), x by
# 4-byte copies on an x-heavy call (32 -> 16, S = 2, L_in odd, L_out = 0 mod 4).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
timeout 200 python3 -m pytest -q -n 16 -p no:cacheprovider tests/test_gpu.py -rf \
  -k "pipe or wide_dynamic or extreme_magnitudes or nonfinite" > $OUT/gpu_tests.log 2>&1
tail -2 $OUT/gpu_tests.log; grep -E "FAILED|Error" $OUT/gpu_tests.log | head
cd benchmarks
timeout 300 python3 ab_variant.py auto seed sd-s2d2k3-c16 sd-s2d2k3-c64 hifigan-u4-b16 --rounds 3 \
  --call hifigan-u4-p2=16,64,32,4,32768,2,2 --call up-32-16-x4=16,32,16,4,131071,2,2 \
  --call c40-s2d2k3-odd=8,32,40,3,65536,2,1,2 \
  --variant noroute=dispatch.PIPE_ROUTE:False > $OUT/ab_route.txt 2>&1
echo "ab rc=$?"; grep -E "^\S.*torch|median" $OUT/ab_route.txt | cut -c1-250; grep -c nan $OUT/ab_route.txt
