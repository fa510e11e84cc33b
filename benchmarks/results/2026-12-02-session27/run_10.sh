# Session 27 run 10 (typed as one command line): after the _plan_mma cleanup (plans
# identical to before on 72000 CPU-planned calls), the small-call, CUDA graph, repeat-call
# and public-API GPU tests. Outcome: 9 passed, 33 s.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc
timeout 250 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py -k "small_calls or graph or repeat or public_api" -n 16 > $OUT/gpu_tests_small.txt 2>&1
