#!/usr/bin/env bash
# Session 77's device steps: session 76's steps (../2026-12-07-session76/run_next.sh) in
# the order this session wants them.
# Usage: run_next.sh auto | validate | STEP (session 76's: tests ntests sweep regs chains)
#   validate  (run_3) NARROW_SPLIT as shipped after run_1 (on, chains >= 2048) against off,
#          full dispatch, on the 20 calls of split_validate_calls.txt (drawn after the rule
#          was set: random float32 calls whose plan it splits), then ntests, then tests,
#          within AUTO_S seconds
#   auto   on an H200: sweep (issue 4's record), then ntests, then chains;
#          on an H100: ntests, chains, regs; all within AUTO_S seconds
set -uo pipefail
s76=$(dirname "$0")/../2026-12-07-session76/run_next.sh
if [[ ${1:-} == validate ]]; then
  here=$(dirname "$0")
  (source benchmarks/ab_scan.sh
   step_dir validate
   mapfile -t calls < "$here/split_validate_calls.txt"
   cd benchmarks
   timeout ${VALIDATE_S:-200} python3 ab_variant.py auto "${calls[@]/#/--call=}" --rounds 3 \
     --variant 'nosplit=dispatch.NARROW_SPLIT:False' > "$OUT/ab_nosplit.txt" 2>&1
   echo "validate rc $?"; grep -E "^\S|median" "$OUT/ab_nosplit.txt" | cut -c1-170)
  for step in ntests tests; do
    left=$(( ${AUTO_S:-560} - SECONDS )); (( left > 60 )) || break
    TESTS_S=$(( left - 20 )) timeout "$left" bash "$s76" $step; echo "== $step rc $? at $SECONDS s"
  done
  exit 0
fi
if [[ ${1:-} == auto ]]; then
  steps=(ntests chains regs)
  [[ $(nvidia-smi --query-gpu=name --format=csv,noheader) == *H200* ]] && steps=(sweep ntests chains)
  for step in "${steps[@]}"; do
    left=$(( ${AUTO_S:-560} - SECONDS )); (( left > 60 )) || break
    timeout "$left" bash "$s76" $step; echo "== $step rc $? at $SECONDS s"
  done
  exit 0
fi
exec bash "$s76" "$@"
