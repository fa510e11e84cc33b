#!/usr/bin/env bash
# Session 35 run 1: the pipe family's random-call tests (one-stage rings among them), then an
# A/B of one-stage ring shapes on the sweep's ct1d_pipe calls.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 8)
timeout 240 python3 -m pytest -m gpu -v -W ignore "${par[@]}" tests/test_gpu.py -k "pipe_family_random" \
  -p no:cacheprovider > "$OUT/gpu_tests.log" 2>&1; tail -8 "$OUT/gpu_tests.log"
S1='((4,3,2),(4,2,2),(4,3,1),(4,2,1),(4,1,2),(4,1,1),(3,3,2),(3,2,2),(3,1,2),(3,3,1),(3,2,1),(2,3,2),(2,2,2),(2,3,1),(1,3,2))'
B2='((4,3,2),(4,2,2),(4,1,2),(4,3,1),(4,2,1),(4,1,1),(3,3,2),(3,2,2),(3,1,2),(3,3,1),(3,2,1),(2,3,2),(2,2,2),(2,3,1),(1,3,2))'
W3='((4,3,2),(4,2,2),(4,3,1),(4,2,1),(3,3,2),(3,2,2),(3,1,2),(3,3,1),(3,2,1),(4,1,1),(2,3,2),(2,2,2),(2,3,1),(1,3,2))'
cd benchmarks && timeout 330 python3 ab_variant.py auto hifigan-u4-b16 encodec-s2 up-32-32-s4 up-64-64-s3 \
  g8-256-k8-s4 g16-512-k16-s8 sd-s2d2k3-c64 sd-s2d1k7 --rounds 3 \
  --variant "s1=dispatch.PIPE_SHAPES:$S1" --variant "b2=dispatch.PIPE_SHAPES:$B2" \
  --variant "w3b2=dispatch.PIPE_SHAPES:$W3" > "$OUT/ab_stages.txt" 2>&1
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_stages.txt"; tail -3 "$OUT/ab_stages.txt"
