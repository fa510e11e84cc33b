# Session 30 run 4: the sweep on the final code, PDL only for calls writing >= 64 MiB
# (run 3: PDL launches cost small calls 5-13 us of host time per call; its sweep's files
# did not come back: more than 8 files under $OUT). Then the dependent-call GPU tests.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc PYTHONUNBUFFERED=1
OUT=$OUT timeout 150 bash benchmarks/device_run.sh bench > /dev/null 2>&1
grep -A10 "^issue 4's targets" $OUT/bench.log | cut -c1-240; grep "wall per call" $OUT/bench.log
timeout 60 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "dependent_calls or graph" 2>&1 | tail -2
