#!/usr/bin/env bash
# Session 80's device steps: session 79's prepared steps (../2026-12-07-session79/run_next.sh,
# which documents each step and its decision rule) in two commands, correctness first, since
# three failed starts left ~1300 s of device time:
#   first   suite2 (the GPU suite's second half, not run since session 74), then stride5
#   second  narrowocc, narrowval, then taprows, within AUTO_S seconds
# Any other argument goes to session 79's script.
set -uo pipefail
s79=$(dirname "$0")/../2026-12-07-session79/run_next.sh
s78=$(dirname "$0")/../2026-12-07-session78/run_next.sh
run_steps() {
  local step left
  for step in "$@"; do
    left=$(( ${AUTO_S:-560} - SECONDS )); (( left > 40 )) || break
    # suite2 leaves ~150 s for stride5; the ab steps take what is left, at most 240 s
    SUITE_S=$(( left - 170 )) OCC_S=$(( left - 15 < 240 ? left - 15 : 240 )) TAP_S=$(( left - 10 )) \
      timeout "$left" bash "$s79" "$step"; echo "== $step rc $? at $SECONDS s"
  done
}
case ${1:-} in
  first) run_steps suite2 stride5 ;;
  second) run_steps narrowocc narrowval taprows ;;
  *) exec bash "$s79" "$@" ;;
esac
