#!/usr/bin/env bash
# For the next session with device time (prepared in session 71, not run).
# Usage: run_next.sh scan16 | mma16 | f64gemm | suite K/2 | h200
#   scan16 (any sm_90 card) the 160-call scan in bfloat16 and float16 against
#          torch in that dtype (session 70's bf16 scan had ct1d_gemm on TF32 MMAs: 2.98x,
#          39 slower), then float16's ct1d_gemm calls of seed 0's 320 draws with the
#          16-bit MMAs and with CT1D_GEMM_H16=0 (float16 was tested in session 71, not timed),
#          and the 19 bfloat16 calls WGMMA_16BIT_ANY moves from ct1d_gemm to ct1d_wgmma
#          (now that ct1d_gemm multiplies 16-bit natively), with and without it (~5 min)
#   mma16  (any sm_90 card, ~6 min) variants/ct1d_mma_s71_h16.patch applied (ct1d_mma's
#          mma.sync path on 16-bit MMAs, prepared on the CPU only): the GPU tests that take
#          16-bit ct1d_mma calls, then the bfloat16 and float16 scans' mma.sync calls (160
#          draws) with the patch and with CT1D_MMA_H16=0; the patch is reverted after
#   f64gemm (any sm_90 card, ~5 min) variants/ct1d_gemm_s71_f64.patch applied (float64 in
#          ct1d_gemm on DFMAs, behind dispatch.GEMM_F64, prepared on the CPU only): its GPU
#          test (random float64 calls forced to ct1d_gemm), then the float64 calls of 160
#          draws that GEMM_F64 moves (plan_diff), shipped against GEMM_F64 on, each next to
#          torch fp64; the patch is reverted after
#   suite  (any card; K = 1 or 2, ~5.5 min each on an H100) the whole GPU suite in two
#          shards: sessions 70-71 changed float64's route and ct1d_gemm's 16-bit path,
#          each tested only by the tests that cover it (run_2, run_3)
#   h200   (an H200 only) the benchmark sweep that refreshes results/h200/, then the scan
set -uo pipefail
# (the device returns at most 8 files: each step writes into a scratch folder, packed into
# $OUT/STEP.tgz when it ends)
FINAL=${OUT:-benchmarks/results/local}; mkdir -p "$FINAL"; FINAL=$(realpath "$FINAL")
OUT=$(mktemp -d); trap 'tar -czf "$FINAL/${1:-none}${2:+_${2/\//of}}.tgz" -C "$OUT" .' EXIT
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
S70=benchmarks/results/2026-12-07-session70/run_next.sh
source benchmarks/ab_scan.sh     # ab NAME OLD NEW CAP SCAN_ARGS... (session 72: moved there)
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
case ${1:-} in
  scan16)
    cd benchmarks
    for dt in bfloat16 float16; do
      timeout 100 python3 shape_scan.py --no-compare --dtype $dt --json "$OUT/scan_$dt.json" \
        > "$OUT/scan_$dt.txt" 2>&1; echo "scan $dt rc $?"; grep -E "calls:" "$OUT/scan_$dt.txt"
    done
    ab gemm16 "tf32=CT1D_GEMM_H16:0" "" 90 --dtype float16 --n 320 --seed 0 --select ct1d_gemm
    # WGMMA_16BIT_ANY (session 53, when ct1d_gemm's 16-bit products were TF32 and it had no
    # cluster split): the 19 bfloat16 calls of these draws it moves to ct1d_wgmma
    # (cpu/wg16_any_names.txt), with the float32 criteria (old) and shipped (new)
    ab wg16 "off=dispatch.WGMMA_16BIT_ANY:False" "" 60 --dtype bfloat16 --n 320 --seed 0 \
      --names @results/2026-12-07-session71/cpu/wg16_any_names.txt ;;
  mma16)
    git apply benchmarks/variants/ct1d_mma_s71_h16.patch || exit 1
    CUPYCONV_GPU_RANDOM_CONFIGS=160 timeout 200 python3 -m pytest -q -m gpu -p no:cacheprovider \
      -W ignore tests/test_gpu.py -k "(random_configurations and auto) or ((mma_overlapping or \
      edge_cases or small_calls_random or mma_partial_route) and not float32 and not float64)" \
      > "$OUT/mma16_tests.log" 2>&1; echo "tests rc $?"; tail -n 2 "$OUT/mma16_tests.log" | cut -c1-300
    (cd benchmarks
     for dt in bfloat16 float16; do
       ab mma_$dt "tf32=CT1D_MMA_H16:0" "" 75 --dtype $dt --n 160 --seed 0 --select ct1d_mma-sync
     done)
    git apply -R benchmarks/variants/ct1d_mma_s71_h16.patch ;;
  f64gemm)
    git apply benchmarks/variants/ct1d_gemm_s71_f64.patch || exit 1
    timeout 150 python3 -m pytest -q -m gpu -p no:cacheprovider -W ignore tests/test_gpu.py \
      -k "gemm_family_random_calls and float64" > "$OUT/f64gemm_tests.log" 2>&1
    echo "tests rc $?"; tail -n 2 "$OUT/f64gemm_tests.log" | cut -c1-300
    (cd benchmarks
     card=$(grep -q H100 "$OUT/gpu.txt" && echo h100)
     python3 plan_diff.py --variant 'on=dispatch.GEMM_F64:True' --n 160 --seed 0 --dtype float64 \
       --card "$card" --names "$OUT/f64gemm_names.txt" > "$OUT/f64gemm_plan_diff.txt" 2>&1
     tail -n 1 "$OUT/f64gemm_plan_diff.txt"
     ab f64gemm "" "on=dispatch.GEMM_F64:True" 100 --dtype float64 --n 160 --seed 0 \
       --names "@$OUT/f64gemm_names.txt")
    git apply -R benchmarks/variants/ct1d_gemm_s71_f64.patch ;;
  suite|h200) OUT=$OUT bash $S70 "$@" ;;
  *) echo "usage: run_next.sh scan16 | mma16 | f64gemm | suite K/2 | h200"; exit 2 ;;
esac
