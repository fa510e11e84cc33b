# Session 25 run 2: run 1's write_floor read its seed skeleton faster with short-lived
# blocks (grid 132 x 16 items, 8 tiles each: 0.381 ms) than with 33 x 16 (0.394). Does the
# kernel gain the same? ct1d_mma's warpgroup blocks without the item loop, 33 / 66 / 132
# blocks per item (2 / 4 / 8 waves of short-lived blocks), against the shipped item loop.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1; cd benchmarks
V="--variant w2=dispatch.MMA_ITEM_LOOP:False --variant w4=dispatch.MMA_ITEM_LOOP:False,waves.ct1d_mma:4 --variant w8=dispatch.MMA_ITEM_LOOP:False,waves.ct1d_mma:8"
timeout 400 python3 ab_variant.py auto seed seed-bf16 seed-fp16 up-32-16-s2 sd-s2d2k3-c16 encodec-s2 \
  hifigan-u4-b16 g4-128-k4-s2 sd-s1d4k3 sd-s2d1k7 --rounds 5 $V > "$OUT/ab_item_loop.txt" 2>&1
echo "ab rc=$?"; grep -E "^[a-z].*torch|median" "$OUT/ab_item_loop.txt"
