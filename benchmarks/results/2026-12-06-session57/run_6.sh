#!/usr/bin/env bash
# Session 57 run 6: the 16-bit partial-weight route (MMA_PARTIAL_16BIT_*), fitted on run 5's
# bf16 seed-0 scan, out of sample: the calls whose plan it changes in bf16 seed 1 (57) and
# float16 seed 0 (51), every family forced in one process; then its GPU tests.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=$PWD/benchmarks/results/2026-12-06-session57
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
timeout 150 python3 shape_scan.py --n 1000 --seed 1 --dtype bfloat16 --names @$R/run_6_names_bf16_s1.txt \
  --compare-all --families ct1d_mma,ct1d_stream,ct1d_gemm --json "$OUT/route16_bf16_s1.json" \
  > "$OUT/route16_bf16_s1.txt" 2>&1
echo "bf16 rc $?"; grep -E "calls:" "$OUT/route16_bf16_s1.txt"
timeout 150 python3 shape_scan.py --n 1000 --seed 0 --dtype float16 --names @$R/run_6_names_fp16_s0.txt \
  --compare-all --families ct1d_mma,ct1d_stream,ct1d_gemm --json "$OUT/route16_fp16_s0.json" \
  > "$OUT/route16_fp16_s0.txt" 2>&1
echo "fp16 rc $?"; grep -E "calls:" "$OUT/route16_fp16_s0.txt"
cd ..
PYTHONPATH=$PWD timeout 120 python3 -m pytest -m gpu -n 16 -q -rs -W ignore \
  tests/test_gpu.py -p no:cacheprovider -k "mma_partial" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 3 "$OUT/tests.log" | cut -c1-400
