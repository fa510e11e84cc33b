#!/usr/bin/env bash
# Session 76's device steps (tree: session 75's d851841 + narrow_regs_ab.py).
# Usage: run_next.sh auto | quick | tests | ntests | sweep | regs | chains
#   tests  session 75's step: ct1d_narrow's GPU tests on session 74's failing seed, then
#          the GPU tests that plan ct1d_narrow (NARROW_BLK_ANY_CS, shipped untested on a
#          GPU) or draw random dispatcher calls that may reach it (~4-5 min)
#   sweep  the benchmark sweep on this card (device_run.sh bench): on an H200 it is
#          issue 4's record (results/h200/, last refreshed in session 48)
#   regs   narrow_regs_ab.py on narrow_regs_candidates.json (session 75's 33 float32
#          calls whose plan changes with compiled register counts), planned vs compiled
#   chains NARROW_SPLIT (ct1d_narrow_split: clusters of 2-8 blocks sharing each tile's
#          reduction) on split_calls.txt: session 74's five long-chain calls (2-4x slower
#          than torch fp32 on ct1d_narrow) and 16 random float32 calls whose plan it
#          changes. Forced ct1d_narrow, with torch, medians of 3 rounds (~2-3 min)
#   ntests the narrow GPU tests only (tests' second half, -k narrow: the family, its
#          blocked sums, the new split test), for a short run
#   quick  ntests, then chains, within AUTO_S seconds
#   auto   on an H200: sweep, then tests; else tests, chains, regs; within AUTO_S seconds
set -uo pipefail
here=$(dirname "$0")
if [[ ${1:-} == auto || ${1:-} == quick ]]; then
  steps=(tests chains regs)
  [[ $(nvidia-smi --query-gpu=name --format=csv,noheader) == *H200* ]] && steps=(sweep tests)
  [[ ${1:-} == quick ]] && steps=(ntests chains)
  for step in "${steps[@]}"; do
    left=$(( ${AUTO_S:-570} - SECONDS )); (( left > 60 )) || break
    timeout "$left" bash "$0" $step; echo "== $step rc $? at $SECONDS s"
  done
  exit 0
fi
case ${1:-} in
  tests) exec bash "$here/../2026-12-07-session75/run_next.sh" tests ;;
  ntests)
    source benchmarks/ab_scan.sh
    step_dir ntests
    par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 8)
    timeout ${TESTS_S:-200} python3 -m pytest -m gpu -v -rs "${par[@]}" -W ignore -p no:cacheprovider \
      tests/test_gpu.py -k "${NTESTS_K:-narrow and not 64bit}" > "$OUT/gpu_tests.log" 2>&1
    echo "narrow tests rc $?"; grep -E "passed|failed|^FAILED|^E  " "$OUT/gpu_tests.log" | cut -c1-300 | tail -n 8 ;;
  sweep) exec bash "$here/../2026-12-07-session74/run_next.sh" sweep ;;
  regs)
    source benchmarks/ab_scan.sh
    step_dir regs
    timeout ${REGS_S:-240} python3 benchmarks/narrow_regs_ab.py "$here/narrow_regs_candidates.json" \
      --max-s $(( ${REGS_S:-240} - 40 )) > "$OUT/narrow_regs_ab.txt" 2>&1
    echo "regs rc $?"; grep -E "median|calls:|^stopped|Error" "$OUT/narrow_regs_ab.txt" | cut -c1-200 | tail -n 40 ;;
  chains)
    source benchmarks/ab_scan.sh
    step_dir chains
    ab_calls ab_split ct1d_narrow "$here/split_calls.txt" ${CHAINS_S:-300} 'split=dispatch.NARROW_SPLIT:True' ;;
  *) echo "usage: run_next.sh auto | tests | sweep | regs | chains"; exit 2 ;;
esac
