#!/usr/bin/env bash
# For the next session with device time.
# Usage: run_next.sh lean | ws2 | both | h200   (both: lean, then ws2, in one device call)
#   lean  (any sm_90 card; ~2 min): the untested LEAN variant of ct1d_wgmma
#         (benchmarks/variants/ct1d_wgmma_s61_lean.patch: 16-byte copy-out stores where
#         float32 rows of y allow, cp.async without per-copy clamps for whole channel blocks
#         and x windows inside the row), written in session 61 with no device time left.
#         A/B against the shipped source on the wide float32 layers, calls with partial
#         channel blocks, partial chunks, groups, odd tile starts and rows of y not in
#         16-byte units, and bfloat16; every output NaN-poisoned and checked against
#         float64 by ab_variant.py. If it wins, move it into kernels/ and run the wgmma
#         family's GPU tests.
#   ws2   (any sm_90 card; ~2 min): runs 6-8's producer design with two producer warpgroups
#         instead of one (512-thread blocks, setmaxnreg 40 / 216: NVRTC builds them without
#         spills at <= 2 offsets), since one producer was the bottleneck (run 8). Applies
#         benchmarks/variants/ct1d_wgmma_s61_ws2.patch to this copy of the tree (kernel,
#         key, dispatch knob WGMMA_WS_MAX_NC, grid, GPU test variant), runs the smoke calls,
#         the test variant and the A/B, and takes the patch out again. Not yet run.
#   h200  (an H200 only): session 60's pending H200 checks (its run_next.sh h200).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
case ${1:-} in
  lean)
    nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
    wide=(hifigan-u1-b16 hifigan-u2-b16 hifigan-u3-b16 hifigan-u1-b4-long hifigan-u2-b4-long
          hifigan-u3-b4-long encodec-s8 encodec-s5 encodec-s4 up-256-256-s2 up-512-512-s2 small-512-256-s8)
    extra=(--call nc1=8,256,256,4,4096,4,0,1,1 --call nc3=8,256,128,3,8192,1,1,1,1
           --call nc4=8,256,256,7,8192,2,3,1,1 --call edge=4,200,100,16,1001,8,4,1,1
           --call odd=4,256,192,4,1000,2,1,1,1 --call lodd=4,256,192,4,1001,2,1,1,1
           --call g2=4,512,256,8,2000,4,2,1,2)
    # (the variant source: kernels/ct1d_wgmma.cu with the patch, named after its family)
    cp kernels/ct1d_wgmma.cu /tmp/ct1d_wgmma_lean.cu
    patch -s /tmp/ct1d_wgmma_lean.cu < benchmarks/variants/ct1d_wgmma_s61_lean.patch || { echo "patch failed"; exit 1; }
    V=(--variant lean=source:/tmp/ct1d_wgmma_lean.cu)
    timeout 300 python3 benchmarks/ab_variant.py ct1d_wgmma "${wide[@]}" "${extra[@]}" --rounds 5 "${V[@]}" \
      > "$OUT/ab_lean.txt" 2>&1
    echo "ab rc $?"; grep -E "median|largest" "$OUT/ab_lean.txt"
    timeout 150 python3 benchmarks/ab_variant.py ct1d_wgmma hifigan-u1-b4-long hifigan-u2-b16 encodec-s5 \
      up-512-512-s2 --dtype bfloat16 --rounds 3 "${V[@]}" > "$OUT/ab_lean_bf16.txt" 2>&1
    echo "ab bf16 rc $?"; grep -E "median|largest" "$OUT/ab_lean_bf16.txt" ;;
  ws2)
    R=benchmarks/results/2026-12-06-session61; P=benchmarks/variants/ct1d_wgmma_s61_ws2.patch
    nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
    apply() { patch "$@" -p1 < $P > /dev/null || git apply "$@" $P; }    # (-R: take it out)
    apply || { echo "patch failed"; exit 1; }
    for spec in "u2=16,256,128,16,2048,8,4,1,1 0" "u2=16,256,128,16,2048,8,4,1,1 1" \
                "edge=4,200,72,4,4000,2,1,1,1 1"; do
      timeout 60 python3 $R/ws_smoke.py $spec 2>&1 | tail -3 | tee -a "$OUT/smoke.txt"
      [[ ${PIPESTATUS[0]} -eq 0 ]] || { echo "smoke failed"; apply -R; exit 1; }
    done
    timeout 120 python3 -m pytest -m gpu -q -rs -W ignore tests/test_gpu.py -p no:cacheprovider \
      -k "test_wgmma_family_random_calls and True" > "$OUT/tests_ws2.log" 2>&1
    echo "tests rc $?"; tail -n 3 "$OUT/tests_ws2.log" | cut -c1-300
    wide=(hifigan-u1-b16 hifigan-u2-b16 hifigan-u3-b16 hifigan-u1-b4-long hifigan-u2-b4-long
          hifigan-u3-b4-long encodec-s8 encodec-s5 encodec-s4 up-256-256-s2 up-512-512-s2 small-512-256-s8)
    timeout 240 python3 benchmarks/ab_variant.py ct1d_wgmma "${wide[@]}" --call nc1=8,256,256,4,4096,4,0,1,1 \
      --call nc2s3=8,384,192,6,8192,3,2,1,1 --rounds 3 --variant ws2=dispatch.WGMMA_WS_MAX_NC:3 \
      --variant ws2_persist=dispatch.WGMMA_WS_MAX_NC:3,waves.ct1d_wgmma_ws:1 > "$OUT/ab_ws2.txt" 2>&1
    echo "ab rc $?"; grep -E "median|largest" "$OUT/ab_ws2.txt"
    apply -R ;;
  both)
    OUT=$OUT/lean bash "$0" lean; OUT=$OUT/ws2 bash "$0" ws2 ;;
  h200)
    bash benchmarks/results/2026-12-06-session60/run_next.sh h200 ;;
  *) echo "usage: run_next.sh lean | ws2 | both | h200"; exit 2 ;;
esac
