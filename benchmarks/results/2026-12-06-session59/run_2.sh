#!/usr/bin/env bash
# Session 59 run 2 (any sm_90 card): how many clusters of 1-8 whole-SM blocks the device
# holds at once (_gpu.device_cluster_slots, cuOccupancyMaxActiveClusters), then every
# cluster size 1-8 of ct1d_gemm_split on draws 6 and 7 (split_scan.py now records each
# instance's own resident clusters), for a wave-aware split rule.
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT/split"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1 CUPY_CACHE_DIR=/tmp/cupyconv-cache
nvidia-smi --query-gpu=name,uuid,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
python3 -c "
import cupy
from cupyconv import _gpu
print('SMs', cupy.cuda.Device(0).attributes['MultiProcessorCount'])
print('cluster slots (sizes 1-8, one block per SM):', _gpu.device_cluster_slots(0))
" 2>&1 | tee "$OUT/slots.txt"
cd benchmarks
for seed in 6 7; do
  timeout 260 python3 split_scan.py --n 1000 --seed $seed --splits 1,2,3,4,5,6,7,8 \
    --json "$OUT/split/split_scan_s$seed.json" > "$OUT/split/split_scan_s$seed.txt" 2>&1
  echo "seed $seed rc $?"; tail -n 3 "$OUT/split/split_scan_s$seed.txt"
done
tar -C "$OUT" -czf "$OUT/split.tgz" split && rm -rf "$OUT/split"
