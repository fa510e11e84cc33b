#!/usr/bin/env bash
# Session 59 run 1 (any sm_90 card): the sweep on the current code (results/h200/ is session
# 48's: the sweep's plans have not changed since, the kernels' sources have), then session
# 58's run_next.sh (ct1d_gemm_split as shipped on two fresh draws, 6 and 7).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
OUT=$OUT/bench timeout 200 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
tail -27 "$OUT/bench/bench.log" | cut -c1-170
mkdir -p "$OUT/split"
OUT=$OUT/split timeout 330 bash benchmarks/results/2026-12-06-session58/run_next.sh
tar -C "$OUT" -czf "$OUT/split.tgz" split && rm -rf "$OUT/split"
