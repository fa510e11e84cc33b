# Session 24 run 6: the long-reduction and split-chain GPU tests after the review's label fix
# (the recorded key is now the plan that runs).
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
CUPYCONV_REPORT_DIR=$OUT timeout 300 python3 -m pytest -m gpu -q -rs -n 16 -W ignore tests/test_gpu.py -p no:cacheprovider \
  -k "long_reductions or split_chains" > "$OUT/gpu_tests.txt" 2>&1
echo "tests rc=$?"; tail -2 "$OUT/gpu_tests.txt"
python3 benchmarks/merge_gpu_stats.py "$OUT" > /dev/null 2>&1
python3 -c "
import json; d = json.load(open('$OUT/gpu_test_stats.json'))
for k, v in sorted(d.items()):
    if k.startswith('worst_'): print(k, '%.2e' % v['err'], v['call'].split('key')[-1][:70])"
