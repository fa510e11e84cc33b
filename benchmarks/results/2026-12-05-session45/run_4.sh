#!/usr/bin/env bash
# Session 45 run 4: the shipped change (WS producers of 64-channel windows unrolled,
# CT1D_PIPE_WS_UNROLL=8; 2+1 WS blocks for 64-channel 8-step calls of <= 64 GEMM columns,
# PIPE_WS_WIDE) against session 44's code (s44), the unroll without the new rule (wideoff)
# and the unroll everywhere (unrollall: run 3's sd-s2d1k7 regression?); medians of 4
# rounds in one process. Then the family's GPU tests and, with what is left, the sweep.
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
calls="hifigan-u4-b16 encodec-s2 up-64-64-s3 hifigan-u4-b4-long sd-s2d2k3-c64 up-32-16-s2 up-32-32-s4
       up-16-16-s8 sd-s2d1k7 sd-s1d4k3 sd-s5d1k11 g4-128-k4-s2 g16-512-k16-s8 g8-256-k8-s4"
(cd benchmarks && timeout 190 python3 ab_variant.py auto $calls --rounds 4 \
   --variant "s44=CT1D_PIPE_WS_UNROLL:99,dispatch.PIPE_WS_WIDE:()" \
   --variant "wideoff=dispatch.PIPE_WS_WIDE:()" \
   --variant "unrollall=CT1D_PIPE_WS_UNROLL:0") > "$OUT/ab_wide.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_wide.txt"
grep -E "^[a-z0-9-]+ \(|median" "$OUT/ab_wide.txt" | head -60
timeout 140 python3 -m pytest -m gpu -q -n 16 -p no:cacheprovider tests/test_gpu.py -W ignore \
   -k "pipe or nonfinite or extreme or wide_dynamic" > "$OUT/tests_pipe.txt" 2>&1
tail -2 "$OUT/tests_pipe.txt"
OUT=$OUT/bench timeout 110 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A14 "issue 4's targets" "$OUT/bench/bench.log" | head -16
