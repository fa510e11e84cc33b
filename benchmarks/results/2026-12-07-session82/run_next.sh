#!/usr/bin/env bash
# Session 82's device steps (run_1 ran session 81's `first`).
#   clayout the interleaved complex layout (cupyconv/_complex.py, written in session 82;
#           nothing of it had run on a GPU): the complex GPU tests (-k complex), then
#           benchmarks/complex_parts.py: stacked / shipped / interleaved whole calls, each
#           layout's real call alone, torch, errors, on 15 sweep configurations in
#           complex64 (5 of them D > 1, where the interleaved call has zero taps) and 4 in
#           complex128, with a host profile of the small call.
#           Decision rule, fixed before the run: INTERLEAVED_MAX_DILATION becomes 1 if, over
#           the D = 1 complex64 configurations, interleaved whole calls give >= 1.10x
#           geomean over stacked ones with none below 0.90x (else stays 0: all stacked); it
#           rises to D if every complex64 configuration of dilation <= D also is >= 0.95x
#           and the geomean over them stays >= 1.10x.
#   cfamily session 82's hypothesis for the complex layout (INTERLEAVED_BY_FAMILY, off;
#           fitted to run_2/run_3's 22 sweep calls): interleaved where the call's stride
#           is <= 4 and both layouts' real calls are planned in the same kernel family. Out
#           of sample: 48 random complex64 calls (shape_scan.py's draws, seed 82; on the
#           CPU's simulated H100 plans the rule picks 9 of the first 24), both layouts
#           timed per call (benchmarks/complex_parts.py --random 48 --seed 82).
#           Decision rule, fixed before any run: INTERLEAVED_BY_FAMILY becomes True if,
#           over the calls it picks, interleaved whole calls give >= 1.10x geomean over
#           stacked with none below 0.90x.
#   cprof   a host profile of 200 small complex64 calls (small-64-32-s2, 0.20x torch in
#           run_1; run_2's profile ran out of time before it), both layouts timed too.
#   ctests  the complex GPU tests (-k complex): since run_2 they also run the third
#           choice, INTERLEAVED_BY_FAMILY's per-call one (41 tests).
#   first   ctests, cfamily, then cprof (AUTO_S seconds in all, default 540).
# Any other step goes to session 81's script.
set -uo pipefail
s81=$(dirname "$0")/../2026-12-07-session81/run_next.sh
# D = 1 first (the decision), then D > 1; each line is printed as it finishes
C64=(hifigan-u4-b16 up-32-32-s4 encodec-s2 g8-256-k8-s4 up-64-64-s3 hifigan-u3-b16 dw-256-k4-s2
     small-64-32-s2 seed sd-s3d2k5 sd-s1d4k3 dw-128-k3-s2d2 sd-s5d1k11 small-16-16-k3 sd-s2d2k3-c64)
C128=(hifigan-u4-b16 small-64-32-s2 seed up-32-32-s4)
case ${1:-} in
  clayout)
    source benchmarks/ab_scan.sh
    step_dir clayout
    timeout ${TESTS_S:-120} python3 -m pytest -m gpu -q -rs -p no:cacheprovider tests/test_gpu.py \
      -k complex -W ignore > "$OUT/tests_complex.txt" 2>&1
    echo "tests rc $?"; tail -n 4 "$OUT/tests_complex.txt" | cut -c1-300
    timeout ${PARTS_S:-200} python3 benchmarks/complex_parts.py --dtype complex64 "${C64[@]}" \
      > "$OUT/parts_complex64.txt" 2>&1
    echo "parts64 rc $?"; cut -c1-200 "$OUT/parts_complex64.txt"
    timeout ${PARTS128_S:-90} python3 benchmarks/complex_parts.py --dtype complex128 --profile 200 "${C128[@]}" \
      > "$OUT/parts_complex128.txt" 2>&1
    echo "parts128 rc $?"; grep -v "^ \{6,\}[0-9]" "$OUT/parts_complex128.txt" | grep -A4 "^[a-z]" | cut -c1-200 | head -40 ;;
  cfamily)
    source benchmarks/ab_scan.sh
    step_dir cfamily
    timeout ${PARTS_S:-400} python3 benchmarks/complex_parts.py --random 48 --seed 82 --reps 10 \
      > "$OUT/parts_random.txt" 2>&1
    echo "cfamily rc $?"; grep "family rule\|^r0\|ERROR\|^errors" "$OUT/parts_random.txt" | cut -c1-160 | tail -n 60 ;;
  cprof)
    source benchmarks/ab_scan.sh
    step_dir cprof
    timeout ${PROF_S:-90} python3 benchmarks/complex_parts.py --profile 200 small-64-32-s2 small-16-16-k3 \
      > "$OUT/profile_small.txt" 2>&1
    echo "cprof rc $?"; grep -A22 "^small" "$OUT/profile_small.txt" | cut -c1-160 | head -n 60 ;;
  ctests)
    source benchmarks/ab_scan.sh
    step_dir ctests
    timeout ${TESTS_S:-100} python3 -m pytest -m gpu -q -rs -p no:cacheprovider tests/test_gpu.py \
      -k complex -W ignore > "$OUT/tests_complex.txt" 2>&1
    echo "ctests rc $?"; tail -n 4 "$OUT/tests_complex.txt" | cut -c1-300 ;;
  first)
    for step in ctests cfamily cprof; do
      left=$(( ${AUTO_S:-540} - SECONDS )); (( left > 40 )) || break
      PARTS_S=$(( left - 100 < 400 ? left - 100 : 400 )) PROF_S=$(( left - 10 < 90 ? left - 10 : 90 )) \
        timeout "$left" bash "$0" "$step"; echo "== $step rc $? at $SECONDS s"
    done ;;
  *) exec bash "$s81" "$@" ;;
esac
