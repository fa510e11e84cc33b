#!/usr/bin/env bash
# For the next session with device time (prepared in session 68, not run).
# Usage: run_next.sh rule | h200 | suite K/2 | profile
#   rule     (any card, ~3 min; run it first) session 68's run_5.sh: the GPU tests under
#            ct1d_scatter's pass rule (random calls forced onto ct1d_scatter, its edge
#            cases, determinism, the smaller-shared-memory fallback), then the rule
#            against the all-taps staging on fresh float64 calls
#   h200     (an H200 only) the benchmark sweep that refreshes results/h200/ (about 40 s
#            there in session 48), then the 160-call scan (session 67's run_10.sh)
#   suite    (an H200 only; K = 1 or 2, one command each, ~6 min) the whole GPU suite
#   profile  (any sm_90 card, ~2 min) session 67's Nsight Compute profiles of
#            ct1d_narrow's two thread layouts, as one archive
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
S67=benchmarks/results/2026-12-06-session67/run_next.sh
case ${1:-} in
  rule) OUT=$OUT bash benchmarks/results/2026-12-06-session68/run_5.sh ;;
  h200|suite) OUT=$OUT bash $S67 "$@" ;;
  profile)
    mkdir -p /tmp/prof && OUT=/tmp/prof bash $S67 profile 2>&1 | tail -n 20
    tar -C /tmp/prof -czf "$OUT/ncu_contig.tgz" . ;;
  *) echo "usage: run_next.sh rule | h200 | suite K/2 | profile"; exit 2 ;;
esac
