#!/usr/bin/env bash
# For the next session with device time (prepared in session 64, not run; <= 10 min):
# the 160-call random scan with session 64's rule and kernel (README's scan table), then
# on an H200 the benchmark sweep that refreshes issue 4's record (results/h200/, session
# 48's). The older H200 checks: results/2026-12-06-session61/run_next.sh h200.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
(cd benchmarks && timeout 240 python3 shape_scan.py --no-compare --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1)
echo "scan rc $?"; tail -n 1 "$OUT/scan.txt" | cut -c1-200
if grep -q H200 "$OUT/gpu.txt"; then
  OUT=$OUT/bench timeout 280 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
  tail -n 12 "$OUT/bench/bench.log" | cut -c1-170
fi
