#!/usr/bin/env bash
# Session 55 run 1 (session 54 run_4.sh plus the wave-aware narrow plan, NARROW_WAVES):
# session 54's final rules, not run on a GPU since they were written:
#  - shape_scan.py's 160 random float32 calls against torch, ct1d_narrow routed (float32,
#    > 4 input, <= 8 output channels per group; compute-heavy ones to ct1d_wgmma) and
#    ct1d_wgmma only above half-dense GEMMs (run_2/scan.txt is the same scan before);
#  - the GPU tests those touch (ct1d_narrow's, ct1d_wgmma's random calls on the new
#    structure list);
#  - ct1d_narrow's knobs on its compute-heavy calls (A/B, 3 rounds);
#  - 16-bit and float64 on the narrow-output calls (not routed: unmeasured).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
[[ ${SCAN_ONLY:-} ]] || { PYTHONPATH=$PWD timeout 150 python3 -m pytest -m gpu -n 16 -q -rs -W ignore \
  tests/test_gpu.py -p no:cacheprovider -k "narrow or wgmma_family" > "$OUT/tests.log" 2>&1
  echo "tests rc $?"; tail -n 4 "$OUT/tests.log" | cut -c1-400; }
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
timeout 140 python3 shape_scan.py ${SCAN_ONLY:+--no-compare} --json "$OUT/scan.json" > "$OUT/scan.txt" 2>&1
echo "scan rc $?"; grep -E "narrow|calls:" "$OUT/scan.txt" | cut -c1-130 | head -40
[[ ${SCAN_ONLY:-} ]] && exit 0
calls=(--call in512-out8=16,512,8,4,16384,2,1,1 --call in256-out8-k16=8,256,8,16,7352,2,0,2
       --call in768-out8-s10=8,768,8,20,2359,10,8,1 --call in128-out8-s8=4,128,8,16,7812,8,4,1
       --call in1024-out4=4,1024,4,8,8192,4,2,1 --call in192-out1=8,192,1,7,30612,4,1,1)
timeout 210 python3 ab_variant.py ct1d_narrow "${calls[@]}" --rounds 3 \
  --variant minb2=CT1D_NARROW_MIN_BLOCKS:2 --variant ahead2=CT1D_NARROW_AHEAD:2 \
  --variant blocks1056=dispatch.NARROW_MIN_BLOCKS:1056 --variant waves=dispatch.NARROW_WAVES:True --variant waves_ahead2=dispatch.NARROW_WAVES:True,CT1D_NARROW_AHEAD:2 > "$OUT/ab_narrow.txt" 2>&1
echo "ab rc $?"; tail -n 30 "$OUT/ab_narrow.txt" | cut -c1-160
