#!/usr/bin/env bash
# Session 77's device steps: session 76's steps (../2026-12-07-session76/run_next.sh) in
# the order this session wants them.
# Usage: run_next.sh auto | validate | STEP (session 76's: tests ntests sweep regs chains)
#   validate  (run_3) NARROW_SPLIT as shipped after run_1 (on, chains >= 2048) against off,
#          full dispatch, on the 20 calls of split_validate_calls.txt (drawn after the rule
#          was set: random float32 calls whose plan it splits), then ntests, then tests,
#          within AUTO_S seconds
#   fixed  the two GPU tests changed after run_3 (blocked sums with the split off; forced
#          splits blocked by their own chains), ~1-2 min
#   wgmacs NARROW_WGMMA_MIN_MACS 128 -> 40 and -> 64 (ct1d_wgmma instead of ct1d_narrow's
#          CUDA cores for C_out x K of 40-127 / 64-127) on the 20 calls of wgmacs_calls.txt (seed 78 draws of
#          narrow_regs.random_calls that it moves; run_1's regs calls of this kind ran at
#          0.32-0.56x torch fp32 on ct1d_narrow), full dispatch, medians of 3 rounds
#   auto   (for session 78) on an H200: sweep (issue 4's record), fixed, wgmacs;
#          on an H100: fixed, wgmacs, tests; all within AUTO_S seconds
set -uo pipefail
s76=$(dirname "$0")/../2026-12-07-session76/run_next.sh
if [[ ${1:-} == validate ]]; then
  here=$(dirname "$0")
  (source benchmarks/ab_scan.sh
   step_dir validate
   ab_calls ab_nosplit auto "$here/split_validate_calls.txt" ${VALIDATE_S:-200} 'nosplit=dispatch.NARROW_SPLIT:False')
  for step in ntests tests; do
    left=$(( ${AUTO_S:-560} - SECONDS )); (( left > 60 )) || break
    TESTS_S=$(( left - 20 )) timeout "$left" bash "$s76" $step; echo "== $step rc $? at $SECONDS s"
  done
  exit 0
fi
here=$(dirname "$0")
if [[ ${1:-} == fixed ]]; then     # session 76's ntests step on these tests (ntests.tgz)
  NTESTS_K="narrow_blocked or narrow_split" exec bash "$s76" ntests
fi
if [[ ${1:-} == wgmacs ]]; then
  source benchmarks/ab_scan.sh
  step_dir wgmacs
  ab_calls ab_wgmacs auto "$here/wgmacs_calls.txt" ${WGMACS_S:-300} \
    'wg40=dispatch.NARROW_WGMMA_MIN_MACS:40' 'wg64=dispatch.NARROW_WGMMA_MIN_MACS:64'
  exit 0
fi
if [[ ${1:-} == auto ]]; then
  steps=(fixed wgmacs tests)
  [[ $(nvidia-smi --query-gpu=name --format=csv,noheader) == *H200* ]] && steps=(sweep fixed wgmacs)
  for step in "${steps[@]}"; do
    left=$(( ${AUTO_S:-560} - SECONDS )); (( left > 60 )) || break
    timeout "$left" bash "$0" $step; echo "== $step rc $? at $SECONDS s"
  done
  exit 0
fi
exec bash "$s76" "$@"
