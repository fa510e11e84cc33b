#!/usr/bin/env bash
# Session 82's device steps (run_1 ran session 81's `first`).
#   parts   where a complex call's time goes (benchmarks/complex_parts.py): a host
#           profile of 200 small complex64 calls (small-64-32-s2 ran 0.20x torch in run_1),
#           then pack / real call / unpack / torch timed alone on six sweep configurations
#           in complex64 and complex128; then session 81's cbench again (run_1's errors
#           were computed without the imaginary parts, fixed in 2e3b010).
# Any other step goes to session 81's script.
set -uo pipefail
s81=$(dirname "$0")/../2026-12-07-session81/run_next.sh
CONFIGS=(seed up-64-64-s3 hifigan-u3-b16 sd-s3d2k5 dw-256-k4-s2 small-64-32-s2)
case ${1:-} in
  parts)
    source benchmarks/ab_scan.sh
    step_dir parts
    timeout 60 python3 benchmarks/complex_parts.py --profile 200 small-64-32-s2 > "$OUT/profile_small.txt" 2>&1
    head -c 2500 "$OUT/profile_small.txt"
    for dt in complex64 complex128; do
      timeout ${PARTS_S:-130} python3 benchmarks/complex_parts.py --dtype $dt "${CONFIGS[@]}" \
        > "$OUT/parts_$dt.txt" 2>&1
      cut -c1-250 "$OUT/parts_$dt.txt"
    done ;;
  *) exec bash "$s81" "$@" ;;
esac
