# Session 28 run 4: W_ONCE's loads in rounds of 16 per thread (CT1D_MMA_W_ONCE_BATCH 16;
# NVRTC SASS: sd-s2d4k4 18 LDL / 17 STL, sd-s2d2k3-c64 1 / 1) against all at once (64)
# and the two passes, on the calls that moved.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
cd benchmarks
timeout 400 python3 ab_variant.py auto seed sd-s2d4k4 sd-s2d2k3-c64 hifigan-u4-b4-long g16-512-k16-s8 sd-s5d1k11 up-64-64-s3 sd-s3d2k5 sd-s2d1k7 --rounds 5 --variant b16=CT1D_MMA_W_ONCE_BATCH:16 --variant two_pass=CT1D_MMA_W_ONCE:0 > $OUT/ab_w_once_batch.txt 2>&1
grep -hE "^[a-z].*torch|median" $OUT/ab_w_once_batch.txt
# Outcome (medians of 5 rounds, ms; all at once / rounds of 16 / two passes): seed 0.402 /
# 0.407 / 0.415, sd-s2d4k4 0.164 / 0.155 / 0.160, sd-s2d2k3-c64 0.443 / 0.447 / 0.459,
# up-64-64-s3 0.415 / 0.412 / 0.424, hifigan-u4-b4-long 0.238 / 0.240 / 0.244, g16 0.067 /
# 0.069 / 0.073, sd-s5d1k11 0.077 / 0.077 / 0.080, sd-s2d1k7 0.191 / 0.190 / 0.194,
# sd-s3d2k5 0.196 / 0.198 / 0.198. Shipped: equal rounds of at most 24 (the seed and
# sd-s2d2k3-c64 in one round, the 32-load instances in two of 16).
