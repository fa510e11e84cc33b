# Session 25 run 5: the two-block float32 warpgroup instances that spill at 128 registers
# (nvcc -Xptxas -v: sd-s2d1k7 148 bytes, sd-s2d4k4 32, sd-s5d1k11 20, sd-s2d2k3-c64 20,
# sd-s1d4k3 12; bf16 g16-512-k16-s8 16) compiled for one block per SM instead
# (CT1D_MMA_MINB1: more registers, half the resident warps), against the shipped build;
# the seed and up-32-16-s2 (no spills) as controls.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cc
cd benchmarks
timeout 250 python3 ab_variant.py auto sd-s2d1k7 sd-s2d4k4 sd-s5d1k11 sd-s2d2k3-c64 sd-s1d4k3 seed \
  up-32-16-s2 --rounds 5 --variant minb1=CT1D_MMA_MINB1:1 > "$OUT/ab_minb1.txt" 2>&1
echo "ab rc=$?"; grep -E "^[a-z].*torch|median" "$OUT/ab_minb1.txt"
timeout 100 python3 ab_variant.py auto g16-512-k16-s8 sd-s2d1k7 --dtype bfloat16 --rounds 5 \
  --variant minb1=CT1D_MMA_MINB1:1 > "$OUT/ab_minb1_bf16.txt" 2>&1
echo "ab bf16 rc=$?"; grep -E "^[a-z].*torch|median" "$OUT/ab_minb1_bf16.txt"
