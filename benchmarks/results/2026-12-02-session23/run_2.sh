# Session 23 run 2: run 1 again with the flat walk's registers fixed (run 1 compiled it
# with __launch_bounds__(THREADS, 1), which made ptxas take 117-123 registers: 4 blocks
# per SM) and its launches prepared once (run 1 timed prepare() per launch, the occupancy
# query included); the row-bound grid also at 2 and 8 segments per block and with 2
# positions per thread.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/environment.txt"
cd benchmarks
R="--rowgrid rowgrid-t2=2 --rowgrid rowgrid-t8=8 --rowgrid rowgrid-u2=4,dispatch._DEPTHWISE_REGS:20"
V="--variant w2=waves.ct1d_depthwise:2 --variant mb8=CT1D_DW_MIN_BLOCKS:8 --variant u2=dispatch._DEPTHWISE_REGS:20"
timeout 400 python3 ab_depthwise_walk.py --rounds 5 $R $V > "$OUT/ab_walk.txt" 2>&1
echo "ab rc=$? at $((SECONDS - t0)) s"; grep -E "copy bandwidth|^[a-z].*torch|median" "$OUT/ab_walk.txt"
grep -E "^  [a-z]" "$OUT/ab_walk.txt" | awk '{print $1, $NF, $(NF-2)}' | sort -u | head -0
grep -m 20 -E "regs" "$OUT/ab_walk.txt" | head -20
