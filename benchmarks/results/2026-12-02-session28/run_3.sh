# Session 28 run 3: CT1D_MMA_W_ONCE on the warpgroup calls run 2 did not time, sd-s2d4k4
# again (5% slower in run 2), and bf16 versions of the calls that gained.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 280 python3 ab_variant.py auto sd-s2d4k4 sd-s2d2k3-c64 sd-s1d4k3 sd-s2d1k7 encodec-s2 hifigan-u4-b4-long g8-256-k8-s4 sd-s4d3k5 seed-fp16 seed-bias --rounds 5 --variant two_pass=CT1D_MMA_W_ONCE:0 > $OUT/ab_w_once_more.txt 2>&1
timeout 200 python3 ab_variant.py auto hifigan-u4-b16 up-64-64-s3 g16-512-k16-s8 sd-s5d1k11 sd-s2d4k4 sd-s3d2k5 --dtype bfloat16 --rounds 3 --variant two_pass=CT1D_MMA_W_ONCE:0 > $OUT/ab_w_once_bf16.txt 2>&1
grep -hE "^[a-z].*torch|median" $OUT/ab_w_once_more.txt $OUT/ab_w_once_bf16.txt
