#!/usr/bin/env bash
# For the next session with device time (prepared in session 65, not run). Each <= 9 min.
# Usage: run_next.sh h200 | narrow | contig-out | contig-tests
#   h200          (an H200 only) the sweep that refreshes results/h200/ and the 160-call scan
#   narrow        (any sm_90 card) run_12.sh in (ct1d_narrow with contiguous positions per
#                 thread, 38 calls) and run_13.sh (512-thread blocks for small wide
#                 reductions, 44 calls)
#   contig-out    run_12.sh out (the 43 calls not looked at), if `narrow` favours CONTIG
#   contig-tests  run_12.sh tests (the narrow family's GPU tests with CONTIG on)
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
R=benchmarks/results/2026-12-06-session65
case ${1:-} in
  h200) OUT=$OUT bash $R/run_4.sh ;;
  narrow) OUT=$OUT/contig bash $R/run_12.sh in; OUT=$OUT/threads bash $R/run_13.sh ;;
  contig-out) OUT=$OUT bash $R/run_12.sh out ;;
  contig-tests) OUT=$OUT bash $R/run_12.sh tests ;;
  *) echo "usage: run_next.sh h200 | narrow | contig-out | contig-tests"; exit 2 ;;
esac
