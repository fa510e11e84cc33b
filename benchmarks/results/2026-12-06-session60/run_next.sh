#!/usr/bin/env bash
# For the next session with device time. Session 60's two ct1d_wgmma rules and session 59's
# split rules were measured on H100s only, and its final code had no 160-call scan.
# Usage: run_next.sh h200 | scan
#   h200  (an H200 only; ~7 min): session 59's run_next.sh h200 (its cluster slots, every
#         split size on draw 10, the small wide-reduction calls of draws 8-9 on both
#         families, the sweep), then the 3xFP16 rule's out-of-sample calls (run 3's) on
#         this card
#   scan  (any sm_90 card; ~2 min): the 160-call scan (seed 0) on this code
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session60
case ${1:-} in
  h200)
    OUT=$OUT/s59 bash benchmarks/results/2026-12-06-session59/run_next.sh h200 || exit $?
    calls=(); while read -r s; do calls+=(--call "$s"); done < $R/wgmma_calls_2_5.txt
    timeout 240 python3 benchmarks/ab_variant.py ct1d_wgmma "${calls[@]}" --rounds 3 \
      --variant tf32=dispatch.WGMMA_F16X3_MIN_NC:99 --variant f3=dispatch.WGMMA_F16X3_MIN_NC:1 \
      > "$OUT/ab_calls_2_5.txt" 2>&1
    echo "ab rc $?"; grep -c median "$OUT/ab_calls_2_5.txt" ;;
  scan)
    nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
    (cd benchmarks && timeout 150 python3 shape_scan.py --no-compare --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1)
    echo "scan rc $?"; grep -E "calls:" "$OUT/scan.txt" ;;
  *) echo "usage: run_next.sh h200 | scan"; exit 2 ;;
esac
