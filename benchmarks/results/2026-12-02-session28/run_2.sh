# Session 28 run 2: CT1D_MMA_W_ONCE (warpgroup blocks read their weights in one coalesced
# pass, all of a thread's loads in flight, raw into the x/output tiles' shared memory, and
# split them from there) against the two global passes it replaces (a maximum pass, then
# channel pairs at one sector per element, 8 loads in flight each); then the warpgroup GPU
# tests on the new code.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
(cd benchmarks && timeout 300 python3 ab_variant.py auto seed seed-bf16 hifigan-u4-b16 up-64-64-s3 g16-512-k16-s8 sd-s5d1k11 up-32-32-s4 sd-s3d2k5 sd-s2d2k3-c16 up-32-16-s2 g4-128-k4-s2 sd-s2d4k4 --rounds 5 --variant two_pass=CT1D_MMA_W_ONCE:0) > $OUT/ab_w_once.txt 2>&1
timeout 270 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "warpgroup or overlapping" -n 16 > $OUT/gpu_tests_wg.txt 2>&1
tail -4 $OUT/gpu_tests_wg.txt; grep -E "^[a-z].*torch|median" $OUT/ab_w_once.txt
# Outcome: warpgroup GPU tests 47 passed (130 s). A/B, medians of 5 rounds (W_ONCE /
# two passes, ms): seed 0.399 / 0.405, bf16 seed 0.219 / 0.220 (this machine), hifigan-u4-b16
# 0.140 / 0.144, up-64-64-s3 0.414 / 0.425, sd-s3d2k5 0.195 / 0.200, sd-s5d1k11 0.070 /
# 0.073, g16-512-k16-s8 0.066 / 0.071; up-32-16-s2, up-32-32-s4, sd-s2d2k3-c16, g4 equal;
# sd-s2d4k4 0.158 / 0.150 (slower in 5 of 5 rounds).
