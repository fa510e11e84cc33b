#!/usr/bin/env bash
# Session 45 run 3: ct1d_pipe's WS producers with their x-window passes unrolled
# (CT1D_PIPE_WS_UNROLL=1, shipped here) against rolled (0, session 44's code), without WS
# blocks, and with WS blocks on every call (64-channel 8-step calls included: 2+1, 2+2);
# medians of 2 rounds in one process, errors against float64. Then the family's GPU tests
# (the three WS shapes and the rule), then the sweep with what remains of the time.
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
calls="hifigan-u4-b16 encodec-s2 up-64-64-s3 hifigan-u4-b4-long sd-s2d2k3-c64 up-32-16-s2 up-32-32-s4
       up-16-16-s8 sd-s2d1k7 sd-s1d4k3 sd-s5d1k11 g4-128-k4-s2 g16-512-k16-s8 g8-256-k8-s4"
(cd benchmarks && timeout 330 python3 ab_variant.py auto $calls --rounds 2 \
   --variant "rolled=CT1D_PIPE_WS_UNROLL:0" --variant "noWS=dispatch.PIPE_WS:False" \
   --variant "ws21=dispatch.PIPE_WS_SHAPES:((2,1,5,2),(2,1,4,2),(2,1,4,1))" \
   --variant "ws22=dispatch.PIPE_WS_SHAPES:((2,2,5,2),(2,2,5,1))") > "$OUT/ab_unroll.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_unroll.txt"
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_unroll.txt" | head -60
timeout 130 python3 -m pytest -m gpu -q -n 16 -p no:cacheprovider tests/test_gpu.py -W ignore \
   -k "pipe or nonfinite or extreme or wide_dynamic" > "$OUT/tests_pipe.txt" 2>&1
tail -2 "$OUT/tests_pipe.txt"
OUT=$OUT/bench timeout 200 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A14 "issue 4's targets" "$OUT/bench/bench.log" | head -16
