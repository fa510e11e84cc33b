#!/usr/bin/env bash
# Session 76's device steps (tree: session 75's d851841 + narrow_regs_ab.py).
# Usage: run_next.sh auto | tests | sweep | regs | chains
#   tests  session 75's step: ct1d_narrow's GPU tests on session 74's failing seed, then
#          the GPU tests that plan ct1d_narrow (NARROW_BLK_ANY_CS, shipped untested on a
#          GPU) or draw random dispatcher calls that may reach it (~4-5 min)
#   sweep  the benchmark sweep on this card (device_run.sh bench): on an H200 it is
#          issue 4's record (results/h200/, last refreshed in session 48)
#   regs   narrow_regs_ab.py on narrow_regs_candidates.json (session 75's 33 float32
#          calls whose plan changes with compiled register counts), planned vs compiled
#   chains the five long-chain calls of session 74's blk step (1-2048 -> 4-16 channels, K
#          24-32, 700-2000 positions; 2-4x slower than torch fp32 on ct1d_narrow) forced
#          to ct1d_narrow and, where it covers them, ct1d_mma (one process each, with torch)
#   auto   on an H200: sweep, then tests; else tests, regs, chains; within AUTO_S seconds
set -uo pipefail
here=$(dirname "$0")
if [[ ${1:-} == auto ]]; then
  steps=(tests regs chains)
  [[ $(nvidia-smi --query-gpu=name --format=csv,noheader) == *H200* ]] && steps=(sweep tests)
  for step in "${steps[@]}"; do
    left=$(( ${AUTO_S:-570} - SECONDS )); (( left > 60 )) || break
    timeout "$left" bash "$0" $step; echo "== $step rc $? at $SECONDS s"
  done
  exit 0
fi
case ${1:-} in
  tests) exec bash "$here/../2026-12-07-session75/run_next.sh" tests ;;
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
    calls=(--call fail=3,2048,16,32,1027,1,48,3,2 --call s2k32=2,2048,8,32,800,2,0,1
           --call s1k24c8d3=4,1024,8,24,2000,1,0,3)
    cd benchmarks
    for fam in ct1d_narrow ct1d_mma; do
      timeout ${CHAINS_S:-60} python3 ab_variant.py $fam "${calls[@]}" --rounds 3 > "$OUT/ab_$fam.txt" 2>&1
      echo "$fam rc $?"; grep -E "^\S|median|largest" "$OUT/ab_$fam.txt" | cut -c1-160
    done
    timeout ${CHAINS_S:-60} python3 ab_variant.py ct1d_narrow --call s1k32c4=1,1500,4,32,700,1,5,2 \
      --call s1k20c1=2,1024,1,20,900,1,0,1 --rounds 3 > "$OUT/ab_narrow_only.txt" 2>&1
    echo "narrow-only rc $?"; grep -E "^\S|median|largest" "$OUT/ab_narrow_only.txt" | cut -c1-160 ;;
  *) echo "usage: run_next.sh auto | tests | sweep | regs | chains"; exit 2 ;;
esac
