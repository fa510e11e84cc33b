#!/usr/bin/env bash
# Session 35 run 2: the routed tests on the one-stage shapes, then an A/B of the new
# PIPE_SHAPES against session 34's on every call whose shape changes, and the seed forced
# onto ct1d_pipe (its shape there is now (4, 1, 2)).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 8)
timeout 200 python3 -m pytest -m gpu -v -W ignore "${par[@]}" tests/test_gpu.py tests/test_compile.py \
  -k "random_configurations or pipe or dependent_calls" -p no:cacheprovider > "$OUT/gpu_tests.log" 2>&1
tail -4 "$OUT/gpu_tests.log"; grep -c PASSED "$OUT/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/gpu_tests.log" | head
OLD='((4,3,2),(4,2,2),(4,3,1),(4,2,1),(3,3,2),(3,2,2),(3,3,1),(3,2,1),(2,3,2),(2,2,2),(2,3,1),(1,3,2))'
cd benchmarks && timeout 270 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 up-32-32-s4 \
  g8-256-k8-s4 g16-512-k16-s8 sd-s2d1k7 --rounds 3 \
  --call c64o128k3s3=8,64,128,3,65536,3,0,1 --call c32k5s5=8,32,32,5,65536,5,0,1 \
  --call c64k7s7=8,64,64,7,32768,7,0,1 --call c64o32k4s2=16,64,32,4,65536,2,2,1 \
  --call c32k8s4=8,32,32,8,65535,4,2,1 --call c32o64k5s5d2=8,32,64,5,65536,5,2,2 \
  --variant "old=dispatch.PIPE_SHAPES:$OLD" > "$OUT/ab_shapes.txt" 2>&1
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_shapes.txt"; tail -2 "$OUT/ab_shapes.txt"
timeout 60 python3 ab_variant.py auto seed --rounds 3 --variant "pipe=dispatch.PIPE_ANY_L_MIN_STEPS:0" \
  --variant "pipe_old=dispatch.PIPE_ANY_L_MIN_STEPS:0,dispatch.PIPE_SHAPES:$OLD" > "$OUT/ab_seed.txt" 2>&1
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_seed.txt"; tail -2 "$OUT/ab_seed.txt"
