#!/usr/bin/env bash
# Session 46 run 7 (H200): the new ct1d_pipe rule (64-channel WS blocks, 2 + 2 before
# 2 + 1 for long reductions, no WS for narrow calls whose tiles write < 1.5x their x
# window) against session 45's (old), 3 rounds; the sweep; the pipe family's GPU tests
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
calls="hifigan-u4-b16 encodec-s2 sd-s2d2k3-c64 up-32-16-s2 up-32-32-s4 up-16-16-s8 sd-s2d1k7
       sd-s1d4k3 sd-s5d1k11 g4-128-k4-s2 g8-256-k8-s4 g16-512-k16-s8 small-16-16-k3"
(cd benchmarks && timeout 200 python3 ab_variant.py auto $calls --rounds 3 \
   --call "c64-s1k3=16,64,64,3,65536,1,1,1" --call "up-32-64-s2=16,32,64,4,65536,2,1,1" \
   --variant "old=dispatch.PIPE_WS_NCO64_MAX_N:0,dispatch.PIPE_WS_MIN_OUT_X:0.0,dispatch.PIPE_WS_LONG:((3, 1, 5, 1), (3, 1, 5, 2), (2, 1, 5, 1))") > "$OUT/ab_rule.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_rule.txt"
grep -E "^[a-z0-9-]+ \(|median|rc" "$OUT/ab_rule.txt" | cut -c1-150
OUT=$OUT/bench bash benchmarks/device_run.sh bench > "$OUT/bench_log.txt" 2>&1
echo "bench rc $?"; tail -12 "$OUT/bench_log.txt"
timeout 280 python3 -m pytest -m gpu -n 16 -q tests/test_gpu.py -k "pipe or nonfinite or extreme or wide_dynamic" > "$OUT/tests_pipe.txt" 2>&1
echo "tests rc $?" >> "$OUT/tests_pipe.txt"; tail -3 "$OUT/tests_pipe.txt"
