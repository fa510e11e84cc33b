#!/usr/bin/env bash
# Session 61, run 8 (any sm_90 card): Nsight Compute on hifigan-u2-b16 with the warp-
# specialised ct1d_wgmma (cp.async staging, CT1D_WGMMA_WS_BULK 0), next to run 2's profile
# of the shipped instance: where its consumers and producer stall, and the tensor pipe's
# active cycles of both.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,uuid --format=csv,noheader | tee "$OUT/gpu.txt"
export CUPY_CACHE_DIR=/tmp/cupyconv-cache PYTHONPATH=$PWD
OUT=$OUT/ws DISPATCH="WGMMA_WS_MAX_NC=3" bash benchmarks/ncu_stalls.sh ct1d_wgmma hifigan-u2-b16
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
m=sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
for d in "" "WGMMA_WS_MAX_NC=3"; do
  echo "== DISPATCH '$d'" >> "$OUT/tensor_active.txt"
  "$NCU" --metrics $m --kernel-name regex:ct1d_wgmma --launch-skip 2 --launch-count 1 \
    python3 benchmarks/profile_call.py hifigan-u2-b16 $d 2>&1 | grep -E "sm__|smsp__|gpu__|ct1d" >> "$OUT/tensor_active.txt"
done
cat "$OUT/tensor_active.txt"
