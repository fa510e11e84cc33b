#!/usr/bin/env bash
# For the next session with device time (prepared in session 66, not run). Each <= 9 min.
# Usage: run_next.sh tests | scan | h200
#   tests  (any sm_90 card) the GPU tests run 6-7 could not finish in the device time
#          left: the dispatcher's random calls (every family and dtype, now with the
#          16-bit narrow route) alone, then the narrow family's and the small
#          wide-reduction tests (~145 s + ~60 s in earlier sessions)
#   scan   (any sm_90 card) the 160-call float32 scan with the contiguous positions
#   h200   (an H200 only) session 65's run_4.sh: the sweep that refreshes results/h200/
#          and the scan; nothing on another card
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
gpu_tests() {
  timeout 280 python3 -m pytest -m gpu -q -rs -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
    -k "$1" > "$OUT/$2.log" 2>&1
  echo "$2 rc $?"; tail -n 3 "$OUT/$2.log" | cut -c1-300
}
case ${1:-} in
  tests) gpu_tests random_configurations tests_random
         gpu_tests "narrow_family or small_wide" tests_narrow ;;
  scan) (cd benchmarks && timeout 400 python3 shape_scan.py --no-compare --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1)
        echo "scan rc $?"; grep -E "calls:" "$OUT/scan.txt" ;;
  h200) OUT=$OUT bash benchmarks/results/2026-12-06-session65/run_4.sh ;;
  *) echo "usage: run_next.sh tests | scan | h200"; exit 2 ;;
esac
