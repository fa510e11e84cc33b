# Session 29 run 2: float32 warpgroup chains of 13-16 k16 steps in two segments
# (CT1D_MMA_WG_SPLIT_ABOVE 12, provisionally the default here) against one (16, session
# 28's code) and against splitting from 9 steps (8). NVRTC 13.0 SASS: one segment spills
# on most such instances (sd-s2d4k4 18 LDL / 17 STL -> 0 / 0, 64->64 K=4 S=1 36 / 17 ->
# 0 / 0, 32->32 K=7 S=1 58 / 32 -> 39 / 25; 16->16 K=15 S=1 48 / 34 -> 57 / 45).
# Then the GPU tests of split chains and long reductions, and the sweep.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
C="--call c32k7s1=8,32,32,7,65536,1,3 --call c32k8s1=8,32,32,8,65536,1,3 --call c64k4s1=8,64,64,4,65536,1,1 --call c64k4s2d2=8,64,64,4,65536,2,3,2 --call c16k15s1=8,16,16,15,65536,1,7 --call c32k16s2=8,32,32,16,65536,2,7 --call c64k3s1d2=8,64,32,3,65536,1,2,2 --call c64k16s2=8,64,64,16,65536,2,7"
(cd benchmarks && timeout 250 python3 ab_variant.py auto sd-s2d4k4 seed sd-s2d2k3-c64 sd-s1d4k3 $C --rounds 5 --variant one_seg=CT1D_MMA_WG_SPLIT_ABOVE:16 --variant split8=CT1D_MMA_WG_SPLIT_ABOVE:8) > $OUT/ab_split_above.txt 2>&1
grep -hE "^[a-z].*torch|median" $OUT/ab_split_above.txt
timeout 120 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "split_chains or long_reductions or warpgroup_random" -n 16 > $OUT/gpu_tests_split.txt 2>&1; tail -2 $OUT/gpu_tests_split.txt
mkdir -p $OUT/h200; OUT=$OUT/h200 timeout 200 bash benchmarks/device_run.sh bench > $OUT/bench_stdout.txt 2>&1
grep -A10 "^issue 4's targets" $OUT/h200/bench.log | cut -c1-160
