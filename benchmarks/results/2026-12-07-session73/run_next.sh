#!/usr/bin/env bash
# Session 73's device steps, on the commit that ships WGMMA_16BIT_F32_ROUTE and GEMM_F64
# (with GEMM_F64_MIN_BLOCKS) as defaults. Usage: run_next.sh verify | ab64 | auto | ...
#   verify (any sm_90 card, ~4 min) the GPU tests that cover the two routes: the routed
#          calls on their families, the random calls (auto and forced ct1d_gemm /
#          ct1d_wgmma, 16-bit and float64), small calls, the partial-weight route
#   ab64   (any sm_90 card, ~2 min) GEMM_F64 with its block threshold out of sample: the
#          float64 calls of 160 draws, seeds 1 and 2, that it moves (plan_diff), without
#          it (old) and with it (new), each next to torch fp64
#   auto   one device command's worth (AUTO_S, 560 s): on an H200 h200 (session 71's:
#          the sweep that refreshes results/h200/, then the scan), then the GPU suite's
#          first shard; on any other card the suite's two shards (sessions 70-73 changed
#          routes that only the tests covering them have run since); each step packed
#          into $OUT/STEP.tgz. (Session 73 ran verify and ab64: runs 2-5.)
#   anything else: session 72's run_next.sh
set -uo pipefail
if [[ ${1:-} == auto ]]; then
  steps=("suite 1/2" "suite 2/2"); nvidia-smi -L | grep -q H200 && steps=(h200 "suite 1/2")
  for step in "${steps[@]}"; do
    left=$(( ${AUTO_S:-560} - SECONDS )); (( left > 60 )) || break
    timeout "$left" bash "$0" $step; echo "== $step rc $? at $SECONDS s"
  done
  exit 0
fi
case ${1:-} in verify|ab64) ;; *) exec bash benchmarks/results/2026-12-07-session72/run_next.sh "$@" ;; esac
source benchmarks/ab_scan.sh
step_dir "$1"
card=$(grep -q H100 "$OUT/gpu.txt" && echo h100)
if [[ $1 == verify ]]; then
  timeout ${VERIFY_S:-250} python3 -m pytest -q -m gpu -p no:cacheprovider -W ignore --durations=12 \
    tests/test_gpu.py -k "${VERIFY_K:-routed_calls or gemm_family_random_calls or wgmma_family_random_calls or random_configurations or small_calls_random or mma_partial_route}" \
    > "$OUT/verify.log" 2>&1
  echo "verify rc $?"; grep -E "passed|failed|^FAILED|^ERROR" "$OUT/verify.log" | cut -c1-300 | tail -n 8
  exit 0
fi
cd benchmarks
for seed in ${AB64_SEEDS:-1 2}; do
  name=f64_$seed
  python3 plan_diff.py --variant 'off=dispatch.GEMM_F64:False' --n 160 --seed $seed \
    --dtype float64 --card "$card" --names "$OUT/$name.names" > "$OUT/$name.plan_diff" 2>&1
  tail -n 1 "$OUT/$name.plan_diff"
  [[ -s "$OUT/$name.names" ]] || continue
  ab $name "off=dispatch.GEMM_F64:False" "" 75 --dtype float64 --n 160 --seed $seed \
    --names "@$OUT/$name.names"
done
