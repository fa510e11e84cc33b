#!/usr/bin/env bash
# Session 65 run 5 (any sm_90 card, ~2 min): ct1d_narrow with output channels in chunks of
# at most 4 or 2 per block (dispatch.NARROW_MAX_COG, 8 shipped; the cost model then picks
# positions and channel groups), forced ct1d_narrow on narrow_calls_in.txt (run 2's set),
# 3 rounds. The question: do small wide-reduction calls (r152: 99 blocks of 8 warps, one
# per SM at 244 registers) gain from more, lighter blocks?
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
R=benchmarks/results/2026-12-06-session65; set=${1:-in}
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
calls=(); while read -r s; do calls+=(--call "$s"); done < $R/narrow_calls_$set.txt
timeout 300 python3 benchmarks/ab_variant.py ct1d_narrow "${calls[@]}" --rounds 3 \
  --variant cog4=dispatch.NARROW_MAX_COG:4 --variant cog2=dispatch.NARROW_MAX_COG:2 > "$OUT/ab_cog_$set.txt" 2>&1
echo "ab rc $?"; grep -c median "$OUT/ab_cog_$set.txt"
