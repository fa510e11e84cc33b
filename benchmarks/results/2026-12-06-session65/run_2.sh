#!/usr/bin/env bash
# Session 65 run 2 (any sm_90 card, <= 9 min): ct1d_narrow's weights staged by cp.async
# into a ring of 3 chunks (NarrowKey.w_stages) instead of through registers, at chunk
# sizes of 8 / 16 / 32 weights per thread (w_regs), against the shipped kernel, forced
# ct1d_narrow on the float32 calls the dispatcher gives it in draw 0 and the small
# wide-reduction ones of draws 1 and 3 (narrow_calls_in.txt); then the family's GPU tests
# (with the new "ring" variant). Usage: run_2.sh [in|out] (out: narrow_calls_out.txt,
# 40 calls of draw 1 and draw 2's small ones, not looked at when choosing).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session65; set=${1:-in}
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
calls=(); while read -r s; do calls+=(--call "$s"); done < $R/narrow_calls_$set.txt
V=(--variant ring8=dispatch.NARROW_W_STAGES:3
   --variant ring16=dispatch.NARROW_W_STAGES:3,dispatch.NARROW_W_REGS:16
   --variant ring32=dispatch.NARROW_W_STAGES:3,dispatch.NARROW_W_REGS:32
   --variant ring32u4=dispatch.NARROW_W_STAGES:3,dispatch.NARROW_W_REGS:32,CT1D_NARROW_ISSUE_UNROLL:4
   --variant regs16=dispatch.NARROW_W_REGS:16)
[[ -n ${RING_VARIANTS:-} ]] && read -ra V <<< "$RING_VARIANTS"    # (e.g. only the chosen variant)
timeout 330 python3 benchmarks/ab_variant.py ct1d_narrow "${calls[@]}" --rounds 3 "${V[@]}" > "$OUT/ab_narrow_$set.txt" 2>&1
echo "ab rc $?"; grep -E "median|largest" "$OUT/ab_narrow_$set.txt" | head -20
if [[ $set == in ]]; then
  timeout 150 python3 -m pytest -m gpu -q -rs -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
    -k "narrow_family" > "$OUT/tests_narrow.log" 2>&1
  echo "tests rc $?"; tail -n 3 "$OUT/tests_narrow.log" | cut -c1-300
fi
