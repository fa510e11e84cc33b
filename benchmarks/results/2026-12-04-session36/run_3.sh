#!/usr/bin/env bash
# Session 36 run 3: run 2's uniform copies were slower on most calls (a lane test and the
# address arithmetic per row, serial). Now lane 0 issues all of a warp's rows, unrolled
# (CT1D_PIPE_UNIFORM_COPIES 1), ANY_L's row ends by the row's lane; A/B of the two knobs
# against session 35's code (both 0: NVRTC SASS identical to session 35's on all 30 sweep
# instances), the pipe tests, and run 2's shape variants again on top.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 12)
timeout 150 python3 -m pytest -m gpu -v -W ignore "${par[@]}" tests/test_gpu.py -k "pipe" \
  -p no:cacheprovider > "$OUT/gpu_tests.log" 2>&1
tail -2 "$OUT/gpu_tests.log"; grep -E "FAILED|ERROR" "$OUT/gpu_tests.log" | head
cd benchmarks
CALLS="--call anyl64o32=16,64,32,4,65536,2,2,1 --call x4c32k8s4=8,32,32,8,65535,4,2,1"
timeout 240 python3 ab_variant.py auto hifigan-u4-b16 hifigan-u4-b4-long encodec-s2 \
  up-32-16-s2 up-32-32-s4 up-16-16-s8 up-64-64-s3 sd-s2d2k3-c64 sd-s2d1k7 sd-s1d4k3 sd-s5d1k11 \
  g4-128-k4-s2 g8-256-k8-s4 g16-512-k16-s8 $CALLS --rounds 3 \
  --variant "s35=CT1D_PIPE_UNIFORM_COPIES:0,CT1D_PIPE_UNIFORM_IDX:0" \
  --variant "idx=CT1D_PIPE_UNIFORM_COPIES:0" --variant "cop=CT1D_PIPE_UNIFORM_IDX:0" > "$OUT/ab_copies.txt" 2>&1
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_copies.txt"; tail -1 "$OUT/ab_copies.txt"
SH='((4,3,2),(4,2,2),(4,1,2),(4,3,1),(4,2,1),(4,1,1),(3,3,2),(3,2,2),(3,3,1),(3,2,1),(3,1,2),(3,1,1),(2,3,2),(2,2,2),(2,3,1),(1,3,2))'
W5="((5,3,2),(5,2,2),(5,3,1),(5,2,1),${SH:1}"
timeout 150 python3 ab_variant.py auto up-32-16-s2 sd-s1d4k3 g4-128-k4-s2 up-16-16-s8 $CALLS --rounds 3 \
  --variant "onestage=dispatch.PIPE_ONE_STAGE_ANY_L:True,dispatch.PIPE_ONE_STAGE_X4:True" \
  --variant "wg5=dispatch.PIPE_WG5_MAX_REGS:80,dispatch.PIPE_SHAPES:$W5" > "$OUT/ab_shapes.txt" 2>&1
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_shapes.txt"; grep -E "ct1d_pipe<" "$OUT/ab_shapes.txt" | grep -o "ct1d_pipe<[^>]*>" | sort | uniq -c
