# Session 26 run 8 (typed as one command line): the random-configuration and edge-case GPU
# tests on the final code; cut by its 200 s limit after ~90% of them, none failed.
export PYTHONPATH=$PWD CUPY_CACHE_DIR=/tmp/cc
timeout 200 python3 -m pytest -q -p no:cacheprovider tests/test_gpu.py \
  -k "random_configurations and auto or edge_cases" -n 16 > $OUT/gpu_tests_random.txt 2>&1
