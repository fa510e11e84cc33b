# Session 34 run 1: ct1d_pipe for rows of y of any length (ANY_L instances) and
# reductions of 9-16 k16 steps (blocks of 3 or 2 warpgroups). First the family's GPU tests
# (random calls: every other one ANY_L), then an A/B in one process of the calls these
# rules newly route to ct1d_pipe against the plans they had (noroute: ct1d_mma).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
timeout 200 python3 -m pytest -q -n 16 -p no:cacheprovider tests/test_gpu.py -rf \
  -k "pipe or wide_dynamic or extreme_magnitudes or nonfinite" > $OUT/gpu_tests.log 2>&1
tail -2 $OUT/gpu_tests.log; grep -E "FAILED|ERROR|Error" $OUT/gpu_tests.log | head
cd benchmarks
timeout 300 python3 ab_variant.py auto seed seed-bias sd-s2d2k3-c16 sd-s2d2k3-c64 sd-s3d2k5 sd-s2d4k4 --rounds 3 \
  --call up-32-16-odd=16,32,16,4,131071,2,1 --call hifigan-u4-p2=16,64,32,4,32768,2,2 \
  --call c64-s1k4=8,64,64,4,65536,1,0 --call c64-s1k3=8,64,64,3,65536,1,1 \
  --variant noroute=dispatch.PIPE_ROUTE:False > $OUT/ab_route.txt 2>&1
echo "ab rc=$?"; grep -E "^\S.*torch|median|err" $OUT/ab_route.txt | cut -c1-250
