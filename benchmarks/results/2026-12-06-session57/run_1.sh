#!/usr/bin/env bash
# Session 57 run 1 (session 56's run_next.sh split in two: PART=a the first three, PART=b the bf16 scan):
#  - GEMM_CK8 (ct1d_gemm rings of 8-channel chunks, experimental, off) against the default
#    on the wide one-class K16 calls that run on ct1d_narrow (seed 1's r104/r114), plus two
#    smaller one-class calls it would take;
#  - ct1d_gemm's calls against forced ct1d_wgmma (scan r131: 0.313 vs 0.210 ms; the
#    WGMMA_MIN_BLOCKS rule), 1000 random draws;
#  - the partial-weight route on the small calls it leaves on ct1d_mma
#    (MMA_PARTIAL_MIN_POSITIONS 0 against 1280, in one process);
#  - last (optional, ~4 min): bfloat16 calls on ct1d_mma's mma.sync tiles against the other
#    families (is the partial-weight route worth having there too?).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
PART=${PART:-ab}
if [[ $PART == *a* ]]; then
timeout 150 python3 ab_variant.py auto --call r104=1,384,512,16,17857,1,1,1 \
  --call r114=4,768,512,16,6698,2,13,2 --call k12s1=8,256,256,12,4000,1,5,1 \
  --call k13s3d3=4,200,192,13,3000,3,6,3 --variant ck8=dispatch.GEMM_CK8:True \
  > "$OUT/ab_ck8.txt" 2>&1
echo "ck8 rc $?"; grep -E "^[a-z0-9]+ \(|median|largest" "$OUT/ab_ck8.txt" | cut -c1-160
timeout 200 python3 shape_scan.py --n 1000 --select ct1d_gemm --compare-all \
  --families ct1d_gemm,ct1d_wgmma --json "$OUT/gemm_scan.json" > "$OUT/gemm_scan.txt" 2>&1
echo "gemm scan rc $?"; grep -E "calls:" "$OUT/gemm_scan.txt"
timeout 120 python3 ab_variant.py auto --call r126=1,64,24,4,1024,2,2,3 \
  --call r144=1,64,128,3,1024,4,1,1 --call r609=1,32,768,7,1024,5,6,3 \
  --call r556=1,32,768,7,1024,8,9,3 --call r267=1,96,16,16,1024,8,7,1 \
  --call r626=1,48,128,7,1024,1,2,1 --variant all=dispatch.MMA_PARTIAL_MIN_POSITIONS:0 \
  > "$OUT/ab_small.txt" 2>&1
echo "small rc $?"; grep -E "median" "$OUT/ab_small.txt" | cut -c1-160
fi
if [[ $PART == *b* ]]; then
timeout 280 python3 shape_scan.py --n 1000 --dtype bfloat16 --select ct1d_mma-sync --compare-all \
  --families ct1d_mma,ct1d_stream,ct1d_gemm,ct1d_narrow --json "$OUT/bf16_sync_scan.json" \
  > "$OUT/bf16_sync_scan.txt" 2>&1
echo "bf16 scan rc $?"; grep -E "calls:" "$OUT/bf16_sync_scan.txt"
fi
