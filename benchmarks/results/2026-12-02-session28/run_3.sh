# Session 28 run 3: CT1D_MMA_W_ONCE on the warpgroup calls run 2 did not time, sd-s2d4k4
# again (5% slower in run 2), and bf16 versions of the calls that gained.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 280 python3 ab_variant.py auto sd-s2d4k4 sd-s2d2k3-c64 sd-s1d4k3 sd-s2d1k7 encodec-s2 hifigan-u4-b4-long g8-256-k8-s4 sd-s4d3k5 seed-fp16 seed-bias --rounds 5 --variant two_pass=CT1D_MMA_W_ONCE:0 > $OUT/ab_w_once_more.txt 2>&1
timeout 200 python3 ab_variant.py auto hifigan-u4-b16 up-64-64-s3 g16-512-k16-s8 sd-s5d1k11 sd-s2d4k4 sd-s3d2k5 --dtype bfloat16 --rounds 3 --variant two_pass=CT1D_MMA_W_ONCE:0 > $OUT/ab_w_once_bf16.txt 2>&1
grep -hE "^[a-z].*torch|median" $OUT/ab_w_once_more.txt $OUT/ab_w_once_bf16.txt
# Outcome (W_ONCE / two passes, medians of 5 rounds, ms): hifigan-u4-b4-long 0.235 /
# 0.249, sd-s2d2k3-c64 0.451 / 0.471, sd-s4d3k5 0.125 / 0.129, sd-s2d1k7 0.187 / 0.191,
# g8-256-k8-s4 0.165 / 0.168, seed-bias 0.414 / 0.418, encodec-s2 0.290 / 0.292;
# seed-fp16 and sd-s1d4k3 equal; sd-s2d4k4 0.158 / 0.150 again. bf16 (3 rounds): all six
# equal. NVRTC 13.0 SASS (benchmarks/nvrtc_sass.py, on the CPU): sd-s2d4k4 spills more
# with W_ONCE (29 LDL / 25 STL against 16 / 15), sd-s2d2k3-c64 no longer spills (0 / 0
# against 8 / 7); the others' SASS spills are unchanged or within 3 instructions.
