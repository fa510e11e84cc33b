#!/usr/bin/env bash
# Session 80's device steps (none ran: no device was lent in session 80): session 79's
# prepared steps (../2026-12-07-session79/run_next.sh, which documents each step and its
# decision rule) in two commands of AUTO_S seconds, correctness first:
#   first   ctests (the complex-input GPU tests, written in session 80), suite2 (the GPU
#           suite's second half, not run since session 74), then stride5
#   second  narrowocc, narrowval, then taprows, within AUTO_S seconds
# Any other argument goes to session 79's script.
set -uo pipefail
s79=$(dirname "$0")/../2026-12-07-session79/run_next.sh
run_steps() {
  local step left
  for step in "$@"; do
    left=$(( ${AUTO_S:-560} - SECONDS )); (( left > 40 )) || break
    # suite2 leaves ~150 s for stride5; the ab steps take what is left, at most 240 s
    SUITE_S=$(( left - 170 )) OCC_S=$(( left - 15 < 240 ? left - 15 : 240 )) TAP_S=$(( left - 10 )) \
      timeout "$left" bash "$0" "$step"; echo "== $step rc $? at $SECONDS s"
  done
}
case ${1:-} in
  ctests)
    source benchmarks/ab_scan.sh
    step_dir ctests
    par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 16)
    timeout ${CTESTS_S:-150} python3 -m pytest -m gpu -q -rs "${par[@]}" -p no:cacheprovider \
      tests/test_gpu.py -k complex -W ignore > "$OUT/tests_complex.txt" 2>&1
    echo "ctests rc $?"; tail -n 8 "$OUT/tests_complex.txt" | cut -c1-300 ;;
  first) run_steps ctests suite2 stride5 ;;
  second) run_steps narrowocc narrowval taprows ;;
  *) exec bash "$s79" "$@" ;;
esac
