#!/usr/bin/env bash
# Session 47 run 1 (H200 only): session 46's run_13 A/B (rows of y of any length up to 16
# k16 steps on ct1d_pipe, `any16`; the H100's rule since this session), then, with any16
# patched into this copy of the tree, the pipe family's GPU tests and the sweep, so one
# warm machine answers both; last, other WS shapes for the 8-step 64-input-channel calls
# and the near-80% narrow ones (session 44 tried them on an H100 only)
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
grep -q H200 "$OUT/gpu.txt" || { echo "not an H200: nothing run"; exit 3; }
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
(cd benchmarks && timeout 150 python3 ab_variant.py auto sd-s2d4k4 --rounds 5 \
   --call "c64-s1k4=8,64,64,4,65536,1,1,1" --call "c32-s1k8=8,32,32,8,131072,1,3,1" \
   --call "c48-s1k5=8,48,48,5,65536,1,1,1" \
   --variant "any16=dispatch.PIPE_ANY_L_MAX_STEPS:16") > "$OUT/ab_any16.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_any16.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_any16.txt" | cut -c1-150
timeout 60 python3 -m pytest -m gpu -q -W ignore tests/test_gpu.py -p no:cacheprovider -k "device_card" \
  > "$OUT/card_test.log" 2>&1; echo "card test rc $?"; tail -1 "$OUT/card_test.log"   # (card "" here)
sed -i 's/^PIPE_ANY_L_MAX_STEPS = 12$/PIPE_ANY_L_MAX_STEPS = 16/' cupyconv/_dispatch.py
grep -n "^PIPE_ANY_L_MAX_STEPS" cupyconv/_dispatch.py
timeout 150 python3 -m pytest -m gpu -n 16 -q -W ignore tests/test_gpu.py -k "pipe_family" -p no:cacheprovider \
  > "$OUT/pipe_tests.log" 2>&1; echo "pipe tests rc $?"; tail -3 "$OUT/pipe_tests.log"
OUT=$OUT/bench timeout 180 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
tail -25 "$OUT/bench/bench.log" | cut -c1-160
sed -i 's/^PIPE_ANY_L_MAX_STEPS = 16$/PIPE_ANY_L_MAX_STEPS = 12/' cupyconv/_dispatch.py
(cd benchmarks && timeout 100 python3 ab_variant.py auto hifigan-u4-b16 encodec-s2 up-64-64-s3 \
   up-32-32-s4 up-16-16-s8 g8-256-k8-s4 --rounds 3 \
   --variant "ws22=dispatch.PIPE_WS_SHAPES:((2,2,5,1),(2,2,5,2),(2,2,4,1))" \
   --variant "ws31=dispatch.PIPE_WS_SHAPES:((3,1,5,1),(3,1,5,2),(3,1,4,1))") > "$OUT/ab_ws.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_ws.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_ws.txt" | cut -c1-150
