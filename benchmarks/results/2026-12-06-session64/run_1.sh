#!/usr/bin/env bash
# Session 64, run 1 (one device command, <= 10 min): on an H200, first the benchmark sweep
# (refreshes issue 4's H200 record, last taken in session 48); on any other sm_90 card, the
# prepared ct1d_gemm rederive A/B instead. Then session 63's prepared run 8 (one A fragment
# set in ct1d_wgmma's 3xFP16 instances, and the wgmma GPU tests with it).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
S63=benchmarks/results/2026-12-06-session63
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
if grep -q H200 "$OUT/gpu.txt"; then
  OUT=$OUT/bench timeout 250 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
  tail -n 12 "$OUT/bench/bench.log" | cut -c1-170
else
  OUT=$OUT/gemm_rederive bash $S63/run_next_gemm_rederive.sh
fi
OUT=$OUT/one_a bash $S63/run_8.sh
