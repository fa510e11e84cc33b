#!/usr/bin/env bash
# Session 68 run 1 (<= 9.5 min). On an H200: the sweep that refreshes results/h200/ and the
# 160-call scan (session 67's run_next.sh h200). On any other card: the benchmark sweep on
# that card's rules (the H100's last full sweep was session 47's), then session 67's
# prepared Nsight Compute profiles of ct1d_narrow's two thread layouts.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
R=benchmarks/results/2026-12-06-session67/run_next.sh
nvidia-smi --query-gpu=name,uuid --format=csv,noheader
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  OUT=$OUT bash $R h200
else
  OUT=$OUT/bench timeout 200 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
  grep -A12 "issue 4's targets" "$OUT/bench/bench.log" | cut -c1-200
  mkdir -p /tmp/prof && OUT=/tmp/prof bash $R profile 2>&1 | tail -n 20
  tar -C /tmp/prof -czf "$OUT/ncu_contig.tgz" . && ls /tmp/prof
fi
