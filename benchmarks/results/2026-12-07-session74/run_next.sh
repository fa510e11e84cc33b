#!/usr/bin/env bash
# Session 74's device steps, on the tree that ships session 73's defaults
# (WGMMA_16BIT_F32_ROUTE, GEMM_F64). Usage: run_next.sh sweep | rest | auto | blk | blk2 | blk3
#   sweep  the benchmark sweep on this card (device_run.sh bench, ~1-2 min with compiles):
#          on an H200 it is issue 4's record (results/h200/, last refreshed in session 48),
#          on an H100 it replaces the README's H100 table (session 47's code)
#   rest   the 13 GPU tests (rest_tests.txt) that run_1's suite shard 2/2 left unfinished
#          when the 560 s command ended (338 of its 351 had passed or skipped)
#   auto   sweep, then rest; each step packed into $OUT/STEP.tgz (run_2 ran it)
#   blk    ct1d_narrow's blocked sums (NARROW_BLK, after rest's failure): five calls with
#          chains beyond 8 groups timed with and without them (errors against float64),
#          NARROW_BLK_ANY_CS on r018 (seed 1's 384 -> 8 K16 S1, the one call of 2000 draws
#          it moves), then the narrow GPU tests on the failing seed (run_3 ran it)
#   blk2   NARROW_BLK_ANY_CS on the 19 calls of anycs_calls.txt (384 -> 8 K16 S1 and the
#          like, N x L 60000-256000: the cost model's 1 group, blocked, against the 2-4
#          groups the chain bound asks for), and CT1D_NARROW_BLK_EVERY 8 (partial sums
#          joined every 8 weight chunks) on blk's five calls (~2 min; run_4 ran it)
#   blk3   (next) the two measured knobs on all 24 calls, alone and together, against the
#          shipped blocked sums: CT1D_NARROW_BLK_TERMS 256 (joins after ~256 products) and
#          NARROW_BLK_ANY_CS (~3 min); ship what wins, then run the narrow GPU tests
set -uo pipefail
here=$(dirname "$0")
if [[ ${1:-} == auto ]]; then
  for step in sweep rest; do
    left=$(( ${AUTO_S:-560} - SECONDS )); (( left > 60 )) || break
    timeout "$left" bash "$0" $step; echo "== $step rc $? at $SECONDS s"
  done
  exit 0
fi
source benchmarks/ab_scan.sh
step_dir "$1"
case $1 in
  sweep)
    OUT=$OUT/bench timeout ${BENCH_S:-300} bash benchmarks/device_run.sh bench > /dev/null 2>&1
    echo "bench rc $?"; grep -A12 "issue 4's targets" "$OUT/bench/bench.log" | cut -c1-240 ;;
  rest)
    mapfile -t ids < "$here/rest_tests.txt"
    par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 13)
    timeout ${REST_S:-400} python3 -m pytest -m gpu -v -rs "${par[@]}" -W ignore -p no:cacheprovider \
      "${ids[@]}" > "$OUT/gpu_tests.log" 2>&1
    echo "rest rc $?"; grep -E "passed|failed|^FAILED|^ERROR" "$OUT/gpu_tests.log" | cut -c1-300 | tail -n 8 ;;
  blk)
    calls=(--call fail=3,2048,16,32,1027,1,48,3,2 --call s2k32=2,2048,8,32,800,2,0,1
           --call s1k20c1=2,1024,1,20,900,1,0,1 --call s1k32c4=1,1500,4,32,700,1,5,2
           --call s1k24c8d3=4,1024,8,24,2000,1,0,3)
    (cd benchmarks && timeout ${AB_S:-150} python3 ab_variant.py ct1d_narrow "${calls[@]}" \
       --variant 'one_chain=dispatch.NARROW_BLK:False' --rounds 3 > "$OUT/ab_blk.txt" 2>&1
     echo "ab_blk rc $?"; tail -n 8 "$OUT/ab_blk.txt"
     timeout 60 python3 ab_variant.py ct1d_narrow --call r018=8,384,8,16,15306,1,7,1 \
       --variant 'any_cs=dispatch.NARROW_BLK_ANY_CS:True' --rounds 3 > "$OUT/ab_any_cs.txt" 2>&1
     echo "ab_any_cs rc $?"; tail -n 3 "$OUT/ab_any_cs.txt")
    CUPYCONV_TEST_SEED=2138207938 timeout ${TESTS_S:-260} python3 -m pytest -m gpu -v -rs -n 4 -W ignore \
      -p no:cacheprovider tests/test_gpu.py -k "narrow_blocked_sums or narrow_family_random_calls" \
      > "$OUT/gpu_tests.log" 2>&1
    echo "tests rc $?"; grep -E "passed|failed|^FAILED|^E  " "$OUT/gpu_tests.log" | cut -c1-300 | tail -n 8 ;;
  blk2)
    mapfile -t any < "$here/anycs_calls.txt"
    (cd benchmarks && timeout ${AB_S:-75} python3 ab_variant.py ct1d_narrow "${any[@]/#/--call=}" \
       --variant 'any_cs=dispatch.NARROW_BLK_ANY_CS:True' --rounds 3 > "$OUT/ab_any_cs19.txt" 2>&1
     echo "ab_any_cs19 rc $?"; grep -E "^\S|median" "$OUT/ab_any_cs19.txt" | cut -c1-120
     timeout ${EVERY_S:-45} python3 ab_variant.py ct1d_narrow --call fail=3,2048,16,32,1027,1,48,3,2 \
       --call s1k32c4=1,1500,4,32,700,1,5,2 --call s1k24c8d3=4,1024,8,24,2000,1,0,3 \
       --variant 'every8=CT1D_NARROW_BLK_EVERY:8' --rounds 3 > "$OUT/ab_every8.txt" 2>&1
     echo "ab_every8 rc $?"; grep -E "median|largest" "$OUT/ab_every8.txt") ;;
  blk3)
    mapfile -t any < "$here/anycs_calls.txt"
    (cd benchmarks && timeout ${AB_S:-240} python3 ab_variant.py ct1d_narrow \
       --call fail=3,2048,16,32,1027,1,48,3,2 --call s2k32=2,2048,8,32,800,2,0,1 \
       --call s1k20c1=2,1024,1,20,900,1,0,1 --call s1k32c4=1,1500,4,32,700,1,5,2 \
       --call s1k24c8d3=4,1024,8,24,2000,1,0,3 "${any[@]/#/--call=}" \
       --variant 'terms=CT1D_NARROW_BLK_TERMS:256' --variant 'any_cs=dispatch.NARROW_BLK_ANY_CS:True' \
       --variant 'both=CT1D_NARROW_BLK_TERMS:256,dispatch.NARROW_BLK_ANY_CS:True' --rounds 3 \
       > "$OUT/ab_blk3.txt" 2>&1
     echo "ab_blk3 rc $?"; grep -E "median|largest" "$OUT/ab_blk3.txt" | cut -c1-160) ;;
  *) echo "usage: run_next.sh sweep | rest | auto | blk | blk2 | blk3"; exit 2 ;;
esac
