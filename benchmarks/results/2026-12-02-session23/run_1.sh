# Session 23 run 1: ct1d_depthwise's 1-D tile walk over all rows (grid = resident blocks)
# against the row-bound grid it replaces; GPU tests of the depthwise family first.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/environment.txt"
timeout 240 python3 -m pytest -m gpu -q -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider -k depthwise \
  > "$OUT/gpu_tests_depthwise.log" 2>&1
echo "tests rc=$? at $((SECONDS - t0)) s"; tail -3 "$OUT/gpu_tests_depthwise.log"
cd benchmarks
V="--variant w2=waves.ct1d_depthwise:2 --variant mb8=CT1D_DW_MIN_BLOCKS:8"
V="$V --variant mb8w2=CT1D_DW_MIN_BLOCKS:8,waves.ct1d_depthwise:2 --variant u2=dispatch._DEPTHWISE_REGS:20"
timeout 300 python3 ab_depthwise_walk.py --rounds 5 $V > "$OUT/ab_walk.txt" 2>&1
echo "ab rc=$? at $((SECONDS - t0)) s"; grep -E "copy bandwidth|^[a-z].*torch|median" "$OUT/ab_walk.txt"
