#!/usr/bin/env bash
# Session 48 run 7: on an H200 run_h200.sh; on an H100 Nsight Compute stall profiles of
# sd-s2d2k3-c64 (62% of copy on both cards; 64-channel 2 + 2 WS block) and up-32-32-s4
# (2 + 2 WS, 86% on the H100) for comparison
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
if grep -q H200 "$OUT/gpu.txt"; then exec bash benchmarks/results/2026-12-05-session48/run_h200.sh; fi
export CUPY_CACHE_DIR=/tmp/cupyconv-cache
OUT=$OUT timeout 400 bash benchmarks/ncu_stalls.sh ct1d_pipe sd-s2d2k3-c64 up-32-32-s4
for f in "$OUT"/ncu_*.txt; do echo "== $f"; sed -n '/total samples/,/top instructions/p' "$f" | head -16; done
