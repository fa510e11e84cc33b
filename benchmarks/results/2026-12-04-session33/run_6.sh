# Session 33 run 6: five warpgroups per block for the ct1d_pipe calls whose shared memory
# allows it (up to 96 registers per thread: small spills, sd-s2d1k7 29 loads). A/B in one
# process (w5: 5-warpgroup shapes first), then the family's random calls with the shapes
# forced, five warpgroups among them.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
W5="((5,3,2),(5,2,2),(5,3,1),(5,2,1),(4,3,2),(4,2,2),(4,3,1),(4,2,1),(3,3,2),(3,2,2),(3,3,1),(3,2,1),(2,3,2),(2,2,2),(2,3,1),(1,3,2))"
W52="((5,2,2),(5,2,1),(4,3,2),(4,2,2),(4,3,1),(4,2,1),(3,3,2),(3,2,2),(3,3,1),(3,2,1),(2,3,2),(2,2,2),(2,3,1),(1,3,2))"
timeout 200 python3 ab_variant.py auto up-32-16-s2 up-16-16-s8 sd-s1d4k3 g4-128-k4-s2 sd-s2d1k7 --rounds 3 \
  --call s7k7=4,32,32,7,32768,7,0 \
  --variant w5="dispatch.PIPE_SHAPES:$W5" --variant w5s2="dispatch.PIPE_SHAPES:$W52" > $OUT/ab_w5.txt 2>&1
echo "ab rc=$?"; grep -E "^\S.*torch|median" $OUT/ab_w5.txt | cut -c1-250
cd ..
timeout 200 python3 -m pytest -q -n 16 -p no:cacheprovider tests/test_gpu.py -rf \
  -k "pipe_family_random" > $OUT/gpu_tests.log 2>&1
tail -2 $OUT/gpu_tests.log; grep -E "FAILED|ERROR" $OUT/gpu_tests.log | head
