#!/usr/bin/env bash
# Session 67, the last device minutes: on an H200 only, the benchmark sweep (about 40 s
# there in session 48; refreshes issue 4's record, results/h200/) and then the 160-call
# scan. On any other card nothing but the card's name (the time is kept).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
grep -q H200 "$OUT/gpu.txt" || exit 0
OUT=$OUT/bench timeout ${BENCH_S:-150} bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
grep -A12 "issue 4's targets" "$OUT/bench/bench.log" | cut -c1-200
(cd benchmarks && timeout ${SCAN_S:-90} python3 shape_scan.py --no-compare --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1)
echo "scan rc $?"; grep -E "calls:" "$OUT/scan.txt"
