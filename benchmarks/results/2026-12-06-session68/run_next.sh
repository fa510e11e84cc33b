#!/usr/bin/env bash
# For the next session with device time (prepared in session 68, not run).
# Usage: run_next.sh rule | h200 | suite K/2 | profile | f64narrow
#   rule     (any card, ~3 min; run it first) session 68's run_5.sh: the GPU tests under
#            ct1d_scatter's pass rule (random calls forced onto ct1d_scatter, its edge
#            cases, determinism, the smaller-shared-memory fallback), then the rule
#            against the all-taps staging on fresh float64 calls
#   h200     (an H200 only) the benchmark sweep that refreshes results/h200/ (about 40 s
#            there in session 48), then the 160-call scan (session 67's run_10.sh)
#   suite    (an H200 only; K = 1 or 2, one command each, ~6 min) the whole GPU suite
#   profile  (any sm_90 card, ~2 min) session 67's Nsight Compute profiles of
#            ct1d_narrow's two thread layouts, as one archive
#   f64narrow (any card, ~1 min) float64 narrow-output calls, which go to ct1d_narrow
#            (NARROW_FALLBACK_DTYPES, measured against the all-taps scatter staging),
#            against ct1d_scatter in tap mode (the dispatcher with float64 taken out)
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
S67=benchmarks/results/2026-12-06-session67/run_next.sh
case ${1:-} in
  rule) OUT=$OUT bash benchmarks/results/2026-12-06-session68/run_5.sh ;;
  h200|suite) OUT=$OUT bash $S67 "$@" ;;
  profile)
    mkdir -p /tmp/prof && OUT=/tmp/prof bash $S67 profile 2>&1 | tail -n 20
    tar -C /tmp/prof -czf "$OUT/ncu_contig.tgz" . ;;
  f64narrow)
    export PYTHONPATH=$PWD:$PWD/benchmarks CUPY_CACHE_DIR=/tmp/cupyconv-cache
    timeout 100 python3 benchmarks/ab_variant.py auto --dtype float64 --call o4s4=4,1024,4,8,4096,4,2,1 \
      --call o8s2=4,512,8,4,8192,2,1,1 --call o1k16=2,192,1,16,2000,8,12,2 --call o2g2=4,64,4,5,8192,1,2,2,2 \
      --call o8k3=4,32,8,3,16384,1,1,1 --call o4d8=4,64,4,5,8192,1,8,8 \
      --variant scatter='dispatch.NARROW_FALLBACK_DTYPES:("bfloat16","float16")' --rounds 2 \
      > "$OUT/ab_f64_narrow.txt" 2>&1; echo "rc $?"; grep -E "^\S|median" "$OUT/ab_f64_narrow.txt" ;;
  *) echo "usage: run_next.sh rule | h200 | suite K/2 | profile | f64narrow"; exit 2 ;;
esac
