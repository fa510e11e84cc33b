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
# Outcome (medians of 5 rounds, ms; split at 12 / one segment / split at 8; errors vs
# float64): sd-s2d4k4 0.151 / 0.155 / 0.151 (5 of 5 rounds; 2.0e-7 / 3.5e-7),
# 64->64 K=4 S=1 0.250 / 0.257 / 0.247, 64->64 K=4 S=2 D=2 0.255 / 0.261 / 0.255,
# 32->32 K=7 S=1 0.118 / 0.113 / 0.117 (5 of 5 rounds slower; 1.9e-7 / 3.1e-7),
# 32->32 K=8 S=1 0.123 all, 16->16 K=15 S=1 0.083 / 0.082 / 0.084, 32->32 K=16 S=2
# 0.197 / 0.197 / 0.196; unaffected chains (seed, sd-s1d4k3, 64->64 K=16 S=2) equal;
# splitting from 9 steps makes sd-s2d2k3-c64 (12 steps) 0.444 -> 0.453 (more accurate:
# 2.7e-7 -> 1.7e-7). 13-16-step chains in two segments read 1.9-2.0e-7 against 3.1-3.5e-7.
# Shipped: split at 12. GPU tests (split chains, long reductions, warpgroup random
# calls): 35 passed. Sweep on this code (h200/; copy 4.21 TB/s, GEMM 739 TFLOP/s): seed
# 0.399 ms (79.9%), bf16 0.210, geomean 5.02x, 40 of 40, sd-s2d4k4 0.146 -> 0.138.
