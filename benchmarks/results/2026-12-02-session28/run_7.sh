# Session 28 run 7: the shipped W_ONCE (equal rounds of at most 24) against the two passes
# on the calls whose rounds differ from run 4's variants (up-64-64-s3: 2 x 24, sd-s5d1k11:
# 2 x 22) and on the 32-load ones (2 x 16).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 200 python3 ab_variant.py auto up-64-64-s3 sd-s5d1k11 g16-512-k16-s8 hifigan-u4-b16 sd-s2d4k4 seed --rounds 5 --variant two_pass=CT1D_MMA_W_ONCE:0 > $OUT/ab_w_once_final.txt 2>&1
grep -hE "median" $OUT/ab_w_once_final.txt
# Outcome (a slow machine: the seed read 0.423 ms; shipped / two passes, medians of 5
# rounds): seed 0.423 / 0.426, hifigan-u4-b16 0.141 / 0.146, up-64-64-s3 0.432 / 0.442,
# sd-s2d4k4 0.158 / 0.161, sd-s5d1k11 0.076 / 0.080, g16-512-k16-s8 0.074 / 0.078: the
# shipped rounds are faster on all six.
