#!/usr/bin/env bash
# Session 50 run 2 (any card): ct1d_pipe's warp-specialised stages paired by mbarriers,
# which lifts the named-barrier limit (1 + ws + wg + 2 stages <= 16) on block shapes.
# mball: the shipped shapes with mbarriers (their cost); n321/n411/n322: 3 + 2, 4 + 1,
# 3 + 2 with two output buffers for the narrow-x calls; l316: 3 + 1 with 6 stages for
# long reductions; w316/w411: the same for the H100's 64-channel 8-step calls.
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu.txt"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
summ() { grep -E "^[a-z0-9-]+ \(|median|largest|rc|Error|error" "$1" | cut -c1-200; }
N21='(2,2,5,2),(2,2,5,1)'
(cd benchmarks && timeout 420 python3 ab_variant.py auto \
   sd-s5d1k11 g16-512-k16-s8 up-16-16-s8 up-32-32-s4 g8-256-k8-s4 sd-s2d4k4 hifigan-u4-b16 encodec-s2 \
   --rounds 5 \
   --variant "mball=CT1D_PIPE_MBAR:1,dispatch.PIPE_WS_MBAR_ALL:True" \
   --variant "n321=dispatch.PIPE_WS_NARROW:((3,2,6,1),$N21)" \
   --variant "n411=dispatch.PIPE_WS_NARROW:((4,1,6,1),$N21)" \
   --variant "n322=dispatch.PIPE_WS_NARROW:((3,2,6,2),(3,2,6,1),$N21)" \
   --variant "l316=dispatch.PIPE_WS_LONG:((3,1,6,1),(3,1,5,1),(3,1,5,2),(2,2,5,1),(2,1,5,1))" \
   --variant "w316=dispatch.PIPE_WS_WIDE:((3,1,6,1),(2,1,5,2),(2,1,4,2),(2,1,4,1))" \
   --variant "w411=dispatch.PIPE_WS_WIDE:((4,1,6,1),(2,1,5,2),(2,1,4,2),(2,1,4,1))" \
   ) > "$OUT/ab_mbar.txt" 2>&1
echo "ab rc $?" >> "$OUT/ab_mbar.txt"; summ "$OUT/ab_mbar.txt"
