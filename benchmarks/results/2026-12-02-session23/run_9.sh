# Session 23 run 9: the accuracy rule moved to where the error arises: float32 warpgroup
# tiles only for wgmma chains of at most 24 k16 steps (MMA_WG_F16X3_MAX_STEPS), the
# mma.sync 3xFP16 tile (which adds every step's products on the CUDA cores) for longer
# ones. Long-reduction tests, the warpgroup random-call tests, then the accuracy scan.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1 CUPYCONV_REPORT_DIR=$OUT
timeout 200 python3 -m pytest -m gpu -q -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "long_reductions or mma_warpgroup_random" > "$OUT/gpu_tests.log" 2>&1
echo "tests rc=$?"; tail -2 "$OUT/gpu_tests.log"
python3 benchmarks/merge_gpu_stats.py "$OUT" > /dev/null
python3 -c "
import json; d = json.load(open('$OUT/gpu_test_stats.json'))
for k, v in sorted(d.items()):
    if k.startswith('err_float32'): print(k, '%.2e' % v)
"
timeout 60 python3 benchmarks/accuracy_scan.py 2>&1 | tee "$OUT/accuracy_scan.txt"
