#!/usr/bin/env bash
# Session 71 run 1 (any sm_90 card, one 10-minute command): what session 70 prepared.
# On an H200: the sweep that refreshes results/h200/ and the scan first (run_next.sh h200).
# Then, on any card: the float64 rule out of sample (run_next.sh f64), the DMMA probe
# (run_next.sh dmma), and GPU-suite shard ${SHARD:-1/2} in the time left. Everything goes
# into one tarball (the device returns at most 8 files), summaries into summary.txt.
set -uo pipefail
FINAL=${OUT:-benchmarks/results/local}; W=/tmp/s71run; rm -rf "$W"; mkdir -p "$W" "$FINAL"
NEXT=benchmarks/results/2026-12-07-session70/run_next.sh
pack() { tar -czf "$FINAL/run.tgz" -C "$W" . ; }
trap pack EXIT
{
  nvidia-smi --query-gpu=name,uuid --format=csv,noheader
  if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
    OUT=$W/h200 BENCH_S=150 SCAN_S=90 bash $NEXT h200
  fi
  OUT=$W/f64 bash $NEXT f64
  OUT=$W/dmma bash $NEXT dmma | tail -n 40
  left=$((575 - SECONDS))
  echo "suite ${SHARD:-1/2} with ${left} s left"
  if (( left > 200 )); then
    mkdir -p $W/suite; nvidia-smi --query-gpu=name,uuid --format=csv,noheader > $W/suite/gpu.txt
    GPU_TEST_SHARD=${SHARD:-1/2} OUT=$W/suite timeout $left bash benchmarks/device_run.sh tests > /dev/null 2>&1
    echo "suite rc $?"; tail -n 3 $W/suite/gpu_tests.log | cut -c1-300
  fi
} 2>&1 | tee "$W/summary.txt"
cp "$W/summary.txt" "$FINAL/summary.txt"
