#!/usr/bin/env bash
# Session 78's device steps: session 77's (../2026-12-07-session77/run_next.sh) plus an
# out-of-sample set for NARROW_WGMMA_MIN_MACS, timed in the same command so that one
# device run can both pick and check a threshold.
# Usage: run_next.sh auto | wgval | STEP (session 77's: fixed wgmacs validate; session
#        76's: tests ntests sweep regs chains)
#   wgval  NARROW_WGMMA_MIN_MACS 128 against 40 and 64 on the 20 calls of
#          wgmacs_validate_calls.txt (seed 79 draws of narrow_regs.random_calls that 40
#          moves to ct1d_wgmma, drawn before any timing). Decision rule, fixed before the
#          run: the threshold is chosen on session 77's wgmacs_calls.txt alone (the lower
#          of 40/64 whose geomean there is > 1.03x with no call slower than 0.9x, else
#          128 stays); wgval only reports how that choice does on calls it was not chosen on.
#   wgval16 the same on the first 10 of those calls in bfloat16 (the threshold is not
#          float32's alone: 16-bit calls take the same route)
#   wgup   (after run_1: 40 and 64 lost on every call) the other way: 257 against 128 on
#          wgmacs_up_calls.txt (seed 80 draws that 257 moves from ct1d_wgmma back to
#          ct1d_narrow: C_out x K of 128-256), a probe (no validation set yet)
#   wgupval the same on wgmacs_up_validate_calls.txt (seed 81, drawn after wgup ran)
#   wgup16 wgup's first 10 calls in bfloat16
#          (wgup, wgupval, wgup16 ran before NARROW_WGMMA_F32_MIN_STRIDE shipped; with it
#          their float32 sides plan alike)
#   wgstride 257 against 128 at strides 5-10 (wgup's calls, from narrow_regs.random_calls,
#          have strides 1-4; session 54's two calls behind the 128 rule had 8 and 10):
#          those two and 10 random calls (seed 83) that 257 moves
#   wgold  NARROW_WGMMA_F32_MIN_STRIDE (shipped, 5) against 1 (the route before it) on
#          run_3-4's 32 calls: for an H100, which has not measured the bound
#   suite1, suite2  the full GPU suite in two halves (device_run.sh tests, GPU_TEST_SHARD)
#   auto   (session 78's run_1 ran: on an H200 sweep, fixed, wgmacs, wgval, wgval16; on an
#          H100 the same without the sweep) for session 79: wgstride, then suite1, within
#          AUTO_S seconds (on an H100 wgold first); then suite2 as its own command
set -uo pipefail
here=$(dirname "$0")
s77=$here/../2026-12-07-session77/run_next.sh
case ${1:-} in
  wgval)
    source benchmarks/ab_scan.sh
    step_dir wgval
    ab_calls ab_wgval auto "$here/wgmacs_validate_calls.txt" ${WGVAL_S:-240} \
      'wg40=dispatch.NARROW_WGMMA_MIN_MACS:40' 'wg64=dispatch.NARROW_WGMMA_MIN_MACS:64' ;;
  wgval16)
    source benchmarks/ab_scan.sh
    step_dir wgval16
    mapfile -t calls < <(head -n 10 "$here/wgmacs_validate_calls.txt")
    (cd benchmarks && timeout ${WGVAL_S:-150} python3 ab_variant.py auto "${calls[@]/#/--call=}" \
       --dtype bfloat16 --rounds 3 --variant 'wg40=dispatch.NARROW_WGMMA_MIN_MACS:40' \
       --variant 'wg64=dispatch.NARROW_WGMMA_MIN_MACS:64' > "$OUT/ab_wgval16.txt" 2>&1)
    echo "wgval16 rc $?"; grep -E "^\S|median|largest" "$OUT/ab_wgval16.txt" | cut -c1-170 ;;
  wgupval)
    source benchmarks/ab_scan.sh
    step_dir wgupval
    ab_calls ab_wgupval auto "$here/wgmacs_up_validate_calls.txt" ${WGUP_S:-260} 'wg257=dispatch.NARROW_WGMMA_MIN_MACS:257' ;;
  wgup16)   # (run_5 ran these lines inline)
    source benchmarks/ab_scan.sh
    step_dir wgup16
    mapfile -t calls < <(head -n 10 "$here/wgmacs_up_calls.txt")
    (cd benchmarks && timeout 150 python3 ab_variant.py auto "${calls[@]/#/--call=}" --dtype bfloat16 \
       --rounds 3 --variant 'wg257=dispatch.NARROW_WGMMA_MIN_MACS:257' > "$OUT/ab_wgup16.txt" 2>&1)
    echo rc $?; grep -E "^\S|median" "$OUT/ab_wgup16.txt" | cut -c1-170 ;;
  wgstride)
    source benchmarks/ab_scan.sh
    step_dir wgstride
    ab_calls ab_wgstride auto "$here/wgstride_calls.txt" ${WGUP_S:-150} 'wg257=dispatch.NARROW_WGMMA_MIN_MACS:257' ;;
  wgup)
    source benchmarks/ab_scan.sh
    step_dir wgup
    ab_calls ab_wgup auto "$here/wgmacs_up_calls.txt" ${WGUP_S:-260} 'wg257=dispatch.NARROW_WGMMA_MIN_MACS:257' ;;
  wgold)   # the shipped stride bound against the route before it, on run_3-4's 32 calls
    source benchmarks/ab_scan.sh
    step_dir wgold
    cat "$here/wgmacs_up_calls.txt" "$here/wgmacs_up_validate_calls.txt" > "$OUT/calls.txt"
    ab_calls ab_wgold auto "$OUT/calls.txt" ${WGOLD_S:-200} 'old=dispatch.NARROW_WGMMA_F32_MIN_STRIDE:1' ;;
  suite1|suite2)   # half the full GPU suite (last full run: session 74, H100)
    source benchmarks/ab_scan.sh
    step_dir "$1"
    GPU_TEST_SHARD=${1#suite}/2 OUT=$OUT/suite timeout ${SUITE_S:-500} bash benchmarks/device_run.sh tests \
      > /dev/null 2>&1
    echo "$1 rc $?"; grep -E "passed|failed|^FAILED" "$OUT/suite/gpu_tests.log" | cut -c1-300 | tail -n 8 ;;
  auto)   # (for session 79) wgstride, then the first half of the GPU suite; then call suite2
    steps=(wgstride suite1)
    [[ $(nvidia-smi --query-gpu=name --format=csv,noheader) != *H200* ]] && steps=(wgold wgstride suite1)
    for step in "${steps[@]}"; do
      left=$(( ${AUTO_S:-560} - SECONDS )); (( left > 60 )) || break
      SUITE_S=$(( left - 20 )) timeout "$left" bash "$0" $step; echo "== $step rc $? at $SECONDS s"
    done ;;
  *) exec bash "$s77" "$@" ;;
esac
