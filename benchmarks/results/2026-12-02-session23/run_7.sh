# Session 23 run 7: run 6 found ct1d_mma's float32 3xFP16 path at 9.5e-7 on one call
# (others 1.6-2.6e-7), every time on fresh data; how it grows with the reduction.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
timeout 200 python3 benchmarks/accuracy_scan.py 2>&1 | tee "$OUT/accuracy_scan.txt"
