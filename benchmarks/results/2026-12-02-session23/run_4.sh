# Session 23 run 4: dw-64-k16-s8's block shape around the new rule (positions per thread x
# threads x segments per block), with dw-512-k6-s3 as a control.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
t0=$SECONDS
cd benchmarks
timeout 200 python3 tune_depthwise.py dw-64-k16-s8 dw-512-k6-s3 > "$OUT/tune_depthwise.txt" 2>&1
echo "tune rc=$? at $((SECONDS - t0)) s"; cat "$OUT/tune_depthwise.txt"
