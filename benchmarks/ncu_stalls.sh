#!/usr/bin/env bash
# Nsight Compute profile of sweep calls: speed of light, memory, occupancy, warp states and
# the instructions with the most stall samples, one text file per call in $OUT.
# Usage (GPU machine, repo root): bash benchmarks/ncu_stalls.sh KERNEL_REGEX CONFIG ...
# CONFIG: a sweep configuration's name or a spec NAME=N,C_in,C_out,K,L,S,P,D[,G] (the
# files are named after NAME). DISPATCH="NAME=VALUE MACRO:VALUE ..." sets constants of
# cupyconv._dispatch and kernel macros for the profiled calls (benchmarks/profile_call.py),
# e.g. DISPATCH="PIPE_WS_SHAPES=((2,1,5,2),)" or DISPATCH=CT1D_NARROW_CONTIG:0; TAG=X
# appends _X to the file names (two profiles of one call side by side).
set -uo pipefail
OUT=${OUT:-benchmarks/results/local}; mkdir -p "$OUT"
export PYTHONPATH=$PWD:$PWD/benchmarks PYTHONUNBUFFERED=1
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
kern=$1; shift
for c in "$@"; do
  n=${c%%=*}${TAG:+_$TAG}; rep=/tmp/ncu_$n
  "$NCU" -f -o "$rep" --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
      --section LaunchStats --section WarpStateStats --section SourceCounters \
      --kernel-name "regex:$kern" --launch-skip 2 --launch-count 1 \
      python3 benchmarks/profile_call.py "$c" ${DISPATCH:-} > "$rep.log" 2>&1 || { tail -20 "$rep.log"; continue; }
  { "$NCU" --import "$rep.ncu-rep" --print-units base
    "$NCU" --import "$rep.ncu-rep" --page source --csv --print-source sass | gzip > "$rep.csv.gz"
    python3 benchmarks/stall_summary.py "$rep.csv.gz" 30; } > "$OUT/ncu_$n.txt" 2>&1
  grep -E "Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Warp Cycles Per Issued" "$OUT/ncu_$n.txt" | head -12
done
