#!/usr/bin/env bash
# Session 81's device steps. Session 81 had no device time (its 30 minutes were counted
# with session 80's, whose stop it continues), so nothing here has run yet.
#   cbench  complex64 and complex128 through the bench (--dtype, written in session 81):
#           cupyconv against torch's complex convolution (Gauss's three real ones) on six
#           sweep configurations each, ms, GB/s over the complex minimum bytes, relative
#           error against complex128, extra memory (the complex workspace), in one process.
#           Nothing is decided by it: it is the first measurement of complex speed.
#   agtests the GPU tests of session 81's torch autograd and cupyconv.nn
#           (test_torch_autograd: float32, bfloat16, complex64; test_torch_nn_convert;
#           test_torch_interop, whose inputs require grad) and of the redrawn coverage
#           tests (test_small_wide_reductions_random, test_narrow_xchain_random_calls)
#   first   agtests, cbench, then session 80's rest (the 13 GPU tests never finished) and
#           capval
# Any other step goes to session 80's script (ctests, rest, capval, occ, occval, xtests,
# taprows, stride5, ...), which documents each with its decision rule.
set -uo pipefail
s80=$(dirname "$0")/../2026-12-07-session80/run_next.sh
CONFIGS=(seed up-64-64-s3 hifigan-u3-b16 sd-s3d2k5 dw-256-k4-s2 small-64-32-s2)
case ${1:-} in
  cbench)
    source benchmarks/ab_scan.sh
    step_dir cbench
    for dt in complex64 complex128; do
      timeout ${CBENCH_S:-120} python3 -m cupyconv.bench --only "${CONFIGS[@]}" --dtype $dt \
        --reps 20 --json "$OUT/bench_$dt.json" > "$OUT/bench_$dt.txt" 2>&1
      echo "cbench $dt rc $?"; cut -c1-160 "$OUT/bench_$dt.txt" | tail -n 12
    done ;;
  agtests)
    source benchmarks/ab_scan.sh
    step_dir agtests
    timeout ${TESTS_S:-150} python3 -m pytest -m gpu -q -rs -p no:cacheprovider tests/test_gpu.py \
      -k "autograd or interop or nn_convert or small_wide_reductions_random or narrow_xchain_random" -W ignore \
      > "$OUT/tests_autograd.txt" 2>&1
    echo "agtests rc $?"; tail -n 8 "$OUT/tests_autograd.txt" | cut -c1-300 ;;
  first)
    for step in agtests cbench rest capval; do
      left=$(( ${AUTO_S:-560} - SECONDS )); (( left > 40 )) || break
      TESTS_S=$(( left - 10 < 400 ? left - 10 : 400 )) OCC_S=$(( left - 15 < 300 ? left - 15 : 300 )) \
        timeout "$left" bash "$0" "$step"; echo "== $step rc $? at $SECONDS s"
    done ;;
  *) exec bash "$s80" "$@" ;;
esac
