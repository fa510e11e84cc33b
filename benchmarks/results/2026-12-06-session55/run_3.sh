#!/usr/bin/env bash
# Session 55 run 3: the wave-aware ct1d_narrow plan (NARROW_WAVES) with its model's
# blocks per SM made exact by a 128-register cap (CT1D_NARROW_MIN_BLOCKS 2, NARROW_BPS 2),
# with and without x of two channels in flight, on run 1's six calls and eight scan calls
# whose plan NARROW_WAVES changes, and (output channels in chunks of 8 per block) three
# small calls with wide reductions that torch runs 3x faster (scan r029, r098, r152);
# GPU tests first (ct1d_narrow's, with chunks in the random calls; random configurations,
# the float64 routing); bf16 narrow-output calls on ct1d_narrow and ct1d_scatter;
# the scan with waves, the cap and AHEAD 2.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
PYTHONPATH=$PWD timeout 150 python3 -m pytest -m gpu -n 16 -q -rs -W ignore tests/test_gpu.py \
  -p no:cacheprovider -k "narrow or random_configurations or determinism" > "$OUT/tests.log" 2>&1
echo "tests rc $?"; tail -n 4 "$OUT/tests.log" | cut -c1-400
cd benchmarks
export PYTHONPATH=$PWD/..:$PWD
calls=(--call in512-out8=16,512,8,4,16384,2,1,1 --call in256-out8-k16=8,256,8,16,7352,2,0,2
       --call in768-out8-s10=8,768,8,20,2359,10,8,1 --call in128-out8-s8=4,128,8,16,7812,8,4,1
       --call in1024-out4=4,1024,4,8,8192,4,2,1 --call in192-out1=8,192,1,7,30612,4,1,1
       --call r009=1,256,16,7,55556,2,3,1,16 --call r021=16,8,4,4,23440,2,1,3
       --call r071=8,512,4,5,1454,1,2,1,4 --call r094=4,64,32,4,11718,2,0,2,4
       --call r122=16,256,8,7,10715,3,7,3,4 --call r128=16,128,4,4,7355,2,2,2,2
       --call r145=16,192,1,16,5000,8,12,2 --call r159=8,64,1,5,81082,10,1,1
       --call r029=1,768,24,10,1024,5,0,1 --call r098=1,1024,64,3,1024,1,1,1
       --call r152=1,1024,24,20,1024,10,7,1)
W=dispatch.NARROW_WAVES:True
timeout 300 python3 ab_variant.py ct1d_narrow "${calls[@]}" --rounds 3 \
  --variant waves=$W --variant waves_a2=$W,CT1D_NARROW_AHEAD:2 \
  --variant waves_m2=$W,dispatch.NARROW_BPS:2,CT1D_NARROW_MIN_BLOCKS:2 \
  --variant waves_m2_a2=$W,dispatch.NARROW_BPS:2,CT1D_NARROW_MIN_BLOCKS:2,CT1D_NARROW_AHEAD:2 \
  > "$OUT/ab_narrow.txt" 2>&1
echo "ab rc $?"; grep -E "^\S.*torch|median" "$OUT/ab_narrow.txt" | cut -c1-220
# 16-bit narrow-output calls: ct1d_narrow against the fallback ct1d_scatter (run 2 timed
# the others)
timeout 90 python3 family_compare.py narrow --dtype bfloat16 --families ct1d_narrow,ct1d_scatter \
  > "$OUT/fc_bf16_scatter.txt" 2>&1
echo "fc rc $?"; cut -c1-160 "$OUT/fc_bf16_scatter.txt"
# the scan with the wave-aware plan, the register cap and AHEAD 2 (compare run_1/scan.txt)
timeout 100 python3 shape_scan.py --no-compare --variant m2a2=$W,dispatch.NARROW_BPS:2,CT1D_NARROW_MIN_BLOCKS:2,CT1D_NARROW_AHEAD:2 \
  --json "$OUT/scan_m2a2.json" > "$OUT/scan_m2a2.txt" 2>&1
echo "scan rc $?"; grep -E "calls:" "$OUT/scan_m2a2.txt"
