#!/usr/bin/env bash
# DRAM and L2 traffic of one kernel launch, by Nsight Compute at the GPU's own clocks:
# did a kernel move the bytes it should (x read once, y written once), and at what rate?
# Usage (GPU machine, repo root): bash benchmarks/ncu_dram.sh LABEL KERNEL_REGEX CMD ...
# e.g. bash benchmarks/ncu_dram.sh seed ct1d_mma python3 benchmarks/profile_call.py seed
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
label=$1 kern=$2; shift 2
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
metrics+=,lts__t_sector_op_read_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active
"$NCU" --clock-control none --metrics "$metrics" --kernel-name "regex:$kern" --launch-skip "${SKIP:-2}" \
    --launch-count 1 --print-units base "$@" > "/tmp/ncu_dram_$label.log" 2>&1
{ echo "== $label ($kern): $*"; grep -E "^ +(gpu__|dram__|lts__|sm__)" "/tmp/ncu_dram_$label.log" \
    || tail -20 "/tmp/ncu_dram_$label.log"; } | tee -a "$OUT/ncu_dram.txt"
