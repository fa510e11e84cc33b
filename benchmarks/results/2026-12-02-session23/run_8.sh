# Session 23 run 8: the 3xFP16 rule (at most 512 products per output): the new
# long-reduction test and the warpgroup random-call tests.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1 CUPYCONV_REPORT_DIR=$OUT
timeout 300 python3 -m pytest -m gpu -q -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "long_reductions or mma_warpgroup_random or staged_and_strided or gemm_family" > "$OUT/gpu_tests.log" 2>&1
echo "tests rc=$?"; tail -2 "$OUT/gpu_tests.log"
python3 benchmarks/merge_gpu_stats.py "$OUT" > /dev/null
python3 -c "
import json; d = json.load(open('$OUT/gpu_test_stats.json'))
for k, v in sorted(d.items()):
    if k.startswith('err_float32'): print(k, '%.2e' % v)
"
