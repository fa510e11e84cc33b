#!/usr/bin/env bash
# Session 65 run 4+ (<= 9 min). On an H200: the benchmark sweep that refreshes issue 4's
# record (results/h200/, last from session 48), then the 160-call scan. On any other card
# nothing (the device time is kept for an H200), unless SUITE=K/2 asks for one shard of
# the whole GPU suite.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
if grep -q H200 "$OUT/gpu.txt"; then
  OUT=$OUT/bench timeout 300 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
  grep -A12 "issue 4's targets" "$OUT/bench/bench.log" | cut -c1-200
  (cd benchmarks && timeout 230 python3 shape_scan.py --no-compare --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1)
  echo "scan rc $?"; grep -E "calls:" "$OUT/scan.txt"
elif [[ -n ${SUITE:-} ]]; then
  OUT=$OUT/suite bash benchmarks/results/2026-12-06-session61/run_suite.sh "$SUITE"
fi
