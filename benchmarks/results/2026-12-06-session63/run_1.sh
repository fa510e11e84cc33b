#!/usr/bin/env bash
# Session 63, run 1 (any sm_90 card, ~5 min): on session 62's 16 random 3xFP16 calls + nc4
# (forced ct1d_wgmma), the tree's kernel (3xFP16 A offsets rederived per chunk, a_rows)
# against: old = the kernel before it (variants/ct1d_wgmma_s63_a_rows.patch reversed);
# out / lean = LEAN's copy-out alone / all of LEAN in the 3xFP16 instances on top
# (variants/ct1d_wgmma_s63_lean_f16x3_parts.patch, CT1D_WGMMA_LEAN_F16X3 = 1 / 7).
# Then, on an H200 only, the benchmark sweep (results/h200 is session 48's).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
V=benchmarks/variants
cp kernels/ct1d_wgmma.cu /tmp/ct1d_wgmma_old.cu && patch -s -R /tmp/ct1d_wgmma_old.cu < $V/ct1d_wgmma_s63_a_rows.patch \
  && cp kernels/ct1d_wgmma.cu /tmp/ct1d_wgmma_lean.cu && patch -s /tmp/ct1d_wgmma_lean.cu < $V/ct1d_wgmma_s63_lean_f16x3_parts.patch \
  || { echo "patch failed"; exit 1; }
calls=(); while read -r s; do calls+=(--call "$s"); done < benchmarks/results/2026-12-06-session62/f16x3_calls.txt
timeout 300 python3 benchmarks/ab_variant.py ct1d_wgmma "${calls[@]}" --rounds 3 \
  --variant old=source:/tmp/ct1d_wgmma_old.cu \
  --variant out=source:/tmp/ct1d_wgmma_lean.cu,CT1D_WGMMA_LEAN_F16X3:1 \
  --variant lean=source:/tmp/ct1d_wgmma_lean.cu,CT1D_WGMMA_LEAN_F16X3:7 > "$OUT/ab_f16x3.txt" 2>&1
echo "ab rc $?"; grep -E "median|largest" "$OUT/ab_f16x3.txt"
if grep -q H200 "$OUT/gpu.txt"; then
  OUT=$OUT/bench timeout 240 bash benchmarks/device_run.sh bench > /dev/null 2>&1; echo "bench rc $?"
  tail -12 "$OUT/bench/bench.log" | cut -c1-170
fi
