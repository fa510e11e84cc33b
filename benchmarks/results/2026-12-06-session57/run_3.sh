#!/usr/bin/env bash
# Session 57 run 3 (PART=a, ~6 min): GEMM_CK8 on the 11 other calls of the two 1000-call
# draws whose plan it changes (seed 0: 4, seed 1: 9 less r104/r114 of run 1), and the
# ct1d_gemm calls of the second draw (seed 1) against forced ct1d_wgmma, out of sample for
# a wider ct1d_wgmma rule fitted on run 1's seed-0 data (WGMMA_ANY_*; the scan selects
# with the rule off), and that rule on the sweep call it moves (small-512-256-s8).
# PART=b: run 1's bf16 scan again (shape_scan --dtype bfloat16 now calls the API on torch).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
PART=${PART:-ab}
if [[ $PART == *a* ]]; then
timeout 170 python3 ab_variant.py auto --call s0r160=4,24,256,16,14288,1,4,1,1 \
  --call s0r601=4,32,1024,16,723,2,15,2,1 --call s0r626=1,48,128,7,1024,1,2,1,1 \
  --call s0r840=1,128,192,16,11719,2,1,2,1 --call s1r208=1,32,1024,16,1024,1,2,1,1 \
  --call s1r254=1,768,128,7,1024,2,3,2,1 --call s1r324=1,512,128,17,1024,8,14,2,1 \
  --call s1r477=1,512,768,7,1024,1,3,1,1 --call s1r528=1,24,96,16,1024,2,0,1,1 \
  --call s1r534=16,32,768,16,1913,2,9,2,4 --call s1r826=1,24,512,6,1024,3,7,3,1 \
  --variant ck8=dispatch.GEMM_CK8:True > "$OUT/ab_ck8.txt" 2>&1
echo "ck8 rc $?"; grep -E "^[a-z0-9]+ \(|median|largest" "$OUT/ab_ck8.txt" | cut -c1-160
timeout 60 python3 ab_variant.py auto small-512-256-s8 --rounds 5 \
  --variant gemm=dispatch.WGMMA_ANY_MIN_BLOCKS:1073741824 > "$OUT/ab_small512.txt" 2>&1
echo "small512 rc $?"; grep -E "^[a-z0-9-]+ \(|median|largest" "$OUT/ab_small512.txt" | cut -c1-160
timeout 220 python3 shape_scan.py --n 1000 --seed 1 --select ct1d_gemm --compare-all \
  --variant old=dispatch.WGMMA_ANY_MIN_BLOCKS:1073741824 \
  --families ct1d_gemm,ct1d_wgmma --json "$OUT/gemm_scan_s1.json" > "$OUT/gemm_scan_s1.txt" 2>&1
echo "gemm scan rc $?"; grep -E "calls:" "$OUT/gemm_scan_s1.txt"
fi
if [[ $PART == *b* ]]; then
timeout 280 python3 shape_scan.py --n 1000 --dtype bfloat16 --select ct1d_mma-sync --compare-all \
  --families ct1d_mma,ct1d_stream,ct1d_gemm,ct1d_narrow --json "$OUT/bf16_sync_scan.json" \
  > "$OUT/bf16_sync_scan.txt" 2>&1
echo "bf16 scan rc $?"; grep -E "calls:" "$OUT/bf16_sync_scan.txt"
fi
