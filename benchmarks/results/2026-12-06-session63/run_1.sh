#!/usr/bin/env bash
# Session 63, run 1: session 62's prepared A/B (LEAN's copy-out alone in the 3xFP16
# instances), then, on an H200 only, the benchmark sweep (results/h200 is session 48's).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
git log -1 --format=%h > "$OUT/commit.txt" 2>/dev/null
OUT=$OUT/lean_out bash benchmarks/results/2026-12-06-session62/run_next_lean_out.sh
if grep -q H200 "$OUT/lean_out/gpu.txt"; then
  OUT=$OUT/bench timeout 260 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
  tail -12 "$OUT/bench/bench.log" | cut -c1-170
fi
