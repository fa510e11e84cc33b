#!/usr/bin/env bash
# Session 79's device steps (session 78's are ../2026-12-07-session78/run_next.sh).
# Usage: run_next.sh auto | pipeab | pipetests | STEP of session 78 (wgstride wgold suite1 ...)
#   pipeab  ct1d_pipe kernel variants against the shipped source on the sweep's 15
#           ct1d_pipe calls (all below 80% of copy on the H200, session 78 run_1), one
#           process, rows alternating, medians of PIPE_ROUNDS rounds, errors vs float64
#           (run_1; none shipped, the macros are now in
#           benchmarks/variants/ct1d_pipe_s79_epi_bias_xunroll.patch: apply it to rerun):
#             epi1  CT1D_PIPE_EPI_BIAS 1: a thread's bias values read before its first output
#                   store (shipped: each read waits behind the previous store, since the
#                   compiler cannot tell bias_c from the output buffer)
#             epi2  the same, none read in calls without bias
#             xu2   CT1D_PIPE_PLAIN_XUNROLL 2: the plain blocks' x-window loop unrolled by 2
#             wb16, wb32  CT1D_PIPE_W_BATCH 16 / 32 weight loads in flight (shipped 8)
#           Decision rule, fixed before the run: a variant ships when its geomean over the 15
#           calls is >= 1.02x with no call below 0.97x; else (geomean >= 1.02x on a subset
#           that a plan property names) it is confined there and rechecked.
#   pipeab2 the same calls and rule for two never measured on the H200 (helper review):
#             ws31  PIPE_WS_NARROW (3,1,5,2),(3,1,5,1): three consumers, one producer
#             noef  CT1D_BULK_EVICT_FIRST 0: output copies without the evict-first hint
#   stride5 (after run_1's wgstride, H100: the three stride-5 calls 1.00-1.30x on ct1d_narrow,
#           strides 6-10 0.44-1.53x) NARROW_WGMMA_MIN_MACS 257 against 128 on
#           stride5_calls.txt (gen_stride5_calls.py, seed 85: 8 stride-5 and 4 stride-6
#           calls that 257 moves to ct1d_narrow). Decision rule, fixed before the run:
#           NARROW_WGMMA_F32_MIN_STRIDE goes 5 -> 6 if the 8 stride-5 calls' geomean is
#           >= 1.05x with none below 0.85x; the stride-6 calls are reported only
#   narrowocc  (session 78's hypothesis: ct1d_narrow's wide reductions run one 224-register
#           256-thread block per SM, 34% of FFMA peak on u08 where cuDNN reaches 52%) more
#           warps per SM, dispatch-only, on session 78's 32 calls (run_2 wgold/calls.txt,
#           ct1d_narrow slower than torch on 25): thr128 (`_NARROW_THREADS` 128), u1
#           (`_NARROW_MAX_U` 1: fewer registers), bps2 (`NARROW_BPS` 2: the cost model counts
#           2 blocks per SM), cap2 (bps2 + `CT1D_NARROW_MIN_BLOCKS` 2: ptxas made to fit them)
#   narrowval the same on narrowocc_validate_calls.txt (gen_narrowocc_calls.py, seed 86,
#           drawn before any timing: 16 ct1d_narrow calls of >= 256 input channels that
#           every variant re-plans). Decision rule, fixed before the run: the variant with
#           the best narrowocc geomean ships if it is >= 1.05x there with no call below
#           0.85x AND >= 1.03x on narrowval with no call below 0.85x; else nothing ships.
#           It ships for float32 calls only (both sets are float32) and, where narrowocc's
#           calls of < 256 input channels per group lose, only from 256 on (narrowval
#           samples nothing below); the narrow GPU tests (ntests) run on it before it lands
#   taprows the tap-row probe (benchmarks/taprows_probe.py: (co, tap) GEMM rows on 3xTF32
#           mma.sync + a fixed-order overlap-add; NVRTC 13.5: no spills) on session 78's
#           32 calls with bias: error against float64 (NaN-poisoned output), time against
#           the shipped dispatch and torch fp32. A probe, no rule: it says whether a
#           library mode is worth building (NOTES session 79)
#   pipetests  ct1d_pipe's GPU tests (tests/test_gpu.py -k pipe), the source as it is
#   ntests  the narrow families' GPU tests (-k narrow)
#   auto    (run_1 ran: pipeab, wgstride, ntests) for session 80: stride5, taprows,
#           narrowocc, narrowval within AUTO_S seconds; then suite2 (the GPU suite's second half,
#           not run since session 74) as its own command
set -uo pipefail
here=$(dirname "$0")
s78=$here/../2026-12-07-session78/run_next.sh
pipe_calls="hifigan-u4-b16 up-32-16-s2 up-32-32-s4 up-16-16-s8 up-64-64-s3 sd-s2d2k3-c64 sd-s2d1k7
  sd-s1d4k3 sd-s5d1k11 g4-128-k4-s2 g16-512-k16-s8 encodec-s2 g8-256-k8-s4 hifigan-u4-b4-long sd-s2d4k4"
case ${1:-} in
  pipeab)
    source benchmarks/ab_scan.sh
    step_dir pipeab
    (cd benchmarks && timeout ${PIPE_S:-330} python3 ab_variant.py ct1d_pipe $pipe_calls \
       --rounds ${PIPE_ROUNDS:-4} --variant epi1=CT1D_PIPE_EPI_BIAS:1 --variant epi2=CT1D_PIPE_EPI_BIAS:2 \
       --variant xu2=CT1D_PIPE_PLAIN_XUNROLL:2 --variant wb16=CT1D_PIPE_W_BATCH:16 \
       --variant wb32=CT1D_PIPE_W_BATCH:32 > "$OUT/ab_pipe.txt" 2>&1)
    echo "pipeab rc $?"; grep -E "^\S|median|largest" "$OUT/ab_pipe.txt" | cut -c1-170 ;;
  pipeab2)
    source benchmarks/ab_scan.sh
    step_dir pipeab2
    (cd benchmarks && timeout ${PIPE_S:-330} python3 ab_variant.py ct1d_pipe $pipe_calls \
       --rounds ${PIPE_ROUNDS:-4} --variant 'ws31=dispatch.PIPE_WS_NARROW:((3,1,5,2),(3,1,5,1))' \
       --variant noef=CT1D_BULK_EVICT_FIRST:0 > "$OUT/ab_pipe2.txt" 2>&1)
    echo "pipeab2 rc $?"; grep -E "^\S|median|largest" "$OUT/ab_pipe2.txt" | cut -c1-170 ;;
  stride5)
    source benchmarks/ab_scan.sh
    step_dir stride5
    ab_calls ab_stride5 auto "$here/stride5_calls.txt" ${WGUP_S:-150} 'wg257=dispatch.NARROW_WGMMA_MIN_MACS:257' ;;
  narrowocc|narrowval)
    source benchmarks/ab_scan.sh
    step_dir "$1"
    f=$here/narrowocc_validate_calls.txt
    [[ $1 == narrowocc ]] && f=$here/run_2/wgold/calls.txt
    ab_calls ab_$1 auto "$f" ${OCC_S:-240} 'thr128=dispatch._NARROW_THREADS:128' \
      'u1=dispatch._NARROW_MAX_U:1' 'bps2=dispatch.NARROW_BPS:2' \
      'cap2=dispatch.NARROW_BPS:2,CT1D_NARROW_MIN_BLOCKS:2' ;;
  taprows)
    source benchmarks/ab_scan.sh
    step_dir taprows
    timeout ${TAP_S:-200} python3 benchmarks/taprows_probe.py --bias \
      --file "$here/run_2/wgold/calls.txt" > "$OUT/taprows.txt" 2>&1
    echo "taprows rc $?"; cut -c1-150 "$OUT/taprows.txt" | tail -n 40 ;;
  pipetests|ntests)
    source benchmarks/ab_scan.sh
    step_dir "$1"
    k=pipe; [[ $1 == ntests ]] && k=narrow
    par=(); python3 -c "import xdist" 2>/dev/null && par=(-n 16)
    timeout ${TESTS_S:-200} python3 -m pytest -m gpu -q "${par[@]}" \
      -p no:cacheprovider tests/test_gpu.py -k "$k" -W ignore > "$OUT/tests_$k.txt" 2>&1
    echo "$1 rc $?"; tail -n 5 "$OUT/tests_$k.txt" | cut -c1-300 ;;
  auto)
    for step in stride5 taprows narrowocc narrowval; do
      left=$(( ${AUTO_S:-570} - SECONDS )); (( left > 40 )) || break
      OCC_S=$(( left - 15 < 240 ? left - 15 : 240 )) timeout "$left" bash "$0" $step; echo "== $step rc $? at $SECONDS s"
    done ;;
  *) exec bash "$s78" "$@" ;;
esac
